import { execFileSync } from 'node:child_process';
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../../', import.meta.url));

/** What dist/mon.cjs and dist/help.txt are made from: a change to any of them makes a new build. */
export const BUILD_INPUTS = [
  'src',
  'bin',
  'scripts/build.mjs',
  'scripts/esbuild.config.mjs',
  'package.json',
  'package-lock.json',
];

/**
 * The build inputs under `base` changed after `bundle` was written (or it is missing), newest
 * first: the e2e tests would otherwise run the old bundle against the new sources.
 */
export function staleInputs(base: string, bundle = join(base, 'dist', 'mon.cjs')): string[] {
  let built: number;
  try {
    built = statSync(bundle).mtimeMs;
  } catch {
    return [bundle];
  }
  const newer: [string, number][] = [];
  const visit = (path: string) => {
    let stat;
    try {
      stat = statSync(path);
    } catch {
      return; // an input this checkout does not have
    }
    if (stat.isDirectory()) for (const name of readdirSync(path)) visit(join(path, name));
    else if (stat.mtimeMs > built) newer.push([path, stat.mtimeMs]);
  };
  for (const input of BUILD_INPUTS) visit(join(base, input));
  return newer.sort((a, b) => b[1] - a[1]).map(([path]) => path);
}

/** The e2e tests spawn bin/mon, which runs the bundle: build it first when it is missing or stale. */
export default function setup(): void {
  const stale = staleInputs(root);
  if (stale.length === 0) return;
  process.stderr.write(
    `test set-up: ${stale[0]!.slice(root.length)}${stale.length > 1 ? ` and ${stale.length - 1} more` : ''} newer than dist/mon.cjs: building\n`,
  );
  execFileSync(process.execPath, [join(root, 'scripts', 'build.mjs')], { cwd: root, stdio: 'inherit' });
}
