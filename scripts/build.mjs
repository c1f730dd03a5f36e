// Bundles src/ into dist/mon.js (plus chunks that only the commands needing them load).
import { readFileSync, rmSync } from 'node:fs';
import { build } from 'esbuild';

const { version } = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));
rmSync(new URL('../dist', import.meta.url), { recursive: true, force: true });

await build({
  entryPoints: { mon: 'src/main.ts' },
  outdir: 'dist',
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
