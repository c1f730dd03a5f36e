import { spawnSync } from 'node:child_process';

/**
 * Whether a program a test looks through is installed (Debian's chromium, the Prometheus
 * parser). CI must have it (.ci/run installs it), so there a missing one fails the run; on a
 * developer's machine without it, its cases are skipped and say why.
 */
export function hasProgram(what: string, check: readonly string[], install: string): boolean {
  const found = spawnSync(check[0]!, check.slice(1), { stdio: 'ignore' }).status === 0;
  if (!found && process.env.CI) throw new Error(`${what} is not installed: ${install} (.ci/run does it)`);
  if (!found) process.stderr.write(`${what} is not installed: the cases that need it are skipped (${install})\n`);
  return found;
}
