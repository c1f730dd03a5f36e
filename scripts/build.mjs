// Bundles src/ into dist/mon.cjs, the one file bin/mon loads, and saves the root help beside it
// as dist/help.txt, which bin/mon prints for `mon`, `mon --help` and `mon -h` without the bundle.
// The --jq engine's worker thread is dist/jq-worker.cjs, and dist/jq-engine.cjs starts it; the
// parts only a few commands need are files of their own (SEPARATE_FILES: sandbox.cjs, conf.cjs).
import { mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { build } from 'esbuild';
import {
  BUNDLE_NAME,
  HELP_NAME,
  JQ_ENGINE_NAME,
  JQ_WORKER_NAME,
  SEPARATE_FILES,
  buildOptions,
  engineBuildOptions,
  separateBuildOptions,
  stamped,
  workerBuildOptions,
} from './esbuild.config.mjs';

const root = new URL('../', import.meta.url);
const { version } = JSON.parse(readFileSync(new URL('package.json', root), 'utf8'));
const fresh = new URL(`dist-${process.pid}/`, root);
const old = new URL(`dist-old-${process.pid}/`, root);

const bundle = new URL(BUNDLE_NAME, fresh).pathname;
const [output] = (await build({ ...buildOptions({ outfile: bundle, version }), write: false })).outputFiles;
const worker = new URL(JQ_WORKER_NAME, fresh).pathname;
const [workerOutput] = (await build({ ...workerBuildOptions({ outfile: worker }), write: false })).outputFiles;
const engine = new URL(JQ_ENGINE_NAME, fresh).pathname;
const [engineOutput] = (await build({ ...engineBuildOptions({ outfile: engine }), write: false })).outputFiles;
mkdirSync(fresh, { recursive: true });
writeFileSync(bundle, stamped(output.text));
writeFileSync(worker, stamped(workerOutput.text));
writeFileSync(engine, engineOutput.text);
for (const { file, entry } of SEPARATE_FILES) {
  const outfile = new URL(file, fresh).pathname;
  const [separate] = (await build({ ...separateBuildOptions({ entry, outfile }), write: false })).outputFiles;
  writeFileSync(outfile, separate.text);
}
writeFileSync(new URL(HELP_NAME, fresh), await rootHelp(bundle));

// Swap the new build in whole, so a `mon` started meanwhile never sees half a dist/.
try {
  renameSync(new URL('dist', root), old);
} catch {
  // no previous build
}
renameSync(fresh, new URL('dist', root));
rmSync(old, { recursive: true, force: true });

/** What the new bundle prints for `mon --help`. */
async function rootHelp(file) {
  const { main } = createRequire(import.meta.url)(file);
  let text = '';
  const capture = { write: (chunk) => ((text += chunk), true) };
  const code = await main(['--help'], { io: { stdout: capture, stderr: capture, stdin: process.stdin }, env: {} });
  if (code !== 0) throw new Error(`mon --help exited ${code}: ${text}`);
  return text;
}
