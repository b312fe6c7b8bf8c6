import { describe, expect, test } from 'bun:test';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { projectRoot } from '../../src/runtime-files.ts';

/** The README's route map names real files: a renamed page, island, API file, rule or test fails here. */
describe("the README's route map", () => {
  test('every file it names exists', () => {
    const readme = readFileSync(join(projectRoot, 'README.md'), 'utf8');
    const section = readme.slice(readme.indexOf('## Route map'), readme.indexOf('## Layout'));
    const rows = section.split('\n').filter((line) => line.startsWith('| `') || line.startsWith('| ('));
    expect(rows.length).toBeGreaterThan(10);
    const missing: string[] = [];
    for (const row of rows) {
      const [, , page, islands, api, domain, tests] = row.split('|').map((cell) => cell.trim());
      const names = (cell: string) =>
        cell
          .replace(/\([^)]*\)/g, '')
          .split(',')
          .map((name) => name.trim())
          .filter(Boolean);
      const check = (path: string) => existsSync(join(projectRoot, path)) || missing.push(path);
      for (const name of names(page!))
        check(name.includes('/') && !name.startsWith('admin/') && !name.startsWith('marketing/') ? `src/${name}` : `src/routes/pages/${name}`);
      for (const name of names(islands!)) check(`src/islands/${name}.tsx`);
      for (const name of names(api!)) check(`src/routes/api/${name}`);
      for (const name of names(domain!)) check(name.startsWith('flows/') ? `src/${name}` : `src/domain/${name}`);
      for (const name of names(tests!)) check(`tests/${name}${name.startsWith('islands/') ? '.test.tsx' : '.test.ts'}`);
    }
    expect(missing).toEqual([]);
  });

  test('names every page, island and API file', () => {
    const readme = readFileSync(join(projectRoot, 'README.md'), 'utf8');
    const section = readme.slice(readme.indexOf('## Route map'), readme.indexOf('## Layout'));
    const files = (folder: string, ending: string) =>
      readdirSync(join(projectRoot, folder))
        .filter((name) => name.endsWith(ending))
        .map((name) => name.slice(0, name.length - ending.length));
    // A whole name: admin-games.ts does not name games.ts, nor games/views.ts games.ts.
    const named = (file: string) => new RegExp(`(?<![\\w/.-])${file.replaceAll('.', '\\.')}(?![\\w-])`).test(section);
    const unnamed = [
      ...files('src/routes/pages', '.tsx').filter((name) => !named(`${name}.tsx`)),
      ...files('src/islands', '.tsx').filter((name) => !named(name)),
      ...files('src/routes/api', '.ts').filter((name) => !named(`${name}.ts`)),
    ];
    expect(unnamed).toEqual([]);
  });
});
