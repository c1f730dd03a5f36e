import { execFileSync } from 'node:child_process';
import {
  chmodSync,
  chownSync,
  existsSync,
  readFileSync,
  readdirSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { configDir } from '../../src/config/paths.js';
import { ensureConfigDir, forgetTrustedFolders, homeFolder, MAX_CONFIG_FILE_BYTES } from '../../src/config/trust.js';
import { UsageError } from '../../src/errors.js';
import { json, startFakeApi, type FakeApi } from '../helpers/fake-api.js';
import { asRoot } from '../helpers/programs.js';
import { runMain } from '../helpers/run-main.js';
import { runMon, tempConfigDir } from '../helpers/run-mon.js';
import { expectNoKey, expectOneLine, KEY } from './support.js';

/**
 * The config folder and its files, as another user, a mistake or a crash may have left them:
 * refused (exit 2, saying why and how to fix it) where trusting them could send the key
 * elsewhere or hang, tightened with a warning where they were only too open, tidied where a
 * killed write left pieces behind. Real folders, files, FIFOs, links and users. Commands run
 * in-process through main(); a process is spawned where only one shows it: another user, and a
 * FIFO that must not block (a blocked read would hold the test's own process).
 */

/** Someone else: the tests run as root, and nobody is the user whom permissions bind. */
const NOBODY = 65534;
/** The cases that act as another user (chown, a process of another uid) need root. */
const AS_ROOT = asRoot('test/resilience/config-trust.test.ts');

function configFile(dir: string, profiles: Record<string, unknown>, mode = 0o600): string {
  const file = join(dir, 'config.json');
  writeFileSync(file, JSON.stringify({ defaultProfile: Object.keys(profiles)[0], profiles }), { mode });
  chmodSync(file, mode);
  return file;
}

describe('the config folder when HOME is empty (a cron job or a service may run so)', () => {
  /**
   * The rule, in-process, with the system's answer handed in (no test depends on the machine's
   * accounts): the home folder the system names stands for HOME, exactly as if HOME
   * named it — a read works from the environment with the ledger in memory, a command that needs
   * the folder says the home does not exist; nothing is created, the current folder least of all.
   */
  it('is found from the home folder the system gives the user, never from the current folder', () => {
    const home = join(tempConfigDir(), 'home-that-is-not-there');
    const cwd = process.cwd();
    const dir = configDir({ HOME: '' }, () => home);
    expect(dir).toBe(join(home, '.config', 'mon-nodejs'));
    expect(process.cwd()).toBe(cwd);
  });

  it('a home the system names that does not exist is not created: a read keeps its ledger in memory, a write is exit 2', () => {
    const home = join(tempConfigDir(), 'home-that-is-not-there');
    const dir = configDir({ HOME: '' }, () => home);
    forgetTrustedFolders();
    expect(ensureConfigDir(dir, { optional: true, home: homeFolder({ HOME: '' }, () => home) })).toBe(false);
    expect(() => ensureConfigDir(dir, { home: homeFolder({ HOME: '' }, () => home) })).toThrow(
      new UsageError(
        `cannot create config folder ${dir}: the home folder ${home} does not exist, and mon does not create it`,
        'set MON_CONFIG_DIR to a folder you can write',
      ),
    );
    expect(existsSync(home)).toBe(false);
  });

  it('a system that names no home for the user: exit 2 saying so, with the path it would have used in the current folder', () => {
    let refused: unknown;
    try {
      configDir({ HOME: '' }, () => {
        throw new Error('no such user');
      });
    } catch (error) {
      refused = error;
    }
    expect(refused).toBeInstanceOf(UsageError);
    expect((refused as UsageError).message).toMatch(
      /^no home folder to keep mon's config in: HOME is empty and the system names none for this user \(the path would be \.config\/mon-nodejs, in the current folder\)/,
    );
  });
});

describe("a config folder or file that is not the user's own is refused (as ssh does)", () => {
  let api: FakeApi;
  beforeAll(async () => {
    api = await startFakeApi((_req, res) => json(res, 200, []));
  });
  afterAll(() => api.close());
  beforeEach(() => {
    api.requests.length = 0;
  });

  it.runIf(AS_ROOT)(
    'a folder owned by another user, whose config.json names a base URL: exit 2, and the key from MON_API_KEY goes nowhere',
    async () => {
      const dir = tempConfigDir();
      configFile(dir, { acme: { baseUrl: api.url, apiKey: 'planted' } });
      chownSync(join(dir, 'config.json'), NOBODY, NOBODY);
      chownSync(dir, NOBODY, NOBODY);
      const result = await runMain(['groups', 'list'], { env: { MON_CONFIG_DIR: dir, MON_API_KEY: KEY } });
      expect(result.code).toBe(2);
      expect(result.stderr).toBe(
        `mon: config folder ${dir} belongs to another user (uid ${NOBODY}), so it is not used — use a folder of your own (MON_CONFIG_DIR), or make it yours: chown 0 ${dir}\n`,
      );
      expect(api.requests).toEqual([]);
      expectNoKey(result);
    },
  );

  it.runIf(AS_ROOT)("a config.json of another user in the user's own folder: exit 2", async () => {
    const dir = tempConfigDir();
    const file = configFile(dir, { acme: { baseUrl: api.url, apiKey: 'planted' } });
    chownSync(file, NOBODY, NOBODY);
    const result = await runMain(['groups', 'list'], { env: { MON_CONFIG_DIR: dir, MON_API_KEY: KEY } });
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(new RegExp(`^mon: config file ${file} belongs to another user \\(uid ${NOBODY}\\)`));
    expect(api.requests).toEqual([]);
  });

  it('a folder others can write (0777) with `rate` linked elsewhere: exit 2, nothing written through the link, nothing sent', async () => {
    const dir = tempConfigDir();
    chmodSync(dir, 0o777);
    const elsewhere = tempConfigDir();
    symlinkSync(elsewhere, join(dir, 'rate'));
    const result = await runMain(['groups', 'list'], {
      env: { MON_CONFIG_DIR: dir, MON_BASE_URL: api.url, MON_API_KEY: KEY },
    });
    expect(result.code).toBe(2);
    expect(result.stderr).toBe(
      `mon: config folder ${dir} can be written by group and others (mode 0777), so it is not used — run \`chmod 700 ${dir}\`\n`,
    );
    expect(readdirSync(elsewhere)).toEqual([]);
    expect(api.requests).toEqual([]);
  });

  it('each run checks its folder afresh: one trusted by an earlier run in the same process, opened to others since, is refused', async () => {
    const dir = tempConfigDir();
    const env = { MON_CONFIG_DIR: dir, MON_BASE_URL: api.url, MON_API_KEY: KEY };
    expect((await runMain(['groups', 'list'], { env })).code).toBe(0);
    chmodSync(dir, 0o777);
    const sent = api.requests.length;
    const again = await runMain(['groups', 'list'], { env });
    expect(again.code).toBe(2);
    expect(again.stderr).toMatch(/can be written by group and others \(mode 0777\)/);
    expect(api.requests.length).toBe(sent);
  });

  it("a group-writable folder is refused too, and so is `rate` as a link inside a folder of the user's own", async () => {
    const dir = tempConfigDir();
    chmodSync(dir, 0o770);
    const grouped = await runMain(['profile', 'list'], { env: { MON_CONFIG_DIR: dir } });
    expect(grouped.code).toBe(2);
    expect(grouped.stderr).toMatch(/can be written by its group \(mode 0770\)/);

    const own = tempConfigDir();
    const elsewhere = tempConfigDir();
    symlinkSync(elsewhere, join(own, 'rate'));
    const linked = await runMain(['groups', 'list'], {
      env: { MON_CONFIG_DIR: own, MON_BASE_URL: api.url, MON_API_KEY: KEY },
    });
    expect(linked.code).toBe(2);
    expect(linked.stderr).toBe(
      `mon: rate ledger folder ${join(own, 'rate')} is not a folder (it is a link) — remove it: mon makes it again\n`,
    );
    expect(readdirSync(elsewhere)).toEqual([]);
    expect(api.requests).toEqual([]);
  });

  it('--sandbox keeps its state only in a trusted folder', async () => {
    const dir = tempConfigDir();
    chmodSync(dir, 0o757);
    const result = await runMain(['--sandbox', 'groups', 'list'], { env: { MON_CONFIG_DIR: dir } });
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/can be written by others \(mode 0757\)/);
    expect(existsSync(join(dir, 'sandbox.json'))).toBe(false);
  });
});

describe('loose permissions: one warning, then tightened', () => {
  it('a config.json others can read (0644): one warning on stderr, the file is 0600 afterwards, the command works', async () => {
    const dir = tempConfigDir();
    const file = configFile(dir, { acme: { baseUrl: 'https://acme.example.com', apiKey: KEY } }, 0o644);
    const result = await runMain(['profile', 'list', '-o', 'tsv', '--fields', 'name'], {
      env: { MON_CONFIG_DIR: dir },
    });
    expect(result.code).toBe(0);
    expect(result.stdout).toBe('name\nacme\n');
    expect(result.stderr).toBe(
      `mon: warning: config file ${file} was readable by others (mode 0644); it is now 0600 — if others could read it, replace the keys it holds\n`,
    );
    expect(statSync(file).mode & 0o777).toBe(0o600);
    // Said once: the next run has nothing to say.
    const again = await runMain(['profile', 'list', '-o', 'tsv', '--fields', 'name'], { env: { MON_CONFIG_DIR: dir } });
    expect(again.stderr).toBe('');
  });

  it('with -q the file is tightened without a word', async () => {
    const dir = tempConfigDir();
    const file = configFile(dir, { acme: { baseUrl: 'https://acme.example.com', apiKey: KEY } }, 0o640);
    const result = await runMain(['profile', 'list', '-q', '-o', 'tsv', '--fields', 'name'], {
      env: { MON_CONFIG_DIR: dir },
    });
    expect(result.code).toBe(0);
    expect(result.stderr).toBe('');
    expect(statSync(file).mode & 0o777).toBe(0o600);
  });

  it('a config.json others can write (0666) is refused, not tightened', async () => {
    const dir = tempConfigDir();
    const file = configFile(dir, { acme: { baseUrl: 'https://acme.example.com', apiKey: KEY } }, 0o666);
    const result = await runMain(['profile', 'list'], { env: { MON_CONFIG_DIR: dir } });
    expect(result.code).toBe(2);
    expect(result.stderr).toBe(
      `mon: config file ${file} can be written by group and others (mode 0666), so it is not used — run \`chmod 600 ${file}\`\n`,
    );
  });
});

describe('config problems are exit 2 with the path and what is wrong', () => {
  it('an apiKey of the wrong type', async () => {
    const dir = tempConfigDir();
    const file = configFile(dir, { acme: { baseUrl: 'https://acme.example.com', apiKey: 12345 } });
    const result = await runMain(['groups', 'list'], { env: { MON_CONFIG_DIR: dir } });
    expect(result.code).toBe(2);
    expect(result.stderr).toBe(
      `mon: config file ${file}: apiKey of profile "acme" is not a non-empty string — fix the file by hand, or move it away and add your profiles again\n`,
    );
  });

  it('profiles that are not an object', async () => {
    const dir = tempConfigDir();
    writeFileSync(join(dir, 'config.json'), '{"profiles": ["acme"]}', { mode: 0o600 });
    const result = await runMain(['profile', 'list'], { env: { MON_CONFIG_DIR: dir } });
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/config\.json: profiles is not an object — /);
  });

  it('MON_CONFIG_DIR that is a file, or a dangling link', async () => {
    const file = join(tempConfigDir(), 'a-file');
    writeFileSync(file, '');
    const asFile = await runMain(['profile', 'list'], { env: { MON_CONFIG_DIR: file } });
    expect(asFile.code).toBe(2);
    expect(asFile.stderr).toBe(
      `mon: config folder ${file} is not a folder (it is a file) — point MON_CONFIG_DIR at a folder, or move that file away\n`,
    );

    const link = join(tempConfigDir(), 'gone');
    symlinkSync('/nonexistent/mon-config', link);
    const dangling = await runMain(
      ['profile', 'add', 'acme', '--base-url', 'https://acme.example.com', '--api-key-stdin'],
      { env: { MON_CONFIG_DIR: link }, input: KEY },
    );
    expect(dangling.code).toBe(2);
    expect(dangling.stderr).toBe(
      `mon: config folder ${link} is a link to /nonexistent/mon-config, which does not exist — remove the link or point MON_CONFIG_DIR at a folder\n`,
    );
  });

  it.runIf(AS_ROOT)('a config folder that cannot be written during `profile use`', async () => {
    const dir = tempConfigDir();
    configFile(dir, {
      acme: { baseUrl: 'https://acme.example.com', apiKey: KEY },
      globex: { baseUrl: 'https://globex.example.com', apiKey: KEY },
    });
    // As a user whom permissions bind (root is not): the folder and file are theirs, the folder read-only.
    chownSync(join(dir, 'config.json'), NOBODY, NOBODY);
    chownSync(dir, NOBODY, NOBODY);
    chmodSync(dir, 0o500);
    const result = await runMon(['profile', 'use', 'globex'], {
      env: { MON_CONFIG_DIR: dir },
      uid: NOBODY,
      gid: NOBODY,
    });
    expect(result.code).toBe(2);
    expect(result.stderr).toBe(
      `mon: cannot write config file ${join(dir, 'config.json')} (EACCES) — check that you can write ${dir} (ls -ld ${dir})\n`,
    );
    expect(
      (JSON.parse(readFileSync(join(dir, 'config.json'), 'utf8')) as { defaultProfile: string }).defaultProfile,
    ).toBe('acme');
  });

  /** A config folder of NOBODY's that NOBODY may not write in, with no file in it yet. */
  const readOnlyEmptyFolder = () => {
    const dir = tempConfigDir();
    chownSync(dir, NOBODY, NOBODY);
    chmodSync(dir, 0o500);
    return dir;
  };

  it.runIf(AS_ROOT)(
    'a first `profile add` into a folder that cannot be written: said as a write, not a read',
    async () => {
      const dir = readOnlyEmptyFolder();
      const result = await runMon(
        ['profile', 'add', 'acme', '--base-url', 'https://acme.example.com', '--api-key-stdin'],
        { env: { MON_CONFIG_DIR: dir }, input: KEY, uid: NOBODY, gid: NOBODY },
      );
      expect(result).toMatchObject({
        code: 2,
        stdout: '',
        stderr: `mon: cannot write config file ${join(dir, 'config.json')} (EACCES) — check that you can write ${dir} (ls -ld ${dir})\n`,
      });
    },
  );

  it.runIf(AS_ROOT).each([
    ['--sandbox groups list', ['--sandbox', 'groups', 'list']],
    ['sandbox serve (not a port it may not listen on)', ['sandbox', 'serve']],
  ])("%s with a folder that cannot take the sandbox's state: one line naming the folder", async (_name, args) => {
    const dir = readOnlyEmptyFolder();
    const result = await runMon(args, { env: { MON_CONFIG_DIR: dir }, uid: NOBODY, gid: NOBODY, timeoutMs: 10_000 });
    expect(result).toMatchObject({
      code: 2,
      stdout: '',
      stderr: `mon: cannot keep the sandbox's state in ${dir} (EACCES) — check that you can write ${dir} (ls -ld ${dir})\n`,
    });
  });
});

describe('odd paths: only regular files of a sane size are read', () => {
  it('config.json as a FIFO: exit 2 at once, instead of blocking for ever', async () => {
    const dir = tempConfigDir();
    execFileSync('mkfifo', [join(dir, 'config.json')]);
    chmodSync(join(dir, 'config.json'), 0o600);
    const result = await runMon(['profile', 'list'], { env: { MON_CONFIG_DIR: dir }, timeoutMs: 5_000 });
    expect(result.signal).toBeNull();
    expect(result.code).toBe(2);
    expect(result.stderr).toBe(
      `mon: config file ${join(dir, 'config.json')} is not a regular file (it is a FIFO) — move it away; mon writes that file itself\n`,
    );
  });

  it('config.json linked to /dev/zero: exit 2, not an abort', async () => {
    const dir = tempConfigDir();
    symlinkSync('/dev/zero', join(dir, 'config.json'));
    const result = await runMain(['groups', 'list'], { env: { MON_CONFIG_DIR: dir } });
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/is not a regular file \(it is a device\)/);
    expectOneLine(result);
  });

  it('a config.json larger than the bound: exit 2 saying so', async () => {
    const dir = tempConfigDir();
    writeFileSync(join(dir, 'config.json'), `{"profiles":{},"pad":"${'x'.repeat(MAX_CONFIG_FILE_BYTES)}"}`, {
      mode: 0o600,
    });
    const result = await runMain(['profile', 'list'], { env: { MON_CONFIG_DIR: dir } });
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(
      new RegExp(`is ${MAX_CONFIG_FILE_BYTES + 24} bytes, more than the ${MAX_CONFIG_FILE_BYTES} a config file may be`),
    );
  });

  it('MON_CONFIG_DIR=/proc/x: exit 2 at once where a folder is needed; a request without one keeps its budget in the process', async () => {
    const result = await runMain(['profile', 'list'], { env: { MON_CONFIG_DIR: '/proc/x/mon' }, timeoutMs: 5_000 });
    expect(result.code).toBe(2);
    expect(result.stderr).toBe(
      'mon: cannot create config folder /proc/x/mon (ENOENT at /proc/x) — set MON_CONFIG_DIR to a folder you can write\n',
    );
    const api = await startFakeApi((_req, res) => json(res, 200, []));
    try {
      const served = await runMain(['groups', 'list', '--json'], {
        env: { MON_CONFIG_DIR: '/proc/x/mon', MON_BASE_URL: api.url, MON_API_KEY: KEY },
        timeoutMs: 5_000,
      });
      expect(served.code).toBe(0);
      expect(served.stdout).toBe('[]\n');
    } finally {
      await api.close();
    }
  });
});

describe('profiles are written by conf, atomically', () => {
  // conf writes through `atomically`: a temporary beside the file, fsync, rename. A stale
  // temporary of a killed write is 0600 in the 0700 folder, as the file itself is.
  it('`profile add` leaves the file 0600 whatever the umask, other files in the folder alone, and no temporary', async () => {
    const dir = tempConfigDir();
    const other = join(dir, 'config.json.4243.mifx2v0b.tmp');
    writeFileSync(other, '{}', { mode: 0o600 });
    const umask = process.umask(0);
    try {
      const result = await runMain(
        ['profile', 'add', 'globex', '--base-url', 'https://globex.example.com', '--api-key-stdin'],
        { env: { MON_CONFIG_DIR: dir }, input: KEY },
      );
      expect(result.code).toBe(0);
    } finally {
      process.umask(umask);
    }
    expect(readdirSync(dir).sort()).toEqual(['config.json', 'config.json.4243.mifx2v0b.tmp']);
    expect(statSync(join(dir, 'config.json')).mode & 0o777).toBe(0o600);
    expect(JSON.parse(readFileSync(join(dir, 'config.json'), 'utf8'))).toMatchObject({
      defaultProfile: 'globex',
      profiles: { globex: { baseUrl: 'https://globex.example.com' } },
    });
  });
});

it('the folders made for a config are 0700, one level at a time', async () => {
  const base = tempConfigDir();
  const dir = join(base, 'a', 'b');
  const result = await runMain(
    ['profile', 'add', 'acme', '--base-url', 'https://acme.example.com', '--api-key-stdin'],
    { env: { MON_CONFIG_DIR: dir }, input: KEY },
  );
  expect(result.code).toBe(0);
  expect(statSync(join(base, 'a')).mode & 0o777).toBe(0o700);
  expect(statSync(dir).mode & 0o777).toBe(0o700);
  expect(statSync(join(dir, 'config.json')).mode & 0o777).toBe(0o600);
});
