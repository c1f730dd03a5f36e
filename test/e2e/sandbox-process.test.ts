/**
 * `mon sandbox` as a real process (#12 items 11 and 12): a busy port is a usage error, and a
 * foreground sandbox and `mon --sandbox` runs on the same config folder never lose each
 * other's writes.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createServer, type Server } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { Readable } from 'node:stream';
import { main } from '../../src/main.js';
import { runMain } from '../helpers/run-main.js';
import { waitFor } from '../helpers/slow.js';
import { MON_BIN, runMon, tempConfigDir } from '../helpers/run-mon.js';

const KEY = 'sbx_live_demo_4f6c2a9e1b7d';
let children: ChildProcess[] = [];
let servers: Server[] = [];

afterEach(async () => {
  for (const child of children) child.kill('SIGTERM');
  children = [];
  for (const server of servers) await new Promise((resolve) => server.close(resolve));
  servers = [];
});

/** Starts `mon sandbox` in the foreground and resolves with its base URL from the banner. */
function foreground(configDir: string, ...args: string[]): Promise<string> {
  return foregroundBanner(configDir, ...args).then((banner) => banner.url);
}

/** Starts `mon sandbox` in the foreground and resolves with its base URL, key and banner. */
function foregroundBanner(
  configDir: string,
  ...args: string[]
): Promise<{ url: string; key: string; banner: string; stderr: () => string }> {
  const child = spawn(process.execPath, [MON_BIN, 'sandbox', '--port', '0', ...args], {
    env: { PATH: process.env.PATH ?? '', HOME: configDir, MON_CONFIG_DIR: configDir },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.push(child);
  let err = '';
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (err += chunk));
  return new Promise((resolve, reject) => {
    let out = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      out += chunk;
      const url = /export MON_BASE_URL=(\S+)/.exec(out)?.[1];
      const key = /export MON_API_KEY=(\S+)/.exec(out)?.[1];
      if (url && key) resolve({ url: url.replace(/\/v2\.5$/, ''), key, banner: out, stderr: () => err });
    });
    child.on('exit', (code) => reject(new Error(`mon sandbox exited with ${code}`)));
  });
}

describe('mon sandbox --port on a busy port', () => {
  it('says the port is taken and what to do, exit 2', async () => {
    const busy = createServer();
    servers.push(busy);
    await new Promise<void>((resolve) => busy.listen(0, '127.0.0.1', resolve));
    const port = (busy.address() as { port: number }).port;
    const result = await runMon(['sandbox', '--port', String(port)]);
    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr).toBe(
      `mon: --port ${port}: port ${port} on 127.0.0.1 is already in use — choose another with --port <n>, or --port 0 for any free port\n`,
    );
  });
});

describe('a foreground sandbox and mon --sandbox on one config folder', () => {
  it("never lose each other's writes", async () => {
    const configDir = tempConfigDir();
    const env = { MON_CONFIG_DIR: configDir, HOME: configDir };
    const url = await foreground(configDir);
    const api = async (method: string, path: string, form?: Record<string, string>) => {
      const res = await fetch(
        `${url}${path}${method === 'GET' ? `${path.includes('?') ? '&' : '?'}api_key=${KEY}` : ''}`,
        form ? { method, body: new URLSearchParams({ ...form, api_key: KEY }) } : { method },
      );
      return { status: res.status, body: (await res.json()) as any };
    };
    const group = (await api('GET', '/v2.5/groups')).body[0].uid as string;

    // a note written by mon --sandbox (its own in-process server) is there on the foreground one
    const created = await runMon(
      ['--sandbox', 'notes', 'create', '--group', group, '--body', 'from mon --sandbox', '-o', 'json', '-q'],
      { env },
    );
    expect(created.stderr).toBe('');
    expect(created.code).toBe(0);
    const first = JSON.parse(created.stdout).uid as string;
    expect((await api('GET', `/v2.5/notes/${first}`)).body.body).toBe('from mon --sandbox');

    // the foreground's next create gets a new uid, and the first note survives it
    const second = (await api('POST', '/v2.5/notes', { 'note[group_id]': group, 'note[body]': 'from the foreground' }))
      .body.uid as string;
    expect(second).not.toBe(first);
    const both = await runMon(['--sandbox', 'notes', 'list', '--group', group, '-o', 'json', '--all'], { env });
    const uids = (JSON.parse(both.stdout) as { uid: string }[]).map((n) => n.uid);
    expect(uids).toEqual(expect.arrayContaining([first, second]));

    // writes from both at once: every one is kept
    const results = await Promise.all([
      ...[1, 2, 3].map((i) =>
        runMon(['--sandbox', 'notes', 'create', '--group', group, '--body', `process ${i}`, '-o', 'json', '-q'], {
          env,
        }),
      ),
      ...[1, 2, 3, 4, 5].map((i) =>
        api('POST', '/v2.5/notes', { 'note[group_id]': group, 'note[body]': `foreground ${i}` }),
      ),
    ]);
    const made = results.map((r) =>
      'stdout' in r ? (JSON.parse(r.stdout) as { uid: string }).uid : (r.body.uid as string),
    );
    expect(new Set(made).size).toBe(8);
    const all = (await api('GET', `/v2.5/notes?group=${group}&per_page=100`)).body as { uid: string }[];
    for (const uid of [first, second, ...made]) expect(all.map((n) => n.uid)).toContain(uid);
  });
});

describe('sandboxes serving other data', () => {
  const count = async (url: string, key: string) => {
    const res = await fetch(`${url}/v2.5/computers?per_page=1&api_key=${key}`);
    await res.arrayBuffer();
    return Number(res.headers.get('x-total'));
  };

  it('another size is another state: a running sandbox and its file keep their data', async () => {
    const configDir = tempConfigDir();
    const first = await foregroundBanner(configDir);
    const note = await fetch(`${first.url}/v2.5/notes`, {
      method: 'POST',
      body: new URLSearchParams({
        'note[group_id]': (
          (await (await fetch(`${first.url}/v2.5/groups?api_key=${KEY}`)).json()) as { uid: string }[]
        )[0]!.uid,
        'note[body]': 'kept',
        api_key: KEY,
      }),
    });
    const noteUid = ((await note.json()) as { uid: string }).uid;
    const before = readFileSync(join(configDir, 'sandbox.json'), 'utf8');

    const big = await foregroundBanner(configDir, '--computers', '60');
    expect(await count(big.url, big.key)).toBe(60);
    expect(big.banner).toContain(join(configDir, 'sandbox-60c.json'));
    expect(big.banner).toContain('mon sandbox reset --computers 60');
    expect(big.stderr()).toBe('');
    // The default data is untouched, on disk and where it is served.
    expect(readFileSync(join(configDir, 'sandbox.json'), 'utf8')).toBe(before);
    expect(await count(first.url, KEY)).toBe(40);
    const env = { MON_CONFIG_DIR: configDir, HOME: configDir };
    const read = await runMon(['--sandbox', 'notes', 'get', noteUid, '-o', 'json'], { env });
    expect(read.code).toBe(0);
    expect(JSON.parse(read.stdout).body).toBe('kept');

    // reset names the data it forgets; --all forgets every one.
    expect(await runMon(['sandbox', 'reset', '--computers', '60'], { env })).toMatchObject({
      code: 0,
      stderr: 'Sandbox reset: the demo data is restored (a sandbox serving it starts over at its next request).\n',
    });
    expect(existsSync(join(configDir, 'sandbox-60c.json'))).toBe(false);
    expect(existsSync(join(configDir, 'sandbox.json'))).toBe(true);
    expect(await runMon(['sandbox', 'reset', '--all'], { env })).toMatchObject({
      code: 0,
      stderr:
        'Sandbox reset: 1 state removed; the demo data is restored (a sandbox serving it starts over at its next request).\n',
    });
    expect(existsSync(join(configDir, 'sandbox.json'))).toBe(false);
  });

  it('two demo accounts serve different data under their own keys, so --all-profiles shows two accounts', async () => {
    const configDir = tempConfigDir();
    const env = { MON_CONFIG_DIR: configDir, HOME: configDir };
    const [north, south] = await Promise.all([
      foregroundBanner(configDir, '--account', 'north'),
      foregroundBanner(configDir, '--account', 'south'),
    ]);
    expect(north.key).not.toBe(south.key);
    expect(north.key).not.toBe(KEY);
    expect(north.banner).toContain("demo account 'north'");
    for (const [name, one] of [
      ['north', north],
      ['south', south],
    ] as const) {
      const added = await runMain(['profile', 'add', name, '--base-url', one.url, '--api-key-stdin'], {
        env,
        input: `${one.key}\n`,
      });
      expect(added.stderr).not.toContain(one.key);
      expect(added.code).toBe(0);
    }
    // The sandboxes are the processes under test: mon reads them in-process.
    const listed = await runMain(['--all-profiles', 'computers', 'list', '-o', 'json', '--fields', 'uid'], { env });
    expect(listed.code).toBe(0);
    const rows = JSON.parse(listed.stdout) as { profile: string; uid: string }[];
    const uids = (profile: string) => new Set(rows.filter((row) => row.profile === profile).map((row) => row.uid));
    expect(uids('north').size).toBe(40);
    expect(uids('south').size).toBe(40);
    expect([...uids('north')].filter((uid) => uids('south').has(uid))).toEqual([]);
    // Each account's own file; the default data is not written.
    expect(
      readdirSync(configDir)
        .filter((name) => name.startsWith('sandbox') && name.endsWith('.json'))
        .sort(),
    ).toEqual(['sandbox-north.json', 'sandbox-south.json']);
  });

  it('--rate-limit N/S sets what each key may send; a bad rate is refused naming the form', async () => {
    const configDir = tempConfigDir();
    const { url } = await foregroundBanner(configDir, '--rate-limit', '2/60');
    const statuses: number[] = [];
    for (let i = 0; i < 3; i++) {
      const res = await fetch(`${url}/v2.5/groups?api_key=${KEY}`);
      await res.arrayBuffer();
      statuses.push(res.status);
    }
    expect(statuses).toEqual([200, 200, 429]);
    const bad = await runMon(['sandbox', '--rate-limit', '400'], { env: { MON_CONFIG_DIR: configDir } });
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/^mon: --rate-limit: '400' is not a rate such as 400\/60/);
  });
});

/**
 * In-process: main() hands bin/mon the deadline's last word (endAtDeadline) for every command but
 * one that runs until stopped. That is the whole rule, and asking whether it was handed needs no
 * wait for a deadline to pass, on any clock.
 */
describe('a foreground sandbox under MON_DEADLINE', () => {
  it('runs until it is stopped: the deadline bounds commands, not the server (which then answers)', async () => {
    const configDir = tempConfigDir();
    const lastWords: unknown[] = [];
    const stop = new AbortController();
    let out = '';
    const io = {
      stdout: { write: (chunk: string) => ((out += chunk), true), isTTY: false },
      stderr: { write: () => true, isTTY: false },
      stdin: Object.assign(Readable.from([]), { isTTY: false }),
    };
    const env = { HOME: configDir, MON_CONFIG_DIR: configDir, MON_DEADLINE: '1' };
    const serving = main(['sandbox', '--port', '0'], {
      io,
      env,
      signal: stop.signal,
      endAtDeadline: (deadlineMs) => lastWords.push(deadlineMs),
    });
    try {
      await waitFor(() => /export MON_BASE_URL=\S+/.test(out), 'the sandbox to print its address');
      expect(lastWords).toEqual([]);
      const url = /export MON_BASE_URL=(\S+)/.exec(out)![1]!;
      const answered = await runMain(['groups', 'list', '--count'], { env: { MON_BASE_URL: url, MON_API_KEY: KEY } });
      expect(answered).toMatchObject({ code: 0, stdout: '9\n' });
      // Any other command under the same MON_DEADLINE is handed it.
      const other = await main(['groups', 'list', '--count'], {
        io: { ...io, stdout: { write: () => true, isTTY: false } },
        env: { ...env, MON_BASE_URL: url, MON_API_KEY: KEY },
        endAtDeadline: (deadlineMs) => lastWords.push(deadlineMs),
      });
      expect(other).toBe(0);
      expect(lastWords).toEqual([1_000]);
    } finally {
      stop.abort('SIGINT');
      await serving;
    }
  });
});
