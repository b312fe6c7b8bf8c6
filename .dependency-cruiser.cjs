/*
 * The declared order of the code (DESIGN.md section 1, issue 34): each area of src/domain/
 * imports only the areas below it; work that joins areas lives in src/flows/ above them all;
 * the web, the jobs and the command line sit on top. `bun run lint:deps` checks it.
 *
 * No circle between areas: each area imports only those before it in AREAS, so an import that
 * would close an area circle is an import against the order (area-order-*). (dependency-cruiser's
 * folder-scope rules cannot be limited to src/domain/: the seeds in src/db/ import areas and every
 * area imports the schema, which would make every area a circle through src/db.)
 *
 * Type-only imports count: the swc parser reads the source as written, so `import type`
 * is an edge like any other (TypeScript 7 has no compiler API yet, which is why the parser
 * is swc and not tsc).
 */

// Bottom to top. An area may import the ones before it in this list, never one after it.
const AREAS = ['mail', 'operations', 'payments', 'inventory', 'accounts', 'catalog', 'games', 'orders', 'auctions', 'promotions'];

const WEB = '^src/(routes|http|components|islands|client|jobs|cli|app[.]ts|server[.]ts)';

const areaRules = AREAS.map((area, i) => {
  const above = AREAS.slice(i + 1);
  return {
    name: `area-order-${area}`,
    comment: `${area} imports only the areas below it (${AREAS.slice(0, i).join(', ') || 'none'}), never ${above.join(', ') || 'flows'} or flows: move the joining work up into src/flows/`,
    severity: 'error',
    from: { path: `^src/domain/${area}/` },
    to: { path: above.length ? `^src/(flows/|domain/(${above.join('|')})/)` : '^src/flows/' },
  };
});

module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      comment: 'No import circle between files, type imports included.',
      severity: 'error',
      from: { path: '^src/' },
      to: { circular: true },
    },
    ...areaRules,
    {
      name: 'shared-domain-below-areas',
      comment: 'clock.ts and errors.ts are shared by every area: they import none.',
      severity: 'error',
      from: { path: '^src/domain/[^/]+[.]ts$' },
      to: { path: '^src/(flows|domain/[^/]+)/' },
    },
    {
      name: 'domain-below-flows-and-web',
      comment: 'The areas and the flows never import the web layers, the jobs or the command line: pass what they need in.',
      severity: 'error',
      from: { path: '^src/(domain|flows)/' },
      to: { path: WEB },
    },
    {
      name: 'db-and-shared-below-domain',
      comment: 'The schema and the code shared with the browser sit under every area.',
      severity: 'error',
      from: { path: '^src/(db|shared)/', pathNot: '^src/db/seed' },
      to: { path: `^src/(domain|flows)/|${WEB}` },
    },
  ],
  options: {
    parser: 'swc',
    tsConfig: { fileName: 'tsconfig.json' },
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '^src/db/migrations/' },
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['import', 'require', 'node', 'default', 'types'],
      extensions: ['.ts', '.tsx', '.js', '.mjs', '.cjs', '.json'],
    },
    reporterOptions: {
      text: { highlightFocused: true },
    },
  },
};
