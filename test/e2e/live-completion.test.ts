/**
 * Live names for Tab (`mon __complete <kind>`), as the completion scripts run it: spawned, from
 * the live cache in the config folder, refreshed in the background. The shells' side (names with
 * spaces and quotes) is in test/completion/shells.test.ts.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type RunningSandbox } from '../../src/sandbox/server.js';
import { startFakeApi, type FakeApi } from '../helpers/fake-api.js';
import { runMon, tempConfigDir } from '../helpers/run-mon.js';
import { SLOW, waitFor } from '../helpers/slow.js';

/** The refresh's MON_DEADLINE against a server that never answers: it must have sent its request by then. */
const REFRESH_DEADLINE = String(10 * SLOW);

/** Waits for a file (the refresh runs in its own process, and writes it when done). */
async function eventually(file: string): Promise<void> {
  await waitFor(() => existsSync(file), `${file} to be written`);
}

describe('mon __complete <kind>', () => {
  let sandbox: RunningSandbox;
  let hanging: FakeApi;

  beforeAll(async () => {
    sandbox = await startSandbox({ port: 0 });
    hanging = await startFakeApi(() => new Promise(() => undefined));
  });
  afterAll(async () => {
    await sandbox.close();
    await hanging.close();
  });

  async function profile(url: string, key: string): Promise<Record<string, string>> {
    const dir = tempConfigDir();
    const env = { MON_CONFIG_DIR: dir, HOME: dir };
    expect(
      (await runMon(['profile', 'add', 'acme', '--base-url', url, '--api-key-stdin'], { env, input: `${key}\n` })).code,
    ).toBe(0);
    return env;
  }

  it("answers at once from no cache, refreshes it in the background, then offers the account's names; the cache holds no key, 0600", async () => {
    const env = await profile(sandbox.url, sandbox.apiKey);
    const first = await runMon(['__complete', 'groups'], { env });
    expect(first).toMatchObject({ code: 0, stdout: '', stderr: '' });
    const cache = join(env.MON_CONFIG_DIR!, 'completion', 'acme.json');
    await eventually(cache);
    expect(statSync(cache).mode & 0o777).toBe(0o600);
    expect(readFileSync(cache, 'utf8')).not.toContain(sandbox.apiKey.slice(4, 16));

    const groups = (
      JSON.parse((await runMon(['groups', 'list', '--all', '-o', 'json'], { env })).stdout) as { name: string }[]
    )
      .map((group) => group.name)
      .sort();
    expect((await runMon(['__complete', 'groups'], { env })).stdout).toBe(`${groups.join('\n')}\n`);
    const computers = (await runMon(['__complete', 'computers'], { env })).stdout.trim().split('\n');
    expect(computers).toHaveLength(40);
    expect((await runMon(['__complete', 'plugins'], { env })).stdout).toContain('Disk Space\n');
    expect((await runMon(['__complete', 'notes'], { env })).stdout).toMatch(/^n_/);
    expect((await runMon(['__complete', 'expirations'], { env })).stdout).toMatch(/^e_/);
  });

  it('with -p on the line, reads and refreshes that account, not the default one', async () => {
    // acme (the default) hangs; south is the sandbox: `mon -p south __complete groups` refreshes south.
    const env = await profile(hanging.url, 'sbx_live_hanging_0123456789');
    expect(
      (
        await runMon(['profile', 'add', 'south', '--base-url', sandbox.url, '--api-key-stdin'], {
          env,
          input: `${sandbox.apiKey}\n`,
        })
      ).code,
    ).toBe(0);
    const first = await runMon(['-p', 'south', '__complete', 'groups'], { env });
    expect(first).toMatchObject({ code: 0, stdout: '', stderr: '' });
    await eventually(join(env.MON_CONFIG_DIR!, 'completion', 'south.json'));
    const groups = (
      JSON.parse((await runMon(['-p', 'south', 'groups', 'list', '--all', '-o', 'json'], { env })).stdout) as {
        name: string;
      }[]
    )
      .map((group) => group.name)
      .sort();
    expect((await runMon(['-p', 'south', '__complete', 'groups'], { env })).stdout).toBe(`${groups.join('\n')}\n`);
    expect(existsSync(join(env.MON_CONFIG_DIR!, 'completion', 'acme.json'))).toBe(false);
  });

  it('offers the stale names at once while the API hangs, past MON_COMPLETION_TTL', async () => {
    const env = await profile(hanging.url, 'sbx_live_hanging_0123456789');
    const cache = join(env.MON_CONFIG_DIR!, 'completion');
    mkdirSync(cache, { recursive: true, mode: 0o700 });
    writeFileSync(join(cache, 'acme.json'), JSON.stringify({ saved_at: 0, groups: ['Old Name', 'Other'] }), {
      mode: 0o600,
    });
    const run = await runMon(['__complete', 'groups'], {
      env: { ...env, MON_COMPLETION_TTL: '0', MON_DEADLINE: REFRESH_DEADLINE },
    });
    expect(run).toMatchObject({ code: 0, stdout: 'Old Name\nOther\n', stderr: '' });
    await waitFor(() => hanging.requests.length > 0, 'the refresh to ask for the groups');
    expect(hanging.requests[0]?.path).toBe('/v2.5/groups');
  });

  it('a cache dated a year ahead of the clock is stale too: its names at once, and a refresh', async () => {
    hanging.requests.length = 0;
    const env = await profile(hanging.url, 'sbx_live_hanging_0123456789');
    const cache = join(env.MON_CONFIG_DIR!, 'completion');
    mkdirSync(cache, { recursive: true, mode: 0o700 });
    writeFileSync(
      join(cache, 'acme.json'),
      JSON.stringify({ saved_at: Date.now() + 365 * 86_400_000, groups: ['Ahead'] }),
      { mode: 0o600 },
    );
    const run = await runMon(['__complete', 'groups'], { env: { ...env, MON_DEADLINE: REFRESH_DEADLINE } });
    expect(run).toMatchObject({ code: 0, stdout: 'Ahead\n', stderr: '' });
    await waitFor(() => hanging.requests.length > 0, 'the refresh to ask for the groups');
    expect(hanging.requests[0]?.path).toBe('/v2.5/groups');
  });

  it('offers nothing, and says nothing, without an account', async () => {
    const dir = tempConfigDir();
    expect(await runMon(['__complete', 'groups'], { env: { MON_CONFIG_DIR: dir, HOME: dir } })).toMatchObject({
      code: 0,
      stdout: '',
      stderr: '',
    });
  });
});

describe('a live cache mon did not write as it expects', () => {
  /** A profile `acme` on a port that answers nothing, its completion folder made. */
  async function profileWithCacheFolder(): Promise<{ env: Record<string, string>; folder: string }> {
    const dir = tempConfigDir();
    const env = { MON_CONFIG_DIR: dir, HOME: dir, MON_DEADLINE: '2' };
    expect(
      (
        await runMon(['profile', 'add', 'acme', '--base-url', 'http://127.0.0.1:9', '--api-key-stdin'], {
          env,
          input: 'k_live_cache_123456\n',
        })
      ).code,
    ).toBe(0);
    const folder = join(dir, 'completion');
    mkdirSync(folder, { recursive: true, mode: 0o700 });
    return { env, folder };
  }

  it('a FIFO at its path: the Tab answers at once with nothing (it waited for a writer for good)', async () => {
    const { env, folder } = await profileWithCacheFolder();
    execFileSync('mkfifo', ['-m', '600', join(folder, 'acme.json')]);
    const run = await runMon(['__complete', 'groups'], { env, timeoutMs: 10_000 });
    expect(run).toMatchObject({ code: 0, stdout: '', stderr: '', signal: null });
  });

  it('names with control characters are not offered (a tab, a NUL, an escape)', async () => {
    const { env, folder } = await profileWithCacheFolder();
    writeFileSync(
      join(folder, 'acme.json'),
      JSON.stringify({
        saved_at: Date.now(),
        groups: ['Plain', 'tab\there', 'nul\u0000byte', 'esc\u001b[31m', 'Last One'],
      }),
      { mode: 0o600 },
    );
    expect(await runMon(['__complete', 'groups'], { env })).toMatchObject({ code: 0, stdout: 'Plain\nLast One\n' });
  });

  it('profile remove forgets the Tab names of that profile', async () => {
    const { env, folder } = await profileWithCacheFolder();
    writeFileSync(join(folder, 'acme.json'), JSON.stringify({ saved_at: Date.now(), groups: ['Old Account'] }), {
      mode: 0o600,
    });
    expect((await runMon(['profile', 'remove', 'acme', '--yes'], { env })).code).toBe(0);
    expect(existsSync(join(folder, 'acme.json'))).toBe(false);
  });
});
