import { spawn, type ChildProcess } from 'node:child_process';
import { closeSync, openSync, readdirSync, readlinkSync, writeFileSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { apiError, startFakeApi, type FakeApi } from '../helpers/fake-api.js';
import { MON_BIN, runMon, tempConfigDir, tempDir } from '../helpers/run-mon.js';
import { bound, waitFor } from '../helpers/slow.js';

/**
 * Every read of user input (`--from FILE|-`, `--body-file FILE|-`, `--api-key-stdin`) ends
 * within a moment of SIGINT or SIGTERM and at MON_DEADLINE, and stops at its bounds with a
 * message that says why; bin/mon is spawned, as only a real process shows signals and exit codes.
 */

const KEY = 'k_live_Zq81mXv4Tn0pRw7yLc3bHd5s9Fg2Jk6';

interface Ended {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

/** Spawns mon with stdin as given (a pipe left open unless the test ends it). */
function start(
  args: readonly string[],
  env: Record<string, string>,
  stdin: 'pipe' | number = 'pipe',
): { child: ChildProcess; ended: Promise<Ended> } {
  const child = spawn(process.execPath, [MON_BIN, ...args], {
    env: { PATH: process.env.PATH ?? '', HOME: tempConfigDir(), MON_CONFIG_DIR: tempConfigDir(), ...env },
    stdio: [stdin, 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout!.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
  child.stderr!.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  // The bound of a hang: a run still going after this is killed and fails the test.
  const killer = setTimeout(() => child.kill('SIGKILL'), bound(30_000));
  const ended = new Promise<Ended>((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (code, signal) => {
      clearTimeout(killer);
      resolve({ code, signal, stdout, stderr });
    });
  });
  return { child, ended };
}

/** Resolves once the process holds `path` open: it is reading it. */
async function opened(pid: number, path: string): Promise<void> {
  const holds = () => {
    try {
      return readdirSync(`/proc/${pid}/fd`).some((fd) => safeLink(`/proc/${pid}/fd/${fd}`) === path);
    } catch {
      return false; // the process is still starting (or has ended: the test's assertions say so)
    }
  };
  await waitFor(holds, `${path} to be opened`);
}

function safeLink(path: string): string | undefined {
  try {
    return readlinkSync(path);
  } catch {
    return undefined;
  }
}

describe('user input', () => {
  let api: FakeApi;
  let env: Record<string, string>;
  let dir: string;

  beforeAll(async () => {
    api = await startFakeApi((_req, res) => apiError(res, 500, 'not expected'));
    env = { MON_BASE_URL: api.url, MON_API_KEY: KEY };
  });
  afterAll(() => api.close());
  beforeEach(() => {
    api.requests.length = 0;
    dir = tempDir('mon-input-');
  });

  /** A named pipe nobody writes to. */
  const fifo = (): string => {
    const path = join(dir, 'uids');
    execFileSync('mkfifo', [path]);
    return path;
  };

  it.each([
    ['--body-file', ['notes', 'create', '--computer', 'c_1', '--body-file', '@']],
    ['--from', ['plugin', 'mute', '--from', '@', '--ignore', '--yes']],
  ])('%s with bytes that are not UTF-8: exit 2, nothing sent (not U+FFFD in their place)', async (option, args) => {
    const path = join(dir, 'latin1.txt');
    writeFileSync(path, Buffer.from([0x70, 0x72, 0x5f, 0xe9, 0x0a]));
    const result = await runMon(
      args.map((arg) => (arg === '@' ? path : arg)),
      { env },
    );
    expect(result.code).toBe(2);
    expect(result.stderr).toBe(
      `mon: ${option}: '${path}' is not UTF-8 text (5 bytes read); nothing was sent — save it as UTF-8 (e.g. iconv -t UTF-8); ${option === '--from' ? 'give one plugin result uid (pr_…) a line, or the lines of `mon alerts -o ndjson`' : 'give a file of the note text, or - for standard input'}\n`,
    );
    expect(api.requests).toEqual([]);
  });

  it("MON_CONFIG_DIR='~/x' (a ~ no shell expanded) is exit 2; a relative folder is taken from the current one", async () => {
    const tilde = await runMon(['profile', 'list'], { env: { MON_CONFIG_DIR: '~/x' } });
    expect(tilde).toMatchObject({
      code: 2,
      stdout: '',
      stderr: `mon: MON_CONFIG_DIR: '~/x' starts with ~, which no shell expanded here — give the full path, e.g. MON_CONFIG_DIR="$HOME/.config/mon"\n`,
    });
    const added = await runMon(['profile', 'add', 'acme', '--base-url', 'http://127.0.0.1:9', '--api-key-stdin'], {
      env: { MON_CONFIG_DIR: 'relative-config' },
      input: KEY,
      cwd: dir,
    });
    expect(added.code).toBe(0);
    const shown = await runMon(['profile', 'show', '--json'], { env: { MON_CONFIG_DIR: 'relative-config' }, cwd: dir });
    expect(JSON.parse(shown.stdout)).toMatchObject({
      name: 'acme',
      config_file: join(dir, 'relative-config', 'config.json'),
    });
  });

  describe('a named pipe with no writer', () => {
    it.each([
      ['SIGINT', 130, ['plugin', 'mute', '--from', '@', '--ignore', '--yes']],
      ['SIGTERM', 143, ['plugin', 'mute', '--from', '@', '--ignore', '--yes']],
      ['SIGTERM', 143, ['notes', 'create', '--computer', 'c_1', '--body-file', '@']],
    ] as const)(
      '%s while mon waits for it (%i, %j): ends at once (within 3 s, however busy the machine)',
      async (signal, code, args) => {
        const path = fifo();
        const run = start(
          args.map((arg) => (arg === '@' ? path : arg)),
          env,
        );
        await opened(run.child.pid!, path);
        run.child.kill(signal);
        const result = await run.ended;
        expect(result.signal).toBeNull();
        expect(result.code).toBe(code);
        expect(result.stderr).toBe(signal === 'SIGINT' ? 'mon: interrupted\n' : 'mon: terminated\n');
        expect(api.requests).toEqual([]);
      },
    );

    it('MON_DEADLINE ends the wait: exit 8', async () => {
      const result = await start(['plugin', 'mute', '--from', fifo(), '--ignore', '--yes'], {
        ...env,
        MON_DEADLINE: '1',
      }).ended;
      expect(result.code).toBe(8);
      expect(result.stderr).toBe(
        'mon: the command did not finish within its deadline of 1 s — raise MON_DEADLINE (seconds) if it needs longer\n',
      );
    });

    it('is read once a writer comes', async () => {
      const path = fifo();
      const run = start(['plugin', 'mute', '--from', path, '--ignore', '--yes'], env);
      await opened(run.child.pid!, path);
      const writer = openSync(path, 'w');
      writeFileSync(writer, 'c_1\n');
      closeSync(writer);
      const result = await run.ended;
      expect(result.code).toBe(2);
      expect(result.stderr).toMatch(/^mon: --from: line 1 of '[^']+' \(3 characters\) does not start with pr_ — /);
    });
  });

  describe('standard input that stays open', () => {
    it('SIGINT while `--from -` reads it: exit 130 at once', async () => {
      const run = start(['plugin', 'mute', '--from', '-', '--ignore', '--yes'], env);
      // More than a pipe holds: the write ends only once mon is reading.
      await new Promise<void>((resolve) => run.child.stdin!.write('pr_abc\n'.repeat(40_000), () => resolve()));
      run.child.kill('SIGINT');
      const result = await run.ended;
      expect(result.code).toBe(130);
      expect(result.stderr).toBe('mon: interrupted\n');
      expect(api.requests).toEqual([]);
    });

    // Each waits for its deadline on the wall clock (a process's own): the three wait at once.
    it.concurrent.each([
      [['plugin', 'mute', '--from', '-', '--ignore', '--yes']],
      [['notes', 'create', '--computer', 'c_1', '--body-file', '-']],
      [['profile', 'add', 'acme', '--subdomain', 'acme', '--domain', 'example.com', '--api-key-stdin']],
    ])('MON_DEADLINE ends `%s`: exit 8', async (args) => {
      const result = await start(args, { ...env, MON_DEADLINE: '1' }).ended;
      expect(result.code).toBe(8);
      expect(result.stderr).toContain('mon: the command did not finish within its deadline of 1 s');
    });
  });

  describe('bounds', () => {
    it('--from /dev/zero stops after its first MiB: exit 2, saying why', async () => {
      const result = await start(['plugin', 'mute', '--from', '/dev/zero', '--ignore', '--yes'], env).ended;
      expect(result.code).toBe(2);
      expect(result.stderr).toBe(
        "mon: --from: line 1 of '/dev/zero' is longer than 1 MiB, the most a line may be; stopped reading there — give one plugin result uid (pr_…) a line, or the lines of `mon alerts -o ndjson`\n",
      );
      expect(api.requests).toEqual([]);
    });

    it('--from - with /dev/zero as standard input: the same', async () => {
      const zero = openSync('/dev/zero', 'r');
      try {
        const result = await start(['plugin', 'mute', '--from', '-', '--ignore', '--yes'], env, zero).ended;
        expect(result.code).toBe(2);
        expect(result.stderr).toMatch(
          /^mon: --from: line 1 of stdin is longer than 1 MiB, the most a line may be; stopped reading there — /,
        );
      } finally {
        closeSync(zero);
      }
    });

    it('--body-file /dev/zero stops at 64 MiB, more than a note body may be', async () => {
      const result = await start(['notes', 'create', '--computer', 'c_1', '--body-file', '/dev/zero'], env).ended;
      expect(result.code).toBe(2);
      expect(result.stderr).toBe(
        "mon: --body-file: '/dev/zero' holds more than 64 MiB, so more than the 16777215 characters a note body may be; stopped reading there — give a file of the note text, or - for standard input\n",
      );
      expect(api.requests).toEqual([]);
    });

    it('--api-key-stdin takes at most 4 KiB', async () => {
      const result = await runMon(
        ['profile', 'add', 'acme', '--subdomain', 'acme', '--domain', 'example.com', '--api-key-stdin'],
        { input: 'k'.repeat(5_000) },
      );
      expect(result.code).toBe(2);
      expect(result.stderr).toBe(
        'mon: --api-key-stdin: stdin holds more than 4 KiB, the most an API key may be; stopped reading there — pipe in the key alone\n',
      );
    });
  });
});
