/**
 * `mon sandbox` as a real process (#12 items 11 and 12): a busy port is a usage error, and a
 * foreground sandbox and `mon --sandbox` runs on the same config folder never lose each
 * other's writes.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createServer, type Server } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
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
function foreground(configDir: string): Promise<string> {
  const child = spawn(process.execPath, [MON_BIN, 'sandbox', '--port', '0'], { env: { PATH: process.env.PATH ?? '', HOME: configDir, MON_CONFIG_DIR: configDir }, stdio: ['ignore', 'pipe', 'pipe'] });
  children.push(child);
  return new Promise((resolve, reject) => {
    let out = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      out += chunk;
      const m = /export MON_BASE_URL=(\S+)/.exec(out);
      if (m) resolve((m[1] as string).replace(/\/v2\.5$/, ''));
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
    expect(result.stderr).toBe(`mon: --port ${port}: port ${port} on 127.0.0.1 is already in use — choose another with --port <n>, or --port 0 for any free port\n`);
  });
});

describe('a foreground sandbox and mon --sandbox on one config folder', () => {
  it('never lose each other\'s writes', async () => {
    const configDir = tempConfigDir();
    const env = { MON_CONFIG_DIR: configDir, HOME: configDir };
    const url = await foreground(configDir);
    const api = async (method: string, path: string, form?: Record<string, string>) => {
      const res = await fetch(`${url}${path}${method === 'GET' ? `${path.includes('?') ? '&' : '?'}api_key=${KEY}` : ''}`, form ? { method, body: new URLSearchParams({ ...form, api_key: KEY }) } : { method });
      return { status: res.status, body: (await res.json()) as any };
    };
    const group = (await api('GET', '/v2.5/groups')).body[0].uid as string;

    // a note written by mon --sandbox (its own in-process server) is there on the foreground one
    const created = await runMon(['--sandbox', 'notes', 'create', '--group', group, '--body', 'from mon --sandbox', '-o', 'json', '-q'], { env });
    expect(created.stderr).toBe('');
    expect(created.code).toBe(0);
    const first = JSON.parse(created.stdout).uid as string;
    expect((await api('GET', `/v2.5/notes/${first}`)).body.body).toBe('from mon --sandbox');

    // the foreground's next create gets a new uid, and the first note survives it
    const second = (await api('POST', '/v2.5/notes', { 'note[group_id]': group, 'note[body]': 'from the foreground' })).body.uid as string;
    expect(second).not.toBe(first);
    const both = await runMon(['--sandbox', 'notes', 'list', '--group', group, '-o', 'json', '--all'], { env });
    const uids = (JSON.parse(both.stdout) as { uid: string }[]).map((n) => n.uid);
    expect(uids).toEqual(expect.arrayContaining([first, second]));

    // writes from both at once: every one is kept
    const results = await Promise.all([
      ...[1, 2, 3].map((i) => runMon(['--sandbox', 'notes', 'create', '--group', group, '--body', `process ${i}`, '-o', 'json', '-q'], { env })),
      ...[1, 2, 3, 4, 5].map((i) => api('POST', '/v2.5/notes', { 'note[group_id]': group, 'note[body]': `foreground ${i}` })),
    ]);
    const made = results.map((r) => ('stdout' in r ? (JSON.parse(r.stdout) as { uid: string }).uid : (r.body.uid as string)));
    expect(new Set(made).size).toBe(8);
    const all = (await api('GET', `/v2.5/notes?group=${group}&per_page=100`)).body as { uid: string }[];
    for (const uid of [first, second, ...made]) expect(all.map((n) => n.uid)).toContain(uid);
  }, 60_000);
});
