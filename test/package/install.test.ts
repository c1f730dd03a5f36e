import { execFile, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { basename, delimiter, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hasProgram } from '../helpers/programs.js';
import { bound } from '../helpers/slow.js';

/**
 * The package a user installs: `npm pack` makes the tarball (from the dist/ the test set-up
 * built), `npm install -g --prefix DIR` installs it into an empty prefix, and the installed
 * `mon` answers `--version`, runs on the sandbox and has its man page where `man` finds it.
 *
 * No network: the dependencies come from a registry on loopback that serves the packages of
 * node_modules (those package-lock.json installs for production), with an empty npm cache and
 * user config, so what is installed is what the tarball asks for and nothing the machine had.
 */
const run = promisify(execFile);
const root = fileURLToPath(new URL('../../', import.meta.url));
const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { version: string };
const hasMan = hasProgram('man');
/** The node that runs the tests runs npm and the installed mon (PATH first). */
const PATH = [dirname(process.execPath), process.env.PATH ?? ''].join(delimiter);

let work: string;
let registry: Server;
let prefix: string;
let install: { stdout: string; stderr: string };

/** A registry of the production packages package-lock.json names, built from node_modules. */
async function startRegistry(dir: string): Promise<Server> {
  const lock = JSON.parse(readFileSync(join(root, 'package-lock.json'), 'utf8')) as {
    packages: Record<string, { version: string; dev?: boolean }>;
  };
  const versions = new Map<string, Record<string, Record<string, unknown>>>();
  for (const [key, info] of Object.entries(lock.packages)) {
    if (key === '' || info.dev) continue;
    const name = key.slice(key.lastIndexOf('node_modules/') + 'node_modules/'.length);
    const file = `${name.replace('/', '__')}-${info.version}.tgz`;
    await run('tar', [
      '-czf',
      join(dir, file),
      '--exclude=./node_modules',
      '--transform',
      's,^\\.,package,',
      '-C',
      join(root, key),
      '.',
    ]);
    const manifest = JSON.parse(readFileSync(join(root, key, 'package.json'), 'utf8')) as Record<string, unknown>;
    versions.set(name, { ...versions.get(name), [info.version]: { ...manifest, dist: { tarball: file } } });
  }
  const server = createServer((request, response) => {
    const path = decodeURIComponent((request.url ?? '/').split('?')[0]!).slice(1);
    const base = `http://127.0.0.1:${(server.address() as { port: number }).port}/-/tarballs/`;
    if (path.startsWith('-/tarballs/')) {
      const file = join(dir, basename(path));
      if (existsSync(file)) return void response.end(readFileSync(file));
    }
    const known = versions.get(path);
    if (!known) {
      response.statusCode = 404;
      return void response.end('{}');
    }
    const list = Object.entries(known).map(([version, manifest]) => [
      version,
      { ...manifest, dist: { tarball: base + (manifest.dist as { tarball: string }).tarball } },
    ]);
    response.setHeader('content-type', 'application/json');
    response.end(
      JSON.stringify({ name: path, 'dist-tags': { latest: list.at(-1)![0] }, versions: Object.fromEntries(list) }),
    );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return server;
}

beforeAll(async () => {
  work = mkdtempSync(join(tmpdir(), 'mon-package-'));
  registry = await startRegistry(work);
  const npmrc = join(work, 'npmrc');
  const globalrc = join(work, 'npmrc-global');
  writeFileSync(npmrc, '');
  writeFileSync(globalrc, '');
  const env = {
    PATH,
    HOME: work,
    NPM_CONFIG_USERCONFIG: npmrc,
    NPM_CONFIG_GLOBALCONFIG: globalrc,
    NPM_CONFIG_CACHE: join(work, 'cache'),
    NPM_CONFIG_REGISTRY: `http://127.0.0.1:${(registry.address() as { port: number }).port}/`,
    NPM_CONFIG_UPDATE_NOTIFIER: 'false',
  };
  // dist/ is built by the test set-up; --ignore-scripts keeps prepack from rebuilding it under
  // the tests that run bin/mon meanwhile.
  await run('npm', ['pack', '--ignore-scripts', '--pack-destination', work], { cwd: root, env });
  const tarball = readdirSync(work).find((file) => /^mon-cli-.*\.tgz$/.test(file))!;
  prefix = join(work, 'prefix');
  install = await run('npm', ['install', '-g', '--prefix', prefix, '--no-audit', '--no-fund', join(work, tarball)], {
    cwd: work,
    env,
  });
}, bound(240_000));
afterAll(async () => {
  await new Promise((resolve) => registry?.close(resolve));
  rmSync(work, { recursive: true, force: true });
});

/** The installed mon, as a user's shell runs it. */
function installed(args: string[]) {
  const config = mkdtempSync(join(work, 'config-'));
  return spawnSync(join(prefix, 'bin', 'mon'), args, {
    encoding: 'utf8',
    env: { PATH, HOME: work, MON_CONFIG_DIR: config, TZ: 'UTC' },
    timeout: 60_000,
  });
}

describe('the packed tarball, installed with npm install -g into an empty prefix', () => {
  it('installs without a warning or a build step', () => {
    expect(install.stderr.split('\n').filter((line) => /warn|error/i.test(line))).toEqual([]);
    expect(existsSync(join(prefix, 'lib', 'node_modules', 'mon-cli', 'dist', 'mon.cjs'))).toBe(true);
    expect(existsSync(join(prefix, 'lib', 'node_modules', 'mon-cli', 'src'))).toBe(false);
  });

  it('`mon --version` prints the version', () => {
    const result = installed(['--version']);
    expect({ status: result.status, stdout: result.stdout, stderr: result.stderr }).toEqual({
      status: 0,
      stdout: `${pkg.version}\n`,
      stderr: '',
    });
  });

  it('`mon --sandbox computers list` lists the demo account', () => {
    const result = installed(['--sandbox', 'computers', 'list', '--status', 'missing', '-o', 'ndjson']);
    expect({ status: result.status, stderr: result.stderr }).toEqual({ status: 0, stderr: '' });
    const rows = result.stdout
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { missing: boolean });
    expect(rows.length).toBeGreaterThan(0);
    expect(rows.every((row) => row.missing)).toBe(true);
  });

  it('carries the completion scripts and the docs', () => {
    const dir = join(prefix, 'lib', 'node_modules', 'mon-cli');
    for (const file of [
      'completions/mon.bash',
      'completions/_mon',
      'completions/mon.fish',
      'docs/commands.md',
      'docs/help/exit-codes.md',
      'README.md',
    ])
      expect(existsSync(join(dir, file)), file).toBe(true);
  });

  it.runIf(hasMan)('`man mon` finds the installed page (MANPATH) and renders it', () => {
    expect(existsSync(join(prefix, 'share', 'man', 'man1', 'mon.1'))).toBe(true);
    const result = spawnSync('man', ['-P', 'cat', 'mon'], {
      encoding: 'utf8',
      env: { PATH, HOME: work, MANPATH: join(prefix, 'share', 'man'), MANWIDTH: '80', LANG: 'C.UTF-8' },
    });
    expect(result.status).toBe(0);
    // Bold and underline as a pager gets them (a character, a backspace, the character), and SGR.
    const text = result.stdout.replace(/.\x08/g, '').replace(/\x1b\[[0-9;]*m/g, '');
    expect(text).toMatch(/^NAME\n\s+mon +- +administer +the +Endpoint +Monitoring +Service/m);
    expect(text).toContain('EXIT STATUS');
  });
});

describe('the package name', () => {
  const readme = readFileSync(join(root, 'README.md'), 'utf8');
  const install = readme.slice(readme.indexOf('## Install'), readme.indexOf('\n## ', readme.indexOf('## Install') + 1));
  const { name, bin } = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as {
    name: string;
    bin: Record<string, string>;
  };

  it('is not `mon`, which is an unrelated package on the npm registry; the command stays `mon`', () => {
    expect(name).not.toBe('mon');
    expect(Object.keys(bin)).toEqual(['mon']);
  });

  it('is what the README install section packs and installs', () => {
    expect(install).toContain(`\`${name}\``);
    expect(install).toContain(`npm install -g ./${name}-*.tgz`);
  });
});
