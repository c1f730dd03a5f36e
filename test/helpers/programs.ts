import { spawnSync } from 'node:child_process';
import { accessSync, constants, statSync } from 'node:fs';
import { delimiter, isAbsolute, join } from 'node:path';

/**
 * The optional programs some tests look through (real shells, shellcheck, groff, man, the
 * Prometheus parser and promtool, Chromium, systemd-analyze), and root. Every test that needs
 * one asks here: a program is looked up on PATH (so hiding it from PATH hides it), and a missing
 * one, or a run that is not root, skips the cases that need it with one notice, never a failure.
 * `.ci/run` installs them all with the one line below (the README names it).
 */
export const INSTALL_OPTIONAL =
  'apt-get install -y bash zsh fish shellcheck groff-base man-db python3-prometheus-client chromium prometheus systemd curl';

const told = new Set<string>();

/** One notice per missing thing per test process (a worker runs many files). */
function tell(key: string, message: string): void {
  if (told.has(key)) return;
  told.add(key);
  process.stderr.write(`${message}\n`);
}

/** Every executable file named `name` on PATH, in PATH's order; an absolute name is itself when executable. */
export function findPrograms(name: string): string[] {
  const candidates = isAbsolute(name)
    ? [name]
    : (process.env.PATH ?? '')
        .split(delimiter)
        .filter(Boolean)
        .map((dir) => join(dir, name));
  return candidates.filter((path) => {
    try {
      accessSync(path, constants.X_OK);
      return statSync(path).isFile();
    } catch {
      return false;
    }
  });
}

/** The first executable named `name` on PATH. */
export function findProgram(name: string): string | undefined {
  return findPrograms(name)[0];
}

/**
 * Whether a program is there: `check` is the program and the arguments of a run that must
 * succeed (`--version`, an import); the program is found on PATH. False says once that the
 * cases that need it are skipped, and how to install it.
 */
export function hasProgram(what: string, check: readonly string[] = [what, '--version']): boolean {
  const path = findProgram(check[0]!);
  const found =
    path !== undefined && spawnSync(path, check.slice(1), { stdio: 'ignore', timeout: 60_000 }).status === 0;
  if (!found) tell(what, `${what} is not installed: the cases that need it are skipped (${INSTALL_OPTIONAL})`);
  return found;
}

/**
 * The python3 on PATH that has the Prometheus project's parser (Debian's python3-prometheus-client
 * installs it for /usr/bin/python3; a version manager's python3 may come first on PATH and lack it).
 */
export function prometheusPython(): string | undefined {
  const found = findPrograms('python3').find(
    (python) =>
      spawnSync(python, ['-c', 'import prometheus_client'], { stdio: 'ignore', timeout: 60_000 }).status === 0,
  );
  if (!found)
    tell(
      'python3-prometheus-client',
      `the Prometheus parser (python3-prometheus-client) is not installed: the cases that need it are skipped (${INSTALL_OPTIONAL})`,
    );
  return found;
}

/**
 * Whether the tests run as root, which the cases that act as another user need (a process run
 * as another uid, a file chowned to another user). Not root: those cases are skipped, said once.
 */
export function asRoot(what: string): boolean {
  const root = process.getuid?.() === 0;
  if (!root) {
    tell(`root:${what}`, `not root: ${what} skips its cases that act as another user (run as root to include them)`);
    return false;
  }
  if (!nodeForOthers()) {
    tell(
      `node:${what}`,
      `${process.execPath} cannot be run by another user (it is in a folder only root may enter): ${what} skips its cases that act as another user`,
    );
    return false;
  }
  return true;
}

let othersRunNode: boolean | undefined;

/** Whether another user (nobody's uid) can run this test's node: one installed under /root (npx node@22) cannot. */
function nodeForOthers(): boolean {
  othersRunNode ??=
    spawnSync(process.execPath, ['-e', ''], { uid: 65534, gid: 65534, stdio: 'ignore', timeout: 60_000 }).status === 0;
  return othersRunNode;
}
