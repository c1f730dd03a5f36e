import { readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type RunningSandbox } from '../../src/sandbox/server.js';
import { runMon, tempConfigDir } from '../helpers/run-mon.js';
import { runMain } from '../helpers/run-main.js';

const KEY = 'k_live_0123456789abcdefWXYZ';

describe('profiles', () => {
  let sandbox: RunningSandbox;
  let dir: string;
  const mon = (args: string[], input?: string, env: Record<string, string> = {}) =>
    runMain(args, { env: { MON_CONFIG_DIR: dir, ...env }, input });

  beforeAll(async () => {
    sandbox = await startSandbox({ port: 0 });
    dir = join(tempConfigDir(), 'nested', 'mon');
  });
  afterAll(() => sandbox.close());

  it('keeps a display name for reports: given to add, changed by set, kept when the profile is saved again', async () => {
    const config = tempConfigDir();
    const run = (args: string[], input?: string) => runMain(args, { env: { MON_CONFIG_DIR: config }, input });
    expect(
      (
        await run(
          [
            'profile',
            'add',
            'acme',
            '--base-url',
            'https://acme.monitoring.example.com',
            '--api-key-stdin',
            '--display-name',
            'Acme Design',
          ],
          `${KEY}\n`,
        )
      ).code,
    ).toBe(0);
    expect(JSON.parse((await run(['profile', 'show', 'acme', '--json'])).stdout).display_name).toBe('Acme Design');
    const set = await run(['profile', 'set', 'acme', '--display-name', 'Acme Design Ltd']);
    expect(set.code).toBe(0);
    expect(set.stderr).toBe("Profile acme: reports name the customer 'Acme Design Ltd'.\n");
    expect(
      (
        await run(
          ['profile', 'add', 'acme', '--base-url', 'https://acme.monitoring.example.com', '--api-key-stdin'],
          `${KEY}\n`,
        )
      ).code,
    ).toBe(0);
    const saved = JSON.parse(readFileSync(join(config, 'config.json'), 'utf8')).profiles.acme;
    expect(saved).toEqual({
      baseUrl: 'https://acme.monitoring.example.com',
      apiKey: KEY,
      displayName: 'Acme Design Ltd',
    });
    expect(await run(['profile', 'set', 'nobody', '--display-name', 'X'])).toMatchObject({
      code: 2,
      stderr: expect.stringMatching(/^mon: no profile named 'nobody'/),
    });
    expect(await run(['profile', 'set', 'acme', '--display-name', 'x'.repeat(201)])).toMatchObject({
      code: 2,
      stderr: expect.stringMatching(/^mon: --display-name: .*200/),
    });
  });

  it('adds a profile from stdin, in a 0700 folder and a 0600 file, and never echoes the key', async () => {
    const added = await mon(
      ['profile', 'add', 'acme', '--subdomain', 'acme', '--domain', 'monitoring.example.com', '--api-key-stdin'],
      `${KEY}\n`,
    );
    expect(added.code).toBe(0);
    expect(added.stdout).toBe('');
    expect(added.stderr).toContain('Saved profile acme (https://acme.monitoring.example.com), the default.');
    expect(added.stderr).not.toContain(KEY);
    expect(statSync(dir).mode & 0o777).toBe(0o700);
    expect(statSync(join(dir, 'config.json')).mode & 0o777).toBe(0o600);
    expect(JSON.parse(readFileSync(join(dir, 'config.json'), 'utf8')).profiles.acme.apiKey).toBe(KEY);
  });

  it('lists and shows profiles with the key masked to its last 4 characters', async () => {
    await mon(['profile', 'add', 'local', '--base-url', sandbox.url, '--api-key-stdin'], sandbox.apiKey);
    const listed = await mon(['profile', 'list', '--json']);
    expect(listed.code).toBe(0);
    expect(JSON.parse(listed.stdout)).toEqual([
      {
        name: 'acme',
        default: true,
        base_url: 'https://acme.monitoring.example.com',
        api_key: '****WXYZ',
        subdomain: 'acme',
        domain: 'monitoring.example.com',
      },
      {
        name: 'local',
        default: false,
        base_url: sandbox.url,
        api_key: '****7d'.replace('7d', sandbox.apiKey.slice(-4)),
      },
    ]);
    const shown = await mon(['profile', 'show']);
    expect(shown.stdout).toMatch(/NAME\s+acme/);
    expect(shown.stdout).toContain('****WXYZ');
    expect(shown.stdout).not.toContain(KEY);
  });

  it('uses the default profile, MON_PROFILE and --profile in that order of precedence', async () => {
    expect((await mon(['profile', 'use', 'local'])).code).toBe(0);
    const viaDefault = await mon(['groups', 'list', '--json']);
    expect(viaDefault.code).toBe(0);
    const viaEnv = await mon(['groups', 'list'], undefined, { MON_PROFILE: 'acme', MON_BASE_URL: sandbox.url });
    // acme's key is not a sandbox key: the flag/env base URL applies, the profile's key is refused.
    expect(viaEnv.code).toBe(3);
    expect(viaEnv.stderr).not.toContain(KEY);
    const viaFlag = await mon(['--profile', 'nope', 'groups', 'list'], undefined, { MON_PROFILE: 'local' });
    expect(viaFlag.code).toBe(2);
    expect(viaFlag.stderr).toContain("no profile named 'nope' (saved: acme, local)");
  });

  it('tests a profile with one cheap request', async () => {
    sandbox.requests.length = 0;
    const ok = await mon(['profile', 'test', 'local']);
    expect(ok.code).toBe(0);
    expect(ok.stdout).toMatch(/^ok: http:\/\/127\.0\.0\.1:\d+ answered with a valid key/);
    expect(sandbox.requests).toHaveLength(1);
    expect(sandbox.requests[0]?.query.per_page).toBe('1');
  });

  it('tests a named profile as saved: MON_API_KEY and MON_BASE_URL are neither sent to it nor used instead', async () => {
    sandbox.requests.length = 0;
    const envKey = 'k_env_not_the_sandbox_key_0000';
    const ok = await mon(['profile', 'test', 'local'], undefined, {
      MON_API_KEY: envKey,
      MON_BASE_URL: 'http://127.0.0.1:9',
    });
    expect(ok.stderr).toBe('');
    expect(ok.code).toBe(0);
    expect(ok.stdout.startsWith(`ok: ${sandbox.url} answered with a valid key`)).toBe(true);
    expect(sandbox.requests).toHaveLength(1);
    expect(sandbox.requests[0]?.status).toBe(200);
    expect(sandbox.requests[0]?.query.api_key).toBe(sandbox.apiKey);
    expect(JSON.stringify(sandbox.requests[0])).not.toContain(envKey);
  });

  it('refuses to remove a profile without --yes when no one can confirm, and removes it with --yes', async () => {
    const refused = await mon(['profile', 'remove', 'acme']);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain('--yes');
    expect(JSON.parse(readFileSync(join(dir, 'config.json'), 'utf8')).profiles.acme).toBeDefined();
    const removed = await mon(['profile', 'remove', 'acme', '--yes']);
    expect(removed.code).toBe(0);
    expect(JSON.parse(readFileSync(join(dir, 'config.json'), 'utf8')).profiles.acme).toBeUndefined();
  });

  it.each([
    [['profile', 'add', 'x', '--subdomain', 'a b', '--domain', 'example.com', '--api-key-stdin'], '--subdomain'],
    [['profile', 'add', 'x', '--base-url', 'http://example.com', '--api-key-stdin'], 'plain http is refused'],
    [['profile', 'add', 'x', '--subdomain', 'acme', '--api-key-stdin'], '--subdomain and --domain go together'],
    [['profile', 'add', 'x', '--base-url', 'https://a.example.com'], 'no terminal to ask for the API key'],
    [['profile', 'add', '-bad', '--base-url', 'https://a.example.com', '--api-key-stdin'], 'unknown option'],
  ])('rejects bad input: %j', async (args, message) => {
    const result = await mon(args, 'key123456789');
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(message);
    expect(result.stderr.trim().split('\n')).toHaveLength(1);
  });

  it.each([[['--sandbox', 'groups', 'list']], [['profile', 'list']]])(
    'creates the config folder 0700 whichever command comes first: %j',
    async (args) => {
      const fresh = join(tempConfigDir(), 'a', 'mon');
      const result = await runMain(args, { env: { MON_CONFIG_DIR: fresh } });
      expect(result.code).toBe(0);
      expect(statSync(fresh).mode & 0o777).toBe(0o700);
    },
  );

  it('names a corrupt config file instead of crashing', async () => {
    const broken = tempConfigDir();
    writeFileSync(join(broken, 'config.json'), '{"profiles": {');
    const result = await runMain(['profile', 'list'], { env: { MON_CONFIG_DIR: broken } });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(join(broken, 'config.json'));
    expect(result.stderr).not.toMatch(/\n\s+at /);
  });
});

describe('--dry-run of what changes this machine, not the account', () => {
  it.each([
    [
      ['profile', 'add', 'other', '--base-url', 'http://127.0.0.1:9', '--api-key-stdin', '--default'],
      'save profile other (http://127.0.0.1:9) as the default',
    ],
    [['profile', 'use', 'second'], 'make second the default profile'],
    [['profile', 'remove', 'first', '--yes'], 'remove profile first and its saved key'],
    [['changes', 'forget', 'morning'], "forget the state saved under 'morning'"],
    [['sandbox', 'reset'], "forget every change made in the sandbox's data"],
    [['sandbox', 'reset', '--all'], 'remove every sandbox state'],
  ])('%j: nothing changed, and the notice says what would have been', async (args, wouldDo) => {
    const dir = tempConfigDir();
    const mon = (line: string[], input?: string) => runMain(line, { env: { MON_CONFIG_DIR: dir }, input });
    for (const name of ['first', 'second'])
      expect(
        (await mon(['profile', 'add', name, '--base-url', 'http://127.0.0.1:9', '--api-key-stdin'], 'k_dry_run_123456'))
          .code,
      ).toBe(0);
    // A --changes state and a sandbox state with a change in it, for forget and reset to find.
    expect((await mon(['--sandbox', 'computers', 'list', '--changes', 'morning', '-q'])).code).toBe(0);
    expect(
      (await mon(['--sandbox', 'notes', 'create', '--group', 'Acme Design', '--body', 'kept by --dry-run'])).code,
    ).toBe(0);
    const before = await Promise.all([
      mon(['profile', 'list', '--json']),
      mon(['--sandbox', 'changes', 'list', '--json']),
      mon(['--sandbox', 'notes', 'list', '--all', '--json']),
    ]);

    const result = await mon(['--dry-run', ...args]);
    expect(result).toEqual({ code: 0, stdout: '', stderr: `dry run: nothing was changed (this would ${wouldDo})\n` });

    const after = await Promise.all([
      mon(['profile', 'list', '--json']),
      mon(['--sandbox', 'changes', 'list', '--json']),
      mon(['--sandbox', 'notes', 'list', '--all', '--json']),
    ]);
    expect(after.map((one) => one.stdout)).toEqual(before.map((one) => one.stdout));
  });
});

describe('the profile store under concurrent and hand-made changes', () => {
  it('eight `profile add` at once: all eight saved (conf read, changed and wrote the file whole, and lost some)', async () => {
    const dir = tempConfigDir();
    const runs = await Promise.all(
      Array.from({ length: 8 }, (_, i) =>
        runMon(['profile', 'add', `p${i}`, '--base-url', 'http://127.0.0.1:9', '--api-key-stdin'], {
          env: { MON_CONFIG_DIR: dir },
          input: `k_concurrent_key_${i}`,
        }),
      ),
    );
    expect(runs.map((run) => run.code)).toEqual(Array(8).fill(0));
    const saved = JSON.parse(readFileSync(join(dir, 'config.json'), 'utf8')) as {
      profiles: Record<string, unknown>;
      defaultProfile: string;
    };
    expect(Object.keys(saved.profiles).sort()).toEqual(Array.from({ length: 8 }, (_, i) => `p${i}`));
    expect(Object.keys(saved.profiles)).toContain(saved.defaultProfile);
  });

  it('removing the default profile leaves none, says so, and a command without -p stops at "no default profile"', async () => {
    const dir = tempConfigDir();
    const mon = (args: string[], input?: string) => runMain(args, { env: { MON_CONFIG_DIR: dir }, input });
    for (const name of ['first', 'second'])
      expect(
        (
          await mon(
            ['profile', 'add', name, '--base-url', 'http://127.0.0.1:9', '--api-key-stdin'],
            'k_default_key_123456',
          )
        ).code,
      ).toBe(0);
    const removed = await mon(['profile', 'remove', 'first', '--yes']);
    expect(removed).toEqual({
      code: 0,
      stdout: '',
      stderr:
        'Removed profile first. It was the default: there is none now (commands without -p stop at "no profile"); choose one with `mon profile use <name>`.\n',
    });
    expect(await mon(['groups', 'list'])).toEqual({
      code: 2,
      stdout: '',
      stderr:
        'mon: no default profile, and none given (saved: second) — give one with -p <name>, or make one the default with `mon profile use <name>`\n',
    });
  });

  it('after the default is removed, the next profile added does not become the default by itself', async () => {
    const dir = tempConfigDir();
    const mon = (args: string[], input?: string) => runMain(args, { env: { MON_CONFIG_DIR: dir }, input });
    for (const name of ['acme', 'globex'])
      expect(
        (
          await mon(
            ['profile', 'add', name, '--base-url', 'http://127.0.0.1:9', '--api-key-stdin'],
            'k_default_key_123456',
          )
        ).code,
      ).toBe(0);
    expect((await mon(['profile', 'remove', 'acme', '--yes'])).code).toBe(0);
    const added = await mon(
      ['profile', 'add', 'initech', '--base-url', 'http://127.0.0.1:9', '--api-key-stdin'],
      'k_default_key_123456',
    );
    expect(added.code).toBe(0);
    expect(added.stderr).toMatch(
      /^Saved profile initech \(http:\/\/127\.0\.0\.1:9\); there is no default profile .*mon profile use <name>/,
    );
    const saved = JSON.parse(readFileSync(join(dir, 'config.json'), 'utf8')) as { defaultProfile?: string };
    expect(saved.defaultProfile).toBeUndefined();
    expect((await mon(['groups', 'list'])).stderr).toMatch(/^mon: no default profile, and none given/);
    // --default still names one; the first profile of an empty store is the default by itself.
    expect(
      (
        await mon(
          ['profile', 'add', 'umbrella', '--base-url', 'http://127.0.0.1:9', '--api-key-stdin', '--default'],
          'k_default_key_123456',
        )
      ).stderr,
    ).toMatch(/, the default\./);
    const fresh = tempConfigDir();
    const first = await runMain(['profile', 'add', 'solo', '--base-url', 'http://127.0.0.1:9', '--api-key-stdin'], {
      env: { MON_CONFIG_DIR: fresh },
      input: 'k_default_key_123456',
    });
    expect(first.stderr).toMatch(/^Saved profile solo \(http:\/\/127\.0\.0\.1:9\), the default\./);
  });

  it('a default that names a profile no longer saved is said as such', async () => {
    const dir = tempConfigDir();
    writeFileSync(
      join(dir, 'config.json'),
      JSON.stringify({
        profiles: { kept: { baseUrl: 'http://127.0.0.1:9', apiKey: 'k_default_key_123456' } },
        defaultProfile: 'ghost',
      }),
      { mode: 0o600 },
    );
    expect(await runMain(['groups', 'list'], { env: { MON_CONFIG_DIR: dir } })).toEqual({
      code: 2,
      stdout: '',
      stderr:
        "mon: the default profile 'ghost' is not saved (saved: kept) — choose one with `mon profile use <name>`\n",
    });
  });
});

describe('a config.json whose top level is not an object', () => {
  it.each(['[1,2]', 'null', '5'])('%s: exit 2 for reads and writes alike, the file left as it is', async (text) => {
    const dir = tempConfigDir();
    writeFileSync(join(dir, 'config.json'), text, { mode: 0o600 });
    const line = `mon: config file ${join(dir, 'config.json')}: not an object — fix the file by hand, or move it away and add your profiles again\n`;
    expect(await runMain(['profile', 'list'], { env: { MON_CONFIG_DIR: dir } })).toEqual({
      code: 2,
      stdout: '',
      stderr: line,
    });
    expect(
      await runMain(['profile', 'add', 'zz', '--base-url', 'http://127.0.0.1:9', '--api-key-stdin'], {
        env: { MON_CONFIG_DIR: dir },
        input: 'k_shape_key_123456',
      }),
    ).toEqual({ code: 2, stdout: '', stderr: line });
    expect(readFileSync(join(dir, 'config.json'), 'utf8')).toBe(text);
  });

  it('an empty file holds no profiles, for profile add as for the reads', async () => {
    const dir = tempConfigDir();
    writeFileSync(join(dir, 'config.json'), '', { mode: 0o600 });
    expect(
      (
        await runMain(['profile', 'add', 'zz', '--base-url', 'http://127.0.0.1:9', '--api-key-stdin'], {
          env: { MON_CONFIG_DIR: dir },
          input: 'k_shape_key_123456',
        })
      ).code,
    ).toBe(0);
    expect(
      (await runMain(['profile', 'list', '-o', 'csv', '--fields', 'name'], { env: { MON_CONFIG_DIR: dir } })).stdout,
    ).toBe('name\nzz\n');
  });
});

describe('profile remove and the states of --changes', () => {
  it("forgets the profile's saved states: the same name added again for another account starts a new baseline", async () => {
    const sandbox = await startSandbox({ port: 0 });
    try {
      const dir = tempConfigDir();
      const mon = (args: string[], input?: string) => runMain(args, { env: { MON_CONFIG_DIR: dir }, input });
      expect(
        (await mon(['profile', 'add', 'cust', '--base-url', sandbox.url, '--api-key-stdin'], sandbox.apiKey)).code,
      ).toBe(0);
      expect((await mon(['-p', 'cust', 'computers', 'list', '--changes', 'nightly', '-q'])).code).toBe(0);
      const removed = await mon(['profile', 'remove', 'cust', '--yes']);
      expect(removed.stderr).toContain('Removed profile cust. Its 1 saved state of --changes is forgotten too.');
      expect(
        (await mon(['profile', 'add', 'cust', '--base-url', sandbox.url, '--api-key-stdin'], sandbox.apiKey)).code,
      ).toBe(0);
      const again = await mon(['-p', 'cust', 'computers', 'list', '--changes', 'nightly']);
      expect(again).toMatchObject({
        code: 0,
        stdout: '',
        stderr: "recorded 40 computers as the baseline of 'nightly'\n",
      });
    } finally {
      await sandbox.close();
    }
  });
});
