// Bundles src/ into dist/mon.js, plus chunks that only the commands needing them load.
import { readFileSync, renameSync, rmSync } from 'node:fs';
import { build } from 'esbuild';
import { buildOptions } from './esbuild.config.mjs';

const root = new URL('../', import.meta.url);
const { version } = JSON.parse(readFileSync(new URL('package.json', root), 'utf8'));
const fresh = new URL(`dist-${process.pid}/`, root);
const old = new URL(`dist-old-${process.pid}/`, root);

await build(buildOptions({ outdir: fresh.pathname, version }));

// Swap the new build in whole, so a `mon` started meanwhile never sees half a dist/.
try {
  renameSync(new URL('dist', root), old);
} catch {
  // no previous build
}
renameSync(fresh, new URL('dist', root));
rmSync(old, { recursive: true, force: true });
