import { spawn } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startFakeApi, type FakeApi } from '../helpers/fake-api.js';
import { computer, fleetHandler, type Fleet } from '../helpers/fake-fleet.js';
import { runMain } from '../helpers/run-main.js';
import { MON_BIN, tempConfigDir } from '../helpers/run-mon.js';

/**
 * `--changes NAME` as real processes meet it: two cron jobs with one NAME at once, and Ctrl-C
 * at any moment of a run, the save included. What must hold: the state file is always whole
 * (the old one or the new one), and no temporary or lock is left behind.
 */

const KEY = 'k_changes_process_key';

interface Finished {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Spawns bin/mon; `onStart` gets the child (to signal it). */
function spawnMon(args: string[], env: Record<string, string>, onStart?: (kill: (signal: NodeJS.Signals) => void) => void): Promise<Finished> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [MON_BIN, ...args], { env: { PATH: process.env.PATH ?? '', HOME: tempConfigDir(), ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    const killer = setTimeout(() => child.kill('SIGKILL'), 30_000);
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(killer);
      resolve({ code, stdout, stderr });
    });
    onStart?.((signal) => child.kill(signal));
  });
}

async function until(condition: () => boolean, timeoutMs = 15_000): Promise<void> {
  const started = Date.now();
  while (!condition()) {
    if (Date.now() - started > timeoutMs) throw new Error('timed out waiting');
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

describe('--changes across processes', () => {
  let api: FakeApi;
  let fleet: Fleet;
  let delayMs = 0;
  let dir: string;
  let folder: string;
  let env: Record<string, string>;

  beforeAll(async () => {
    api = await startFakeApi(
      fleetHandler({ get groups() { return fleet.groups; }, get computers() { return fleet.computers; }, get expirations() { return fleet.expirations; } }, async (req) => {
        if (req.path === '/v2.5/computers' && delayMs > 0) await new Promise((resolve) => setTimeout(resolve, delayMs));
        return false;
      }),
    );
  });
  afterAll(() => api.close());
  beforeEach(() => {
    dir = tempConfigDir();
    folder = join(dir, 'changes', `@127.0.0.1_${new URL(api.url).port}`);
    env = { MON_BASE_URL: api.url, MON_API_KEY: KEY, MON_CONFIG_DIR: dir, MON_RATE_LIMIT: '100000/60' };
    fleet = { groups: [{ uid: 'g_a', slug: 'a', name: 'A' }], computers: Array.from({ length: 250 }, (_, i) => computer(i + 1, 'g_a', [], { os_version: 'v1' })), expirations: [] };
    delayMs = 0;
  });

  it('two runs with one NAME at once: the second waits for the first and compares with what it saved', async () => {
    delayMs = 400; // three pages: the first run holds the NAME for over a second
    const lock = join(folder, 'fleet.json.lock');
    const first = spawnMon(['computers', 'list', '--changes', 'fleet'], env);
    await until(() => existsSync(lock));
    const second = spawnMon(['computers', 'list', '--changes', 'fleet'], env);
    const [a, b] = await Promise.all([first, second]);
    expect(a).toEqual({ code: 0, stdout: '', stderr: "recorded 250 computers as the baseline of 'fleet'\n" });
    // Had it not waited, it would have found no state and recorded a baseline of its own.
    expect(b.code).toBe(0);
    expect(b.stdout).toBe('');
    expect(b.stderr).toMatch(/^no changes since .* \(250 computers\)\n$/);
    expect(readdirSync(folder)).toEqual(['fleet.json']);
    expect(Object.keys(JSON.parse(readFileSync(join(folder, 'fleet.json'), 'utf8')).items)).toHaveLength(250);
  });

  it('a run that cannot have the NAME within its deadline exits 1 naming the run that holds it', async () => {
    // The first run holds the NAME until it is interrupted below, however slow the machine.
    delayMs = 10_000;
    const lock = join(folder, 'fleet.json.lock');
    let holder: ((signal: NodeJS.Signals) => void) | undefined;
    const first = spawnMon(['computers', 'list', '--changes', 'fleet'], env, (kill) => (holder = kill));
    // The lock is made first and its holder's pid written into it a moment later.
    await until(() => existsSync(lock) && readFileSync(lock, 'utf8') !== '');
    const pid = readFileSync(lock, 'utf8');
    const second = await spawnMon(['computers', 'list', '--changes', 'fleet'], { ...env, MON_DEADLINE: '1' });
    expect(second.code).toBe(1);
    expect(second.stdout).toBe('');
    expect(second.stderr).toBe(
      `mon: another run with --changes fleet (${api.url}) (process ${pid}) still holds ${lock} after 1 s — let it finish and run again; a lock left by a process that was killed is taken over after 10 s\n`,
    );
    holder?.('SIGINT');
    expect((await first).code).toBe(130);
    // The interrupted first run saved nothing and left no lock.
    expect(readdirSync(folder)).toEqual([]);
  });

  it('Ctrl-C at any moment, the save included, leaves the old state or the new one: never half, a temporary or a lock', async () => {
    fleet.computers = Array.from({ length: 3_000 }, (_, i) => computer(i + 1, 'g_a', [], { os_version: 'v1' }));
    expect((await runMain(['computers', 'list', '--changes', 'fleet'], { env })).code).toBe(0);
    const file = join(folder, 'fleet.json');
    const old = readFileSync(file, 'utf8');
    for (const c of fleet.computers) c.os_version = 'v2';
    const outcomes = new Set<string>();
    // Every 30 ms from before the first request until a run gets to save: the last runs
    // interrupted came within 30 ms of the save, or in it.
    for (let after = 200; after < 10_000; after += 30) {
      const run = await spawnMon(['computers', 'list', '--changes', 'fleet', '-o', 'ndjson'], env, (kill) => setTimeout(() => kill('SIGINT'), after));
      // null: the signal came before mon had started listening for it (Node's default ends it).
      expect([0, 130, null]).toContain(run.code);
      const text = readFileSync(file, 'utf8');
      const saved = JSON.parse(text) as { values: unknown[][]; items: Record<string, number> };
      const values = Object.values(saved.items).map((at) => saved.values[at]![4]);
      const state = text === old ? 'old' : values.every((os) => os === 'v2') && values.length === 3_000 ? 'new' : 'torn';
      expect(state).not.toBe('torn');
      // Nothing printed by a run that did not save; every change printed by the one that did.
      if (state === 'old') expect(run.stdout).toBe('');
      outcomes.add(`${run.code}:${state}`);
      expect(readdirSync(folder)).toEqual(['fleet.json']);
      if (state === 'new') break;
    }
    // The sweep saw an interrupted run keep the old state, and a later run save the new one.
    expect(outcomes.has('130:old')).toBe(true);
    expect([...outcomes].some((outcome) => outcome.endsWith(':new'))).toBe(true);
  }, 120_000);
});
