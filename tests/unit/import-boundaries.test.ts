import { describe, expect, test } from 'bun:test';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { projectRoot } from '../../src/runtime-files.ts';

/*
 * The layer rules of biome.json (docs/decisions.md "Lint and layers"), checked the way they
 * fail: each probe is a one-line file importing across a boundary, linted with the project's
 * own configuration in a scratch folder. A rule that stopped matching would pass `bun run lint`
 * silently; here it fails.
 */

const biome = join(projectRoot, 'node_modules/.bin/biome');

/** [file, import, refused?] */
const probes: [string, string, boolean][] = [
  ['src/domain/catalog-probe.ts', '../http/request.ts', true],
  ['src/domain/games/probe.ts', '../../routes/api/games.ts', true],
  ['src/domain/probe-hono.ts', 'hono', true],
  ['src/domain/probe-islands.ts', '../islands/lib/toast.ts', true],
  ['src/domain/probe-jobs.ts', '../jobs/index.ts', true],
  ['src/domain/probe-shared.ts', '../shared/money.ts', false],
  ['src/domain/probe-drizzle.ts', 'drizzle-orm', false],
  ['src/islands/Probe.tsx', '../domain/games/views.ts', true],
  ['src/islands/ProbeDb.tsx', '../db/schema.ts', true],
  ['src/islands/ProbeNode.tsx', 'node:fs', true],
  ['src/islands/ProbeServer.tsx', 'react-dom/server', true],
  ['src/islands/ProbeShared.tsx', '../shared/views/games.ts', false],
  ['src/islands/ProbeReact.tsx', 'react', false],
  ['src/islands/play/Probe.tsx', '../../domain/money.ts', true],
  ['src/islands/play/ProbeUp.tsx', '../lib/http.ts', false],
  ['src/islands/play/ProbeShared.tsx', '../../shared/format.ts', false],
  ['src/shared/probe.ts', '../domain/catalog.ts', true],
  ['src/shared/probe-zod.ts', 'zod/mini', false],
  ['src/shared/schemas/probe.ts', '../../db/schema.ts', true],
  ['src/shared/schemas/probe-fields.ts', '../fields.ts', false],
  ['src/routes/pages/probe.tsx', 'drizzle-orm', true],
  ['src/routes/pages/probe-schema.tsx', '../../db/schema.ts', true],
  ['src/routes/pages/probe-schema-area.tsx', '../../db/schema/games.ts', true],
  ['src/routes/pages/probe-island.tsx', '../../islands/CompetitionPanel.tsx', true],
  ['src/routes/pages/probe-domain.tsx', '../../domain/catalog.ts', false],
  ['src/components/probe-registry.tsx', '../islands/registry.ts', false],
  ['src/jobs/probe.ts', 'drizzle-orm', true],
  ['src/http/probe.ts', '../db/schema.ts', true],
];

describe('import boundaries (biome.json)', () => {
  test('each probe across a layer is refused, and each allowed import passes', () => {
    const dir = mkdtempSync(join(tmpdir(), 'csa-boundaries-'));
    try {
      const config = JSON.parse(readFileSync(join(projectRoot, 'biome.json'), 'utf8'));
      config.$schema = undefined;
      writeFileSync(join(dir, 'biome.json'), JSON.stringify(config));
      for (const [file, from] of probes) {
        mkdirSync(join(dir, dirname(file)), { recursive: true });
        writeFileSync(join(dir, file), `import { probe } from '${from}';\nexport const used = probe;\n`);
      }
      const run = Bun.spawnSync([biome, 'lint', '--max-diagnostics=none', 'src'], { cwd: dir, stdout: 'pipe', stderr: 'pipe' });
      const output = run.stdout.toString() + run.stderr.toString();
      const refused = new Set([...output.matchAll(/^(\S+):\d+:\d+ lint\/style\/noRestrictedImports/gm)].map((m) => m[1]));
      const expected = probes.filter(([, , no]) => no).map(([file]) => file);
      expect([...refused].sort()).toEqual(expected.sort());
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
