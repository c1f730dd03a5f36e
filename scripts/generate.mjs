// Writes the files generated from the command tree and the help topics: completions/ (bash, zsh,
// fish), docs/commands.md, docs/help/<topic>.md and the man page man/mon.1 (the list is
// scripts/generated-files.ts). Run after changing any command, option, alias, example or topic:
// `npm run generate`. test/completion/generated.test.ts fails while the committed files differ.
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { build } from 'esbuild';

const root = new URL('../', import.meta.url);
const work = mkdtempSync(join(tmpdir(), 'mon-generate-'));
try {
  const outfile = join(work, 'files.cjs');
  await build({
    entryPoints: [new URL('scripts/generated-files.ts', root).pathname],
    outfile,
    bundle: true,
    format: 'cjs',
    platform: 'node',
    target: 'node20',
    logLevel: 'warning',
  });
  const { generatedFiles } = createRequire(import.meta.url)(outfile);
  for (const [path, text] of Object.entries(generatedFiles())) {
    const target = new URL(path, root);
    let before;
    try {
      before = readFileSync(target, 'utf8');
    } catch {
      before = undefined;
    }
    if (before === text) continue;
    mkdirSync(dirname(target.pathname), { recursive: true });
    writeFileSync(target, text);
    console.log(`wrote ${path}`);
  }
} finally {
  rmSync(work, { recursive: true, force: true });
}
