import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startSandbox, type RunningSandbox } from '../../src/sandbox/server.js';
import { json, startFakeApi, type FakeApi } from '../helpers/fake-api.js';
import { computer, fleetHandler, result } from '../helpers/fake-fleet.js';
import { delivered, runMon, signalMon, tempConfigDir } from '../helpers/run-mon.js';
import { readAll } from '../helpers/sandbox-http.js';
import { onTerminal } from '../helpers/terminal.js';
import { SLOW } from '../helpers/slow.js';

/**
 * What only a real process shows about `plugin mute` with selectors: Ctrl-C in the middle and a
 * second run that finishes the work, and the question and the meter on a terminal.
 */

type Item = Record<string, unknown>;

describe('plugin mute with selectors, as a process', () => {
  let sandbox: RunningSandbox;
  let env: Record<string, string>;
  /** The uids PUT to, in order. */
  const puts = () =>
    sandbox.requests.filter((r) => r.method === 'PUT').map((r) => r.path.replace('/v2.5/plugin_results/', ''));
  const unmutedOk = async () => {
    const computers = await readAll(sandbox, '/v2.5/computers?expand[]=plugin_results');
    return computers
      .flatMap((c) => c.plugin_results as Item[])
      .filter((r) => r.status === 'OK' && r.muted !== true && r.visible !== false)
      .map((r) => String(r.uid))
      .sort();
  };

  beforeEach(async () => {
    sandbox = await startSandbox({ port: 0 });
    env = { MON_BASE_URL: sandbox.url, MON_API_KEY: sandbox.apiKey };
  });
  afterEach(() => sandbox.close());

  it('Ctrl-C stops sending, says how many were muted, exits 130; the same command again mutes only the rest, none twice', async () => {
    const want = await unmutedOk();
    expect(want.length).toBeGreaterThan(40);
    const args = ['plugin', 'mute', '--status', 'OK', '--timed', '2h', '--yes', '-o', 'ndjson'];
    // 10 requests a second: the run takes seconds, so the signal lands while it sends.
    const first = await signalMon(args, { ...env, MON_RATE_LIMIT: '10/1' }, [
      { signal: 'SIGINT', when: () => puts().length >= 15 },
    ]);
    expect(first.code).toBe(130);
    const sentFirst = puts();
    expect(sentFirst.length).toBeLessThan(want.length);
    const lines = first.stderr.trimEnd().split('\n');
    expect(lines[0]).toMatch(
      new RegExp(`^mute ${want.length} plugin results on \\d+ computers in \\d+ groups for 2h \\(until .+\\)`),
    );
    const done = /^mon: (\d+) of (\d+) muted; run the same command again to finish$/.exec(lines.at(-1)!);
    expect(done).not.toBeNull();
    expect(Number(done![2])).toBe(want.length);
    // What it counts is what it printed, each a whole row: every PUT sent, those in flight at
    // Ctrl-C let finish.
    const rows = first.stdout
      .split('\n')
      .filter(Boolean)
      .map((line) => JSON.parse(line) as Item);
    expect(rows).toHaveLength(Number(done![1]));
    expect(rows.every((row) => row.outcome === 'muted')).toBe(true);
    expect(Number(done![1])).toBe(sentFirst.length);

    sandbox.requests.length = 0;
    const second = await runMon(args, { env });
    expect(second.code).toBe(0);
    const sentSecond = puts();
    // Together every selected result exactly once: the second run found only what was left.
    expect([...sentFirst, ...sentSecond].sort()).toEqual(want);
    // In a pipe, stderr has the plan and the summary only: no progress.
    const already = sentFirst.length;
    expect(second.stderr).toBe(`${second.stderr.split('\n')[0]}\nmuted ${sentSecond.length} plugin results\n`);
    expect(second.stderr.split('\n')[0]).toMatch(
      new RegExp(`^mute ${sentSecond.length} plugin results .*; ${already} more are muted already$`),
    );
    expect(await unmutedOk()).toEqual([]);
  });
  it('on a terminal: the plan, a y/N question, a meter with done/total, rate and time left; N sends nothing', async () => {
    const uids = (await unmutedOk()).slice(0, 12);
    const file = join(tempConfigDir(), 'uids.txt');
    writeFileSync(file, `${uids.join('\n')}\n`);
    sandbox.requests.length = 0;
    const declined = await onTerminal(['plugin', 'mute', '--from', file, '--ignore'], env, 'n\r');
    expect(declined.code).toBe(1);
    expect(declined.screen).toContain('mute 12 plugin results on');
    expect(declined.screen).toContain('Mute these 12 plugin results? [y/N]');
    expect(declined.screen).toContain('mon: nothing muted: not confirmed');
    expect(puts()).toEqual([]);

    // 4 requests a second: long enough for the meter, which shows after a second.
    const accepted = await onTerminal(
      ['plugin', 'mute', '--from', file, '--ignore'],
      { ...env, MON_RATE_LIMIT: '4/1' },
      'y\r',
    );
    expect(accepted.code).toBe(0);
    expect(puts().sort()).toEqual(uids);
    expect(accepted.screen).toMatch(/muting \[[#-]{20}\] \d+\/12 {2}\d+\.\d\/s {2}(\d+:\d\d left|time left unknown)/);
    expect(accepted.screen).toContain('muted 12 plugin results');
  });
});

/** Ctrl-C once `when` holds, and again once the next condition does. */
const interrupted = (
  args: readonly string[],
  env: Record<string, string>,
  when: ((stdout: string, pid: number) => boolean)[],
) =>
  signalMon(
    args,
    env,
    when.map((condition) => ({ signal: 'SIGINT' as const, when: condition })),
  );

describe('Ctrl-C during a bulk mute, against a slow server that counts what it applied', () => {
  const KEY = 'k_slow_put_test_key_0123456789';
  const groups = [{ uid: 'g_a', slug: 'alpha', name: 'Alpha' }];
  // 24 unmuted results on 6 computers.
  const computers = Array.from({ length: 6 }, (_, i) =>
    computer(
      i + 1,
      'g_a',
      Array.from({ length: 4 }, (_, j) => result(`pr_${i + 1}_${j + 1}`, `Plugin ${j + 1}`, 'Alert')),
    ),
  );
  let api: FakeApi;
  let received: string[];
  let applied: string[];
  /** The PUTs the server holds: when each is due, to wait for or to drop. */
  let pending: Map<NodeJS.Timeout, Promise<void>>;
  /** How long a PUT takes the server before it applies it and answers (whether or not the client still listens). */
  let putDelayMs: number;

  beforeEach(async () => {
    received = [];
    applied = [];
    pending = new Map();
    putDelayMs = 700;
    api = await startFakeApi(
      fleetHandler({ groups, computers, expirations: [] }, (req, res) => {
        if (req.method !== 'PUT') return false;
        const uid = req.path.split('/').at(-1)!;
        received.push(uid);
        let timer!: NodeJS.Timeout;
        const work = new Promise<void>((done) => {
          timer = setTimeout(() => {
            applied.push(uid);
            if (!res.destroyed)
              json(res, 200, { ...result(uid, 'Plugin', 'Alert'), muted: true, mute_type: 'ignored' });
            pending.delete(timer);
            done();
          }, putDelayMs);
        });
        pending.set(timer, work);
        return true;
      }),
    );
  });
  afterEach(async () => {
    for (const timer of pending.keys()) clearTimeout(timer);
    await api.close();
  });

  const args = ['plugin', 'mute', '--group', 'Alpha', '--ignore', '--yes', '-o', 'ndjson'];
  const env = () => ({ MON_BASE_URL: api.url, MON_API_KEY: KEY });

  it('lets the PUTs in flight finish, starts no new one, and counts what the server applied', async () => {
    // The signal lands while the second four are on the server: four applied, four in flight.
    const run = await interrupted(args, env(), [() => received.length >= 8]);
    await Promise.all(pending.values());
    expect(run.code).toBe(130);
    const done = /^mon: (\d+) of 24 muted; run the same command again to finish$/m.exec(run.stderr);
    expect(done, run.stderr).not.toBeNull();
    // What mon says it muted is what the server applied: none cut off, none started after Ctrl-C.
    expect(Number(done![1])).toBe(applied.length);
    expect(received.sort()).toEqual(applied.sort());
    expect(applied.length).toBeGreaterThanOrEqual(8);
    expect(applied.length).toBeLessThan(24);
    const rows = run.stdout
      .split('\n')
      .filter(Boolean)
      .map((line) => JSON.parse(line) as Item);
    expect(rows.map((row) => row.uid).sort()).toEqual(applied.sort());
    expect(rows.every((row) => row.outcome === 'muted')).toBe(true);
    expect(run.stderr).not.toContain(KEY);
  });
  it('waits for PUTs that hang past the first Ctrl-C; a second one ends it: exit 130, none counted', async () => {
    putDelayMs = 60_000;
    // The second signal once the first has reached the process (two pending at once would be one).
    const run = await interrupted(args, env(), [
      () => received.length >= 4,
      (_stdout, pid) => delivered(pid, 'SIGINT'),
    ]);
    expect(run.sentAt).toHaveLength(2);
    expect(run.code).toBe(130);
    expect(received).toHaveLength(4);
    expect(run.stderr).toMatch(/^mon: 0 of 24 muted; run the same command again to finish$/m);
  });
  it('MON_DEADLINE ends the wait for PUTs that hang after one Ctrl-C: exit 130', async () => {
    putDelayMs = 60_000;
    // The deadline must pass after the Ctrl-C (else it is exit 8, rightly): ten seconds leave a
    // busy machine the time to start mon and send four PUTs first.
    const run = await interrupted(args, { ...env(), MON_DEADLINE: String(10 * SLOW) }, [() => received.length >= 4]);
    expect(run.code).toBe(130);
    expect(received).toHaveLength(4);
    // Cut off by the deadline, each PUT is reported (it may or may not have been applied).
    expect(run.stderr).toMatch(/^mon: 0 of 24 muted \(4 failed\); run the same command again to finish$/m);
    const rows = run.stdout
      .split('\n')
      .filter(Boolean)
      .map((line) => JSON.parse(line) as Item);
    expect(rows).toHaveLength(4);
    for (const row of rows)
      expect(row).toMatchObject({ outcome: 'failed', reason: expect.stringContaining('deadline') });
  });
});
