// bin/load-bundle.cjs keeps the bundle's compiled code between runs. A cache is code this
// process runs: these tests hold the rules that keep it safe (whose folder, written whole, what
// V8 refuses), not how much faster it is (`npm run bench` measures that).
import { spawnSync } from 'node:child_process';
import {
  chmodSync,
  chownSync,
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { computersPage, json, startFakeApi, type FakeApi } from '../helpers/fake-api.js';
import { runMon } from '../helpers/run-mon.js';
import { asRoot } from '../helpers/programs.js';
import { waitFor } from '../helpers/slow.js';

const root = fileURLToPath(new URL('../../', import.meta.url));
/** The name bin/load-bundle.cjs gives the cache of this file of dist/ (the bundle unless named) on this Node. */
const cacheName = (file = 'mon.cjs') => {
  const hash = /^\/\/ mon build ([0-9a-f]+)\n/.exec(readFileSync(join(root, 'dist', file), 'utf8').slice(0, 96))?.[1];
  expect(hash, `the build stamps dist/${file} with its hash`).toBeDefined();
  return `mon-${process.version}-${process.arch}-${hash}.cache`;
};
/** The cache of the --jq worker's file, jq-wasm's loader inside (bin/jq-worker.cjs). */
const workerCacheName = () => cacheName('jq-worker.cjs');
/** How many runs took the cache and added to it: its first byte (1 for a fresh one). */
const runsIn = (file: string) => readFileSync(file)[0];
const AS_ROOT = asRoot('test/perf/code-cache.test.ts');
/**
 * mon's files in a cache folder. Node 22 and later also keep a compile cache of their own in
 * NODE_COMPILE_CACHE (a folder named after the Node version), for bin/mon's own small files:
 * Node's doing, not mon's, and not what these tests hold.
 */
const monFiles = (dir: string) => (existsSync(dir) ? readdirSync(dir).filter((name) => name.startsWith('mon-')) : []);

describe('the code cache of the bundle', () => {
  let api: FakeApi;
  let dirs: string[] = [];
  const freshDir = () => {
    const dir = mkdtempSync(join(tmpdir(), 'mon-code-cache-test-'));
    dirs.push(dir);
    return dir;
  };
  const list = (env: Record<string, string>) =>
    runMon(['computers', 'list', '--json'], { env: { MON_BASE_URL: api.url, MON_API_KEY: 'k_cache_test', ...env } });

  /** A one-request run in `dir` takes the cache and adds what it compiled: the file then counts `runs`. */
  const nextRunAdds = async (dir: string, file: string, runs: number) => {
    expect((await list({ NODE_COMPILE_CACHE: dir })).code).toBe(0);
    expect(runsIn(file)).toBe(runs);
  };

  beforeAll(async () => {
    api = await startFakeApi(computersPage(20));
  });
  afterAll(async () => {
    await api.close();
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
    dirs = [];
  });

  it('is written after a run, named by Node version and bundle hash, and the next run takes it (one request included)', async () => {
    const dir = join(freshDir(), 'cache');
    expect((await list({ NODE_COMPILE_CACHE: dir })).code).toBe(0);
    const file = join(dir, cacheName());
    expect(monFiles(dir)).toEqual([cacheName()]);
    // The folder's mode is the default folder's test: Node 22 and later make a NODE_COMPILE_CACHE
    // folder themselves, before mon does.
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(runsIn(file)).toBe(1);
    // Taken by the next run (V8 checks the flags it was made under: what a request changed is
    // back to the default), which adds what it compiled.
    await nextRunAdds(dir, file, 2);
    expect(monFiles(dir).filter((name) => name.endsWith('.partial'))).toEqual([]);
  });

  it.each([
    [
      '-o ndjson',
      ['--per-page', '5', '-o', 'ndjson'],
      40,
      (stdout: string) => expect(stdout.trim().split('\n')).toHaveLength(40),
    ],
    // With --all, the jq worker leaves V8's flags alone (EngineOptions.longInput), so nothing keeps the cache from being written then.
    ['--jq', ['--per-page', '2', '--jq', 'length'], 20, (stdout: string) => expect(stdout).toBe('20\n')],
  ] as const)(
    'a run of many requests (--all %s) writes it once its work has run once (the fifth request), under the flags the next run starts with',
    async (_label, args, total, printed) => {
      const dir = join(freshDir(), 'cache');
      const file = join(dir, cacheName());
      // Pages past the fifth are answered only once the cache is there (or after 10 s, and the test
      // fails): it is written once the command has run its work once, as the fifth request starts,
      // not after the whole walk, and after the tier-up budget the first request raised is back
      // (src/api/undici.ts).
      const pages = computersPage(total);
      let writtenBeforePage6 = false;
      const paced = await startFakeApi(async (req, res, index) => {
        if (Number(req.query.get('page')) > 5) {
          await waitFor(() => existsSync(file), 'the code cache').catch(() => undefined);
          if (req.query.get('page') === '6') writtenBeforePage6 = existsSync(file);
        }
        return pages(req, res, index);
      });
      try {
        const all = await runMon(['computers', 'list', '--all', ...args], {
          env: { MON_BASE_URL: paced.url, MON_API_KEY: 'k_cache_test', NODE_COMPILE_CACHE: dir },
        });
        expect(all.code).toBe(0);
        printed(all.stdout);
      } finally {
        await paced.close();
      }
      expect(writtenBeforePage6).toBe(true);
      expect(runsIn(file)).toBe(1);
      // Taken by the next run: V8 refuses a cache made under other flags, and this one would then be 1 again.
      await nextRunAdds(dir, file, 2);
    },
  );

  it('a --jq run writes it too (its worker put back the flag it raised), and the next run takes it', async () => {
    const dir = join(freshDir(), 'cache');
    const file = join(dir, cacheName());
    const jq = await runMon(['computers', 'list', '--jq', 'length'], {
      env: { MON_BASE_URL: api.url, MON_API_KEY: 'k_cache_test', NODE_COMPILE_CACHE: dir },
    });
    expect(jq.code).toBe(0);
    expect(jq.stdout).toBe('20\n');
    expect(runsIn(file)).toBe(1);
    await nextRunAdds(dir, file, 2);
  });

  it("the --jq worker's file is cached as well, in the same folder, and the next run takes it", async () => {
    const jq = (env: Record<string, string>) =>
      runMon(['computers', 'list', '--jq', 'length'], {
        env: { MON_BASE_URL: api.url, MON_API_KEY: 'k_cache_test', ...env },
      });
    const dir = join(freshDir(), 'cache');
    const file = join(dir, workerCacheName());
    const first = await jq({ NODE_COMPILE_CACHE: dir });
    expect(first.code).toBe(0);
    expect(first.stdout).toBe('20\n');
    expect(monFiles(dir).sort()).toEqual([cacheName(), workerCacheName()].sort());
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(runsIn(file)).toBe(1);
    // Taken by the worker of the next run (V8 checks the flags it was made under), which adds to it.
    expect((await jq({ NODE_COMPILE_CACHE: dir })).stdout).toBe('20\n');
    expect(runsIn(file)).toBe(2);
    // The worker, which has none of mon's environment, finds the folder the main thread uses…
    const tmp = freshDir();
    expect((await jq({ TMPDIR: tmp })).code).toBe(0);
    const byDefault = join(tmp, `mon-code-cache-${process.getuid?.() ?? ''}`.replace(/-$/, ''));
    expect(monFiles(byDefault)).toContain(workerCacheName());
    // …and is told when there is to be none.
    const none = join(freshDir(), 'cache');
    const off = await jq({ NODE_COMPILE_CACHE: none, NODE_DISABLE_COMPILE_CACHE: '1' });
    expect(off.stdout).toBe('20\n');
    expect(existsSync(none)).toBe(false);
  });

  it('a --jq run of many requests, whose worker had the flags changed when its work had run once, writes one only where there is none', async () => {
    const dir = join(freshDir(), 'cache');
    const file = join(dir, cacheName());
    // `alerts` reads every page of computers (five of 100, after the groups) with no --all on its
    // command line, so its jq worker keeps V8's flags changed while jq reads (EngineOptions): at
    // the fifth request, the point where a cache is written, the run can only write at its end.
    const pages = computersPage(450);
    const account = await startFakeApi((req, res, index) =>
      req.path === '/v2.5/groups'
        ? json(res, 200, [], { 'x-total': '0', 'x-total-pages': '0' })
        : pages(req, res, index),
    );
    try {
      const env = { MON_BASE_URL: account.url, MON_API_KEY: 'k_cache_test', NODE_COMPILE_CACHE: dir };
      const alertsJq = () => runMon(['alerts', '--jq', 'length'], { env });
      const first = await alertsJq();
      expect(first.code).toBe(0);
      expect(first.stdout).toBe('0\n');
      expect(account.requests.length).toBeGreaterThan(5);
      // No cache yet: one made at the end is still better than compiling the bundle every run.
      expect(runsIn(file)).toBe(1);
      await nextRunAdds(dir, file, 2);
      const written = readFileSync(file);
      // A cache taken: the late run leaves it as it was (it would add its hot loops' decisions to it).
      const second = await alertsJq();
      expect(second.code).toBe(0);
      expect(second.stdout).toBe('0\n');
      expect(readFileSync(file).equals(written)).toBe(true);
      // A one-request run still adds to it.
      await nextRunAdds(dir, file, 3);
    } finally {
      await account.close();
    }
  });

  it('one that V8 rejects is ignored and replaced', async () => {
    const dir = freshDir();
    chmodSync(dir, 0o700);
    const file = join(dir, cacheName());
    writeFileSync(file, Buffer.concat([Buffer.of(3), Buffer.alloc(4096, 0x5a)]), { mode: 0o600 });
    const result = await list({ NODE_COMPILE_CACHE: dir });
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout)).toHaveLength(20);
    expect(runsIn(file)).toBe(1);
    expect(statSync(file).size).toBeGreaterThan(4097);
  });

  it('is neither read nor written in a folder others may write', async () => {
    const dir = freshDir();
    chmodSync(dir, 0o777);
    const file = join(dir, cacheName());
    const planted = Buffer.concat([Buffer.of(1), Buffer.alloc(4096, 0x5a)]);
    writeFileSync(file, planted);
    expect((await list({ NODE_COMPILE_CACHE: dir })).code).toBe(0);
    expect(readFileSync(file)).toEqual(planted);
    expect(monFiles(dir)).toEqual([cacheName()]);
  });

  it.runIf(AS_ROOT)(
    'is neither read nor written in a folder of another user, nor from a file of another user',
    async () => {
      const theirs = freshDir();
      chmodSync(theirs, 0o700);
      chownSync(theirs, 65534, 65534);
      expect((await list({ NODE_COMPILE_CACHE: theirs })).code).toBe(0);
      expect(monFiles(theirs)).toEqual([]);

      const mine = freshDir();
      chmodSync(mine, 0o700);
      const file = join(mine, cacheName());
      const planted = Buffer.concat([Buffer.of(1), Buffer.alloc(4096, 0x5a)]);
      writeFileSync(file, planted, { mode: 0o644 });
      chownSync(file, 65534, 65534);
      expect((await list({ NODE_COMPILE_CACHE: mine })).code).toBe(0);
      // Not taken as a cache: replaced by this user's own.
      expect(statSync(file).uid).toBe(0);
      expect(runsIn(file)).toBe(1);
    },
  );

  it('the default folder is per user, in the temporary folder, made 0700', async () => {
    const tmp = freshDir();
    expect((await list({ TMPDIR: tmp })).code).toBe(0);
    const dir = join(tmp, `mon-code-cache-${process.getuid?.() ?? ''}`.replace(/-$/, ''));
    expect(statSync(dir).mode & 0o777).toBe(0o700);
    expect(monFiles(dir)).toEqual([cacheName()]);
  });

  it('NODE_DISABLE_COMPILE_CACHE=1 writes none', async () => {
    const dir = join(freshDir(), 'cache');
    expect((await list({ NODE_COMPILE_CACHE: dir, NODE_DISABLE_COMPILE_CACHE: '1' })).code).toBe(0);
    expect(existsSync(dir)).toBe(false);
  });

  it('a bundle the build did not stamp is not cached', async () => {
    const copy = freshDir();
    mkdirSync(join(copy, 'dist'));
    for (const part of ['bin', 'package.json']) cpSync(join(root, part), join(copy, part), { recursive: true });
    writeFileSync(
      join(copy, 'dist', 'mon.cjs'),
      readFileSync(join(root, 'dist', 'mon.cjs'), 'utf8').replace(/^\/\/ mon build [0-9a-f]+\n/, ''),
    );
    const dir = join(freshDir(), 'cache');
    const run = spawnSync(process.execPath, [join(copy, 'bin', 'mon'), 'profile', 'list'], {
      env: { PATH: process.env.PATH ?? '', HOME: copy, MON_CONFIG_DIR: copy, NODE_COMPILE_CACHE: dir },
    });
    expect(run.status).toBe(0);
    expect(monFiles(dir)).toEqual([]);
  });
});
