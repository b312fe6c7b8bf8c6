import { mkdirSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

/**
 * Where the process's own files (built assets, static images, migrations) live.
 * Run from source they are in the project tree; in the compiled binary they are embedded,
 * and `src/binary.ts` registers the map of relative path -> embedded path before start-up.
 */
let embedded: Map<string, string> | null = null;

export const projectRoot = resolve(import.meta.dir, '..');

export function registerEmbeddedFiles(files: Record<string, string>): void {
  embedded = new Map(Object.entries(files));
}

export function isEmbedded(): boolean {
  return embedded !== null;
}

/** A project file by its relative path ('dist/manifest.json'), or null when absent. */
export function projectFile(relativePath: string): ReturnType<typeof Bun.file> | null {
  if (embedded) {
    const path = embedded.get(relativePath);
    return path ? Bun.file(path) : null;
  }
  const path = join(projectRoot, relativePath);
  return existsSync(path) ? Bun.file(path) : null;
}

/** drizzle's migrator reads a folder, so embedded migrations are copied out to a temp folder first. */
export async function migrationsFolder(): Promise<string> {
  const folder = 'src/db/migrations';
  if (!embedded) return join(projectRoot, folder);
  const target = join(tmpdir(), `csa-migrations-${process.pid}-${Date.now()}`);
  for (const [relativePath, path] of embedded) {
    if (!relativePath.startsWith(`${folder}/`)) continue;
    const out = join(target, relativePath.slice(folder.length + 1));
    mkdirSync(resolve(out, '..'), { recursive: true });
    writeFileSync(out, await Bun.file(path).bytes());
  }
  return target;
}

let journal: { entries: { when: number }[] } | undefined;

/**
 * The migrations this build knows (drizzle's meta/_journal.json), read like every other
 * project file: from the tree, or from the binary's embedded copy. A JSON import would not do:
 * the binary embeds the file, and there the import is its path.
 */
export function migrationJournal(): { entries: { when: number }[] } {
  if (journal) return journal;
  const relativePath = 'src/db/migrations/meta/_journal.json';
  const path = embedded ? embedded.get(relativePath) : join(projectRoot, relativePath);
  if (!path) throw new Error(`${relativePath} is not in this build`);
  journal = JSON.parse(readFileSync(path, 'utf8')) as { entries: { when: number }[] };
  return journal;
}
