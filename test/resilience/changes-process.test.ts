import { spawn } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, utimesSync, watch, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startFakeApi, type FakeApi } from '../helpers/fake-api.js';
import { computer, fleetHandler, type Fleet } from '../helpers/fake-fleet.js';
import { runMain } from '../helpers/run-main.js';
import { MON_BIN, tempConfigDir } from '../helpers/run-mon.js';
import { bound, waitFor } from '../helpers/slow.js';

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
function spawnMon(
  args: string[],
  env: Record<string, string>,
  onStart?: (kill: (signal: NodeJS.Signals) => void) => unknown,
): Promise<Finished> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [MON_BIN, ...args], {
      env: { PATH: process.env.PATH ?? '', HOME: tempConfigDir(), ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    const killer = setTimeout(() => child.kill('SIGKILL'), bound(30_000));
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

const until = (condition: () => boolean): Promise<void> => waitFor(condition, 'the run to reach its step');

describe('--changes across processes', () => {
  let api: FakeApi;
  let fleet: Fleet;
  let delayMs = 0;
  /** Awaited before a request is answered: a test holds one there. */
  let hold: ((req: { path: string }) => Promise<void>) | undefined;
  let dir: string;
  let folder: string;
  let env: Record<string, string>;

  beforeAll(async () => {
    api = await startFakeApi(
      fleetHandler(
        {
          get groups() {
            return fleet.groups;
          },
          get computers() {
            return fleet.computers;
          },
          get expirations() {
            return fleet.expirations;
          },
        },
        async (req) => {
          if (req.path === '/v2.5/computers' && delayMs > 0)
            await new Promise((resolve) => setTimeout(resolve, delayMs));
          await hold?.(req);
          return false;
        },
      ),
    );
  });
  afterAll(() => api.close());
  beforeEach(() => {
    dir = tempConfigDir();
    folder = join(dir, 'changes', `@127.0.0.1_${new URL(api.url).port}`);
    env = { MON_BASE_URL: api.url, MON_API_KEY: KEY, MON_CONFIG_DIR: dir, MON_RATE_LIMIT: '100000/60' };
    fleet = {
      groups: [{ uid: 'g_a', slug: 'a', name: 'A' }],
      computers: Array.from({ length: 250 }, (_, i) => computer(i + 1, 'g_a', [], { os_version: 'v1' })),
      expirations: [],
    };
    delayMs = 0;
    hold = undefined;
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

  /**
   * The moments that matter to the saved state, each reached on purpose rather than by sweeping
   * the clock: before the save (a page still coming), in it (a writer killed between its
   * temporary and the rename), and after the rename. 3,000 computers, all changed since the
   * baseline: a state torn between the two would show both versions.
   */
  describe('an interrupt leaves the old state or the new one: never half, a temporary or a lock', () => {
    let file: string;
    let old: string;
    /** Whether the saved state is the baseline, the new one, or anything else. */
    const stateNow = () => {
      const text = readFileSync(file, 'utf8');
      const saved = JSON.parse(text) as { values: unknown[][]; items: Record<string, number> };
      const values = Object.values(saved.items).map((at) => saved.values[at]![4]);
      return text === old ? 'old' : values.length === 3_000 && values.every((os) => os === 'v2') ? 'new' : 'torn';
    };
    /** A run after the interrupted one: it finds the old state, prints every change and saves the new one. */
    const runsOn = async () => {
      const next = await spawnMon(['computers', 'list', '--changes', 'fleet', '-o', 'ndjson'], env);
      expect(next.code, next.stderr).toBe(0);
      expect(next.stdout.trim().split('\n')).toHaveLength(3_000);
      expect(stateNow()).toBe('new');
      expect(readdirSync(folder)).toEqual(['fleet.json']);
    };

    /** Dates what a killed run left beside the state (its lock, its temporary) a minute back. */
    const leftAMinuteAgo = () => {
      const minuteAgo = new Date(Date.now() - 60_000);
      for (const name of readdirSync(folder))
        if (name !== 'fleet.json') utimesSync(join(folder, name), minuteAgo, minuteAgo);
    };

    beforeEach(async () => {
      fleet.computers = Array.from({ length: 3_000 }, (_, i) => computer(i + 1, 'g_a', [], { os_version: 'v1' }));
      expect((await runMain(['computers', 'list', '--changes', 'fleet'], { env })).code).toBe(0);
      file = join(folder, 'fleet.json');
      old = readFileSync(file, 'utf8');
      for (const c of fleet.computers) c.os_version = 'v2';
    });

    it('before the save, while a page is still coming: exit 130, nothing printed, the old state', async () => {
      // The second page is held until the run has been interrupted.
      let reached!: () => void;
      const atSecondPage = new Promise<void>((resolve) => (reached = resolve));
      let release!: () => void;
      const released = new Promise<void>((resolve) => (release = resolve));
      let pages = 0;
      hold = async (req) => {
        if (req.path !== '/v2.5/computers' || ++pages !== 2) return;
        reached();
        await released;
      };
      const run = spawnMon(['computers', 'list', '--changes', 'fleet', '-o', 'ndjson'], env, async (kill) => {
        await atSecondPage;
        kill('SIGINT');
      });
      const interrupted = await run;
      release();
      expect(interrupted.code).toBe(130);
      expect(interrupted.stdout).toBe('');
      expect(stateNow()).toBe('old');
      expect(readdirSync(folder)).toEqual(['fleet.json']);
      await runsOn();
    });

    it('in the save, a writer killed before its rename: the old state stands, and the next run clears what it left', async () => {
      // What SIGKILL between the temporary's write and the rename leaves: half a temporary
      // beside the state, and the lock of a process that is gone (its time 60 s ago).
      const temporary = join(folder, `fleet.json.999999.${Date.now().toString(36)}.tmp`);
      writeFileSync(temporary, old.replaceAll('v1', 'v2').slice(0, old.length / 2), { mode: 0o600 });
      writeFileSync(join(folder, 'fleet.json.lock'), '999999');
      leftAMinuteAgo();
      expect(stateNow()).toBe('old');
      await runsOn();
    });

    it('in the save, killed with SIGKILL as its temporary appears: the old state or the new one, and the next run goes on', async () => {
      let killRun!: (signal: NodeJS.Signals) => void;
      const watcher = watch(folder, (_event, name) => {
        if (typeof name === 'string' && name.endsWith('.tmp')) killRun('SIGKILL');
      });
      try {
        const run = await spawnMon(
          ['computers', 'list', '--changes', 'fleet', '-o', 'ndjson'],
          env,
          (kill) => (killRun = kill),
        );
        // Killed in its save, or just after the rename if the kill came late: never a third state.
        expect([null, 0]).toContain(run.code);
        expect(['old', 'new']).toContain(stateNow());
      } finally {
        watcher.close();
      }
      if (stateNow() === 'old') {
        // Its lock and temporary are taken over once untouched for a while: as if a minute had passed.
        leftAMinuteAgo();
        await runsOn();
      }
    });

    it('after the rename: the run ends with every change printed, the new state, and nothing left beside it', async () => {
      let killRun!: (signal: NodeJS.Signals) => void;
      const watcher = watch(folder, (_event, name) => {
        if (name === 'fleet.json' && stateNow() === 'new') killRun('SIGINT');
      });
      try {
        const run = await spawnMon(
          ['computers', 'list', '--changes', 'fleet', '-o', 'ndjson'],
          env,
          (kill) => (killRun = kill),
        );
        expect([0, 130]).toContain(run.code);
        expect(run.stdout.trim().split('\n')).toHaveLength(3_000);
        expect(stateNow()).toBe('new');
        expect(readdirSync(folder)).toEqual(['fleet.json']);
      } finally {
        watcher.close();
      }
    });
  });
});
