// The reference rows' programs: a script of scripts/bench (one-request.cjs, all-pages.cjs,
// mute-puts.cjs) bundled like dist/mon.cjs into a copy of bin/, so that it is loaded, cached and
// ended exactly as mon is.
import { copyFileSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { buildOptions, stamped } from '../esbuild.config.mjs';

const root = fileURLToPath(new URL('../../', import.meta.url));

/** Builds `entry` into `<scratch>/<entry>/bin/mon` and returns that path. */
export async function referenceMon(entry, scratch) {
  const { version } = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
  const dir = join(scratch, entry.replace(/\W/g, '-'));
  mkdirSync(join(dir, 'bin'), { recursive: true });
  for (const file of readdirSync(join(root, 'bin'))) copyFileSync(join(root, 'bin', file), join(dir, 'bin', file));
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ version }));
  const options = buildOptions({ outfile: join(dir, 'dist', 'mon.cjs'), version });
  const [output] = (
    await build({ ...options, entryPoints: [join(root, 'scripts/bench', entry)], absWorkingDir: root, write: false })
  ).outputFiles;
  mkdirSync(join(dir, 'dist'), { recursive: true });
  writeFileSync(options.outfile, stamped(output.text));
  return join(dir, 'bin', 'mon');
}
