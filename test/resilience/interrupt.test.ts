import { spawn } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { computersPage, hang, startFakeApi, type FakeApi } from '../helpers/fake-api.js';
import { MON_BIN, signalMon, tempConfigDir } from '../helpers/run-mon.js';
import { expectNoKey, KEY } from './support.js';
import { bound } from '../helpers/slow.js';

/**
 * Ctrl-C and SIGTERM in the middle of a long `--all`: bin/mon is spawned directly and signalled
 * once some output has arrived. It must exit 130 (143 for TERM) and leave whole records only.
 */

/** Spawns mon, sends `signal` once `ready(stdout)` holds, and collects what it printed. */
const interruptMon = (
  args: string[],
  env: Record<string, string>,
  signal: NodeJS.Signals,
  ready: (stdout: string) => boolean,
) => signalMon(args, env, [{ signal, when: ready }], 10_000);

describe('interrupts', () => {
  let api: FakeApi;
  let env: Record<string, string>;
  const pages = computersPage(2_000);

  beforeAll(async () => {
    // Pages 1 to 3 are answered (the output each case waits for) and the later ones never are:
    // the signal always lands while a request is in flight.
    api = await startFakeApi((req, res, index) =>
      Number(req.query.get('page') ?? 1) <= 3 ? pages(req, res, index) : hang(req, res, index),
    );
    env = { MON_BASE_URL: api.url, MON_API_KEY: KEY };
  });
  afterAll(() => api.close());

  // Computers are read with --order created_desc, the order the API reads them in, so that pages
  // print as they come (a full read in another order is held whole and sorted before it prints).
  it('SIGINT during --all -o ndjson: exit 130, and every line on stdout is a whole JSON object', async () => {
    const result = await interruptMon(
      ['computers', 'list', '--all', '--order', 'created_desc', '--per-page', '7', '-o', 'ndjson'],
      env,
      'SIGINT',
      (out) => out.split('\n').length > 15,
    );
    expect(result.code).toBe(130);
    expect(result.stdout.endsWith('\n')).toBe(true);
    const lines = result.stdout.slice(0, -1).split('\n');
    expect(lines.length).toBeGreaterThanOrEqual(14);
    expect(lines.length).toBeLessThan(2_000);
    lines.forEach((line, i) => expect((JSON.parse(line) as { uid: string }).uid).toBe(`c_${i + 1}`));
    expect(result.stderr).toBe('mon: interrupted\n');
    expectNoKey(result);
  });

  it('SIGTERM during --all -o csv: exit 143, a header and whole records only', async () => {
    const result = await interruptMon(
      [
        'computers',
        'list',
        '--all',
        '--order',
        'created_desc',
        '--per-page',
        '5',
        '-o',
        'csv',
        '--fields',
        'uid,computer_name',
      ],
      env,
      'SIGTERM',
      (out) => out.split('\n').length > 8,
    );
    expect(result.code).toBe(143);
    expect(result.stdout.endsWith('\n')).toBe(true);
    const [header, ...rows] = result.stdout.slice(0, -1).split('\n');
    expect(header).toBe('uid,computer_name');
    rows.forEach((row, i) => expect(row).toBe(`c_${i + 1},host-${i + 1}`));
    expect(result.stderr).toBe('mon: terminated\n');
  });

  it('SIGINT while waiting for the rate budget: exit 130 at once, not a crash', async () => {
    // A budget of 2 requests a minute: the third page waits ~60 s for its turn, unless interrupted.
    const result = await interruptMon(
      ['computers', 'list', '--all', '--order', 'created_desc', '--per-page', '3', '-o', 'ndjson'],
      { ...env, MON_RATE_LIMIT: '2/60' },
      'SIGINT',
      (out) => out.split('\n').length > 6,
    );
    expect(result.code).toBe(130);
    expect(result.stderr).toBe('mon: interrupted\n');
    expect(result.stdout.split('\n').filter(Boolean)).toHaveLength(6);
  });
});

describe('one signal ends a writer blocked on a reader that stopped reading', () => {
  let api: FakeApi;
  beforeAll(async () => {
    api = await startFakeApi(computersPage(20_000));
  });
  afterAll(() => api.close());

  it.each([
    ['SIGTERM', 143, 'mon: terminated\n'],
    ['SIGINT', 130, 'mon: interrupted\n'],
  ] as const)(
    '%s while stdout is full and nobody reads: exit %i, no second signal needed',
    async (signal, code, message) => {
      api.requests.length = 0;
      // `mon … | (sleep 15; cat)`: the reader is a process that does not read for a long while.
      const reader = spawn('sleep', ['15'], { stdio: ['pipe', 'ignore', 'ignore'] });
      const child = spawn(
        process.execPath,
        [MON_BIN, 'computers', 'list', '--all', '--order', 'created_desc', '-o', 'ndjson'],
        {
          env: {
            PATH: process.env.PATH ?? '',
            HOME: tempConfigDir(),
            MON_CONFIG_DIR: tempConfigDir(),
            MON_BASE_URL: api.url,
            MON_API_KEY: KEY,
          },
          stdio: ['ignore', reader.stdin, 'pipe'],
        },
      );
      let stderr = '';
      child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
      const killer = setTimeout(() => child.kill('SIGKILL'), bound(30_000));
      const exited = new Promise<number | null>((resolve) => child.on('close', (status) => resolve(status)));
      try {
        // Until the pipe is full and mon has stopped fetching: it is blocked on the reader.
        let seen = -1;
        while (seen !== api.requests.length || seen === 0) {
          seen = api.requests.length;
          await new Promise((resolve) => setTimeout(resolve, 400));
        }
        child.kill(signal);
        const status = await exited;
        expect(status).toBe(code);
        expect(stderr).toBe(message);
      } finally {
        clearTimeout(killer);
        reader.kill('SIGKILL');
      }
    },
  );
});
