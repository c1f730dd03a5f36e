// Bundles src/ into dist/mon.js, plus chunks that only the commands needing them load.
import { readFileSync, renameSync, rmSync } from 'node:fs';
import { build } from 'esbuild';

const root = new URL('../', import.meta.url);
const { version } = JSON.parse(readFileSync(new URL('package.json', root), 'utf8'));
const fresh = new URL(`dist-${process.pid}/`, root);
const old = new URL(`dist-old-${process.pid}/`, root);

await build({
  entryPoints: { mon: 'src/main.ts' },
  outdir: fresh.pathname,
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  minify: true,
  chunkNames: 'chunks/[name]-[hash]',
  define: { __MON_VERSION__: JSON.stringify(version) },
  // Bundled CommonJS packages (commander, cli-table3) call require() for Node built-ins.
  banner: { js: "import { createRequire as __monRequire } from 'node:module'; const require = __monRequire(import.meta.url);" },
  logLevel: 'warning',
});

// Swap the new build in whole, so a `mon` started meanwhile never sees half a dist/.
try {
  renameSync(new URL('dist', root), old);
} catch {
  // no previous build
}
renameSync(fresh, new URL('dist', root));
rmSync(old, { recursive: true, force: true });
