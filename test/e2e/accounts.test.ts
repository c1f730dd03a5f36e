// --profiles / --all-profiles / MON_PROFILES: one read across three accounts, each a sandbox on
// its own port with its own key, saved as three profiles.
import { spawn } from 'node:child_process';
import { createServer } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startSandbox, type RunningSandbox } from '../../src/sandbox/server.js';
import { testClock } from '../helpers/clock.js';
import type { Clock } from '../../src/clock.js';
import { Readable } from 'node:stream';
import { main } from '../../src/main.js';
import { computersPage, hang, startFakeApi, type FakeApi } from '../helpers/fake-api.js';
import { expectRefusedBeforeSending, runMain } from '../helpers/run-main.js';
import { MON_BIN, runMon, tempConfigDir } from '../helpers/run-mon.js';
import { readAll } from '../helpers/sandbox-http.js';
import { bound } from '../helpers/slow.js';

type Item = Record<string, unknown>;

const ACCOUNTS = [
  { profile: 'alpha', key: 'k_alpha_0000000000000001', computers: 30, seed: 3 },
  { profile: 'beta', key: 'k_beta_00000000000000002', computers: 20, seed: 5 },
  { profile: 'gamma', key: 'k_gamma_0000000000000003', computers: 25, seed: 8 },
] as const;

/** A loopback port with nothing listening on it: an unreachable account. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

describe('one read across accounts', () => {
  const sandboxes: RunningSandbox[] = [];
  let dir: string;
  const mon = (args: string[], env: Record<string, string | undefined> = {}, clock = testClock()) =>
    runMain(args, { env: { MON_CONFIG_DIR: dir, ...env }, clock });
  const all = () => sandboxes.flatMap((sandbox) => sandbox.requests);
  /** What the test reads itself from each sandbox, tagged as mon tags it. */
  const expected = async (path: string): Promise<Item[]> => {
    const lists = await Promise.all(sandboxes.map((sandbox) => readAll(sandbox, path)));
    return lists.flatMap((items, i) => items.map((item) => ({ profile: ACCOUNTS[i]!.profile, ...item })));
  };

  beforeAll(async () => {
    dir = tempConfigDir();
    for (const account of ACCOUNTS) {
      const sandbox = await startSandbox({
        port: 0,
        apiKey: account.key,
        computers: account.computers,
        seed: account.seed,
      });
      sandboxes.push(sandbox);
      const added = await runMain(['profile', 'add', account.profile, '--base-url', sandbox.url, '--api-key-stdin'], {
        env: { MON_CONFIG_DIR: dir },
        input: account.key,
      });
      expect(added.code).toBe(0);
    }
    // Broken accounts beside them: a key the server refuses, a host that does not answer.
    await runMain(['profile', 'add', 'revoked', '--base-url', sandboxes[1]!.url, '--api-key-stdin'], {
      env: { MON_CONFIG_DIR: dir },
      input: 'k_revoked_000000000000009',
    });
    await runMain(
      ['profile', 'add', 'down', '--base-url', `http://127.0.0.1:${await closedPort()}`, '--api-key-stdin'],
      { env: { MON_CONFIG_DIR: dir }, input: 'k_down_00000000000000008' },
    );
  });
  afterAll(() => Promise.all(sandboxes.map((sandbox) => sandbox.close())));
  beforeEach(() => {
    for (const sandbox of sandboxes) sandbox.requests.length = 0;
  });

  it('merges every account into one JSON array, accounts in the order given, items in the API order, `profile` first', async () => {
    const result = await mon(['--profiles', 'gamma,alpha,beta', 'computers', 'list', '--all', '-o', 'json']);
    expect(result.code).toBe(0);
    expect(result.stderr).toBe('');
    const items = JSON.parse(result.stdout) as Item[];
    const want = await expected('/v2.5/computers');
    const order = ['gamma', 'alpha', 'beta'];
    expect(items).toEqual(
      [...want].sort((a, b) => order.indexOf(a.profile as string) - order.indexOf(b.profile as string)),
    );
    expect(items).toHaveLength(30 + 20 + 25);
    expect(items.every((item) => Object.keys(item)[0] === 'profile')).toBe(true);
  });

  it('sends each account its own key only, and ignores MON_API_KEY and MON_BASE_URL', async () => {
    const result = await mon(['--all-profiles', 'users', 'list', '-o', 'ndjson'], {
      MON_API_KEY: 'k_wrong_00000000000000000',
      MON_BASE_URL: 'http://127.0.0.1:9',
      MON_PROFILES: undefined,
    });
    // revoked and down are saved too: --all-profiles reads them, and they fail (exit 9).
    expect(result.code).toBe(9);
    sandboxes.forEach((sandbox, i) => {
      const keys = new Set(sandbox.requests.map((request) => request.query.api_key));
      // beta's server also received the revoked profile's key: its base URL is beta's.
      expect([...keys].sort()).toEqual(i === 1 ? [ACCOUNTS[1].key, 'k_revoked_000000000000009'] : [ACCOUNTS[i]!.key]);
    });
    for (const key of [...ACCOUNTS.map((account) => account.key), 'k_wrong_00000000000000000']) {
      expect(result.stdout + result.stderr).not.toContain(key);
    }
  });

  it('streams ndjson, and prints a PROFILE column first in csv, tsv and tables', async () => {
    const want = await expected('/v2.5/groups');
    const ndjson = await mon(['--profiles', 'alpha,beta,gamma', 'groups', 'list', '--all', '-o', 'ndjson']);
    expect(ndjson.code).toBe(0);
    expect(
      ndjson.stdout
        .trim()
        .split('\n')
        .map((line) => JSON.parse(line)),
    ).toEqual(want);

    const csv = await mon([
      '--profiles',
      'alpha,beta,gamma',
      'groups',
      'list',
      '--all',
      '-o',
      'csv',
      '--fields',
      'uid,name',
    ]);
    expect(csv.stdout).toBe(
      `${['profile,uid,name', ...want.map((group) => `${group.profile},${group.uid},${group.name}`)].join('\n')}\n`,
    );
    const tsv = await mon([
      '--profiles',
      'alpha,beta,gamma',
      'groups',
      'list',
      '--all',
      '-o',
      'tsv',
      '--fields',
      'uid',
      '--no-header',
    ]);
    expect(tsv.stdout).toBe(want.map((group) => `${group.profile}\t${group.uid}\n`).join(''));

    const table = await mon(['--profiles', 'beta,alpha', 'groups', 'list', '--all', '--fields', 'uid']);
    const lines = table.stdout.trim().split('\n');
    expect(lines[0]).toMatch(/^PROFILE\s+UID$/);
    const rows = lines.slice(1).map((line) => line.split(/\s+/));
    expect(rows).toEqual(
      [...want.filter((g) => g.profile === 'beta'), ...want.filter((g) => g.profile === 'alpha')].map((group) => [
        group.profile,
        group.uid,
      ]),
    );
  });

  it('keeps `profile` with --fields, counts per account, and gets one item per account', async () => {
    const fields = await mon([
      '--profiles',
      'alpha,gamma',
      'computers',
      'list',
      '--per-page',
      '2',
      '--json',
      '--fields',
      'uid',
    ]);
    expect(JSON.parse(fields.stdout)).toEqual(
      (await expected('/v2.5/computers'))
        .filter((c) => c.profile !== 'beta')
        .filter((c, i, list) => list.findIndex((d) => d.profile === c.profile) + 2 > i)
        .map((c) => ({ profile: c.profile, uid: c.uid })),
    );
    // A list that stops early says so per account, after the output.
    expect(fields.stderr).toBe(
      'alpha: showing 2 of 30 — add --all for every page\ngamma: showing 2 of 25 — add --all for every page\n',
    );

    const placed = await mon([
      '--profiles',
      'alpha',
      'users',
      'list',
      '-o',
      'csv',
      '--fields',
      'uid,profile',
      '--no-header',
    ]);
    expect(placed.stdout.split('\n')[0]).toMatch(/^u_\w+,alpha$/);

    const count = await mon(['--all-profiles', 'computers', 'list', '--count', '-o', 'csv'], {}, testClock());
    expect(count.stdout).toBe('profile,count\nalpha,30\nbeta,20\ngamma,25\n');

    const users = await mon(['--profiles', 'alpha,beta,gamma', 'api', 'GET', '/users']);
    expect(users.code).toBe(0);
    expect(JSON.parse(users.stdout)).toEqual(
      (await expected('/v2.5/users')).filter(
        (_, i, list) => list.slice(0, i).filter((u) => u.profile === list[i]!.profile).length < 50,
      ),
    );
  });

  it('one account refused (401) and one unreachable: exit 9, a line each naming it, the third account whole', async () => {
    const clock = testClock();
    const result = await mon(
      ['--profiles', 'revoked,alpha,down', 'computers', 'list', '--all', '-o', 'ndjson'],
      {},
      clock,
    );
    expect(result.code).toBe(9);
    const want = (await expected('/v2.5/computers')).filter((item) => item.profile === 'alpha');
    expect(
      result.stdout
        .trim()
        .split('\n')
        .map((line) => JSON.parse(line)),
    ).toEqual(want);
    const lines = result.stderr.trim().split('\n');
    expect(lines).toHaveLength(3);
    expect(lines[0]).toMatch(/^mon: revoked: .*(401|key|unauthori[sz]ed)/i);
    expect(lines[1]).toMatch(/^mon: down: .*127\.0\.0\.1/);
    expect(lines[2]).toBe(
      "mon: 2 of 3 accounts failed: revoked, down — each said why above; the others' data was printed whole",
    );
  });

  it('--verbose lines name their account, key redacted', async () => {
    const result = await mon(['--profiles', 'alpha,beta', '--verbose', 'users', 'list', '--per-page', '1']);
    expect(result.code).toBe(0);
    const requests = result.stderr.split('\n').filter((line) => /GET /.test(line));
    expect(requests.length).toBeGreaterThanOrEqual(2);
    for (const line of requests)
      expect(line).toMatch(/^(alpha: .*127\.0\.0\.1:\d+\/v2\.5\/users|beta: .*127\.0\.0\.1:\d+\/v2\.5\/users)/);
    expect(requests.some((line) => line.startsWith('alpha: ') && line.includes(new URL(sandboxes[0]!.url).port))).toBe(
      true,
    );
    expect(requests.some((line) => line.startsWith('beta: ') && line.includes(new URL(sandboxes[1]!.url).port))).toBe(
      true,
    );
    for (const { key } of ACCOUNTS) expect(result.stderr).not.toContain(key);
  });

  it('every account failing the same way exits with that code', async () => {
    const result = await mon(['--profiles', 'revoked', 'computers', 'list'], {}, testClock());
    expect(result.code).toBe(3);
    expect(result.stdout).toBe('');
    expect(result.stderr).toMatch(/^mon: revoked: [^\n]+\n$/);
  });

  it.each([[['-o', 'json']], [['--jq', 'length']], [['-o', 'csv']]])(
    'no account answering prints nothing on stdout, not even an empty list: %j',
    async (format) => {
      const result = await mon(['--profiles', 'revoked,down', 'computers', 'list', ...format], {}, testClock());
      expect(result.code).toBe(9);
      expect(result.stdout).toBe('');
      expect(result.stderr.trim().split('\n')).toHaveLength(3);
    },
  );

  it.each([
    [['notes', 'create', '--group', 'g_1', '--body', 'hi'], 'notes create'],
    [['computers', 'update', 'CLIENT-1', '--asset-id', 'A1'], 'computers update'],
    [['plugin', 'unmute', 'pr_1'], 'plugin unmute'],
    // A --timed mute reads before it writes (whether it ends a mute sooner): refused before that read too.
    [['plugin', 'mute', 'pr_1', '--timed', '1h'], 'plugin mute'],
    [['api', 'POST', '/notes', '-F', 'note[body]=x'], 'api'],
  ])('refuses a write across accounts before sending anything: %j', async (args, command) => {
    const result = await mon(['--profiles', 'alpha,beta', ...args]);
    expectRefusedBeforeSending(
      result,
      `--profiles: reads across accounts, and \`mon ${command}\` changes things`,
      all(),
    );
  });

  it.each([
    [['profile', 'list'], 'profile list'],
    [['completion', 'bash'], 'completion bash'],
  ])('refuses a tool across accounts: %j', async (args, command) => {
    expectRefusedBeforeSending(
      await mon(['--all-profiles', ...args]),
      `--all-profiles: reads across accounts, and \`mon ${command}\` reads no account`,
      all(),
    );
  });

  it('refuses an unknown profile, -p beside a list, an empty list and --parallel out of range before any request', async () => {
    expectRefusedBeforeSending(
      await mon(['--profiles', 'alpha,nope', 'users', 'list']),
      "--profiles: no profile named 'nope' (saved: alpha, beta, gamma, revoked, down)",
      all(),
    );
    expectRefusedBeforeSending(
      await mon(['users', 'list'], { MON_PROFILES: 'alpha,nope' }),
      "MON_PROFILES: no profile named 'nope' (saved: alpha, beta, gamma, revoked, down)",
      all(),
    );
    expectRefusedBeforeSending(
      await mon(['-p', 'alpha', '--profiles', 'beta', 'users', 'list']),
      '--profiles: names the accounts itself, so it does not go with -p/--profile',
      all(),
    );
    expectRefusedBeforeSending(
      await mon(['--profiles', ',', 'users', 'list']),
      "--profiles: give at least one profile name (got ',')",
      all(),
    );
    expectRefusedBeforeSending(
      await mon(['--all-profiles', '--parallel', '17', 'users', 'list']),
      "--parallel: must be a whole number from 1 to 16 (got '17')",
      all(),
    );
    expectRefusedBeforeSending(
      await runMain(['--all-profiles', 'users', 'list'], { env: { MON_CONFIG_DIR: tempConfigDir() } }),
      '--all-profiles: no profiles saved yet',
      all(),
    );
    expectRefusedBeforeSending(
      await mon(['--profiles', 'alpha', '--base-url', sandboxes[0]!.url, 'users', 'list']),
      "--profiles: each account uses its profile's base URL, so it does not go with --base-url",
      all(),
    );
    expectRefusedBeforeSending(
      await mon(['--parallel', '2', 'users', 'list']),
      '--parallel: how many accounts are read at once, so it needs --profiles or --all-profiles',
      all(),
    );
  });

  it.each([
    [['api', '-i', 'GET', '/users'], '--include: prints the headers of one answer, not of one per account'],
    [['status', '--warning-alerts', '1'], '--warning-alerts: thresholds apply only with --check'],
  ])('a mistake every account finds is said once: %j', async (args, message) => {
    expectRefusedBeforeSending(await mon(['--profiles', 'alpha,beta', ...args]), message, all());
  });

  it('MON_PROFILES spans accounts; a -p flag beats it', async () => {
    const spanned = await mon(['users', 'list', '--json', '--fields', 'uid'], { MON_PROFILES: 'beta,gamma' });
    expect(spanned.code).toBe(0);
    expect(new Set((JSON.parse(spanned.stdout) as Item[]).map((user) => user.profile))).toEqual(
      new Set(['beta', 'gamma']),
    );
    const one = await mon(['-p', 'alpha', 'users', 'list', '--json', '--fields', 'uid'], {
      MON_PROFILES: 'beta,gamma',
    });
    expect(JSON.parse(one.stdout)).toEqual(
      (await readAll(sandboxes[0]!, '/v2.5/users')).slice(0, 50).map((user) => ({ uid: user.uid })),
    );
  });

  it('--jq sees one array of every account with -o json, and each item with -o ndjson', async () => {
    const json = await mon([
      '--profiles',
      'alpha,beta,gamma',
      'computers',
      'list',
      '--all',
      '--jq',
      'group_by(.profile) | map([.[0].profile, length])',
    ]);
    expect(json.stdout).toBe('[["alpha",30],["beta",20],["gamma",25]]\n');
    const ndjson = await mon([
      '--profiles',
      'gamma,beta',
      'computers',
      'list',
      '--all',
      '-o',
      'ndjson',
      '--jq',
      '.profile',
    ]);
    expect(ndjson.stdout).toBe(`${'gamma\n'.repeat(25)}${'beta\n'.repeat(20)}`);
  });

  it('alerts across accounts: each account complete, in order', async () => {
    const result = await mon(['--profiles', 'alpha,beta', 'alerts', '-o', 'ndjson', '--include-muted']);
    expect(result.code).toBe(0);
    const items = result.stdout
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as Item);
    const profiles = items.map((item) => item.profile);
    expect(profiles.lastIndexOf('alpha')).toBeLessThan(profiles.indexOf('beta'));
    for (const [i, profile] of ['alpha', 'beta'].entries()) {
      const computers = await readAll(sandboxes[i]!, '/v2.5/computers?expand[]=plugin_results');
      const want = computers.flatMap((c) =>
        (c.plugin_results as Item[])
          .filter((r) => (r.status === 'Alert' || r.status === 'Warning') && r.visible !== false)
          .map((r) => r.uid),
      );
      expect(
        items
          .filter((item) => item.profile === profile)
          .map((item) => item.uid)
          .sort(),
      ).toEqual([...want].sort());
    }
  });

  it('status: a block per account and a total; -o json an object per account and the totals', async () => {
    const json = await mon(['--profiles', 'alpha,beta,gamma', 'status', '-o', 'json']);
    expect(json.code).toBe(0);
    const report = JSON.parse(json.stdout) as {
      accounts: (Item & { computers: { total: number } })[];
      total: { computers: { total: number }; plugin_results: { alerts: number } };
    };
    expect(report.accounts.map((account) => [account.profile, account.computers.total])).toEqual([
      ['alpha', 30],
      ['beta', 20],
      ['gamma', 25],
    ]);
    expect(report.total.computers.total).toBe(75);
    expect(report.total.plugin_results.alerts).toBe(
      report.accounts.reduce((sum, account) => sum + (account.plugin_results as { alerts: number }).alerts, 0),
    );

    const text = await mon(['--profiles', 'alpha,beta', 'status']);
    expect(text.stdout).toMatch(
      /^== Profile alpha ==\nComputers: 30\n[\s\S]*\n== Profile beta ==\nComputers: 20\n[\s\S]*\n== Total of 2 profiles ==\nComputers: 50\n/,
    );
  });

  it('status --check: the worst state across accounts, each named; a failed account is UNKNOWN', async () => {
    const ok = await mon([
      '--profiles',
      'alpha,beta',
      'status',
      '--check',
      '--critical-alerts',
      '1000',
      '--warning-warnings',
      '1000',
      '--warning-missing',
      '1000',
    ]);
    expect(ok.code).toBe(0);
    expect(ok.stdout).toMatch(
      /^MON OK - alpha OK: \d+ alerts?, \d+ warnings?, \d+ missing; beta OK: [^|]+ \| alpha_alerts=\d+;;1000;0 .*beta_missing=\d+;1000;;0\n$/,
    );
    const failed = await mon(
      [
        '--profiles',
        'alpha,revoked',
        'status',
        '--check',
        '--critical-alerts',
        '1000',
        '--warning-warnings',
        '1000',
        '--warning-missing',
        '1000',
      ],
      {},
      testClock(),
    );
    expect(failed.code).toBe(3);
    expect(failed.stdout).toMatch(/^MON UNKNOWN - alpha OK: [^;]+; revoked UNKNOWN: [^|\n]+ \| alpha_alerts=/);
    const critical = await mon(
      ['--profiles', 'alpha,revoked', 'status', '--check', '--critical-warnings', '0'],
      {},
      testClock(),
    );
    expect(critical.code).toBe(2);
    expect(critical.stdout).toMatch(/^MON CRITICAL - alpha CRITICAL: /);
  });
});

describe('as a process', () => {
  let sandbox: RunningSandbox;
  let stuck: FakeApi;
  const dir = tempConfigDir();
  beforeAll(async () => {
    sandbox = await startSandbox({ port: 0, apiKey: ACCOUNTS[0].key, computers: 30, seed: 3 });
    stuck = await startFakeApi(hang);
    for (const [name, url, key] of [
      ['alpha', sandbox.url, ACCOUNTS[0].key],
      ['revoked', sandbox.url, 'k_revoked_000000000000009'],
      ['stuck', stuck.url, 'k_stuck_0000000000000007'],
    ]) {
      expect(
        (
          await runMain(['profile', 'add', name!, '--base-url', url!, '--api-key-stdin'], {
            env: { MON_CONFIG_DIR: dir },
            input: key,
          })
        ).code,
      ).toBe(0);
    }
  });
  afterAll(() => Promise.all([sandbox.close(), stuck.close()]));

  it('exits 9 with the answering account printed whole and flushed', async () => {
    const result = await runMon(['--profiles', 'revoked,alpha', 'computers', 'list', '--all', '-o', 'ndjson'], {
      env: { MON_CONFIG_DIR: dir },
    });
    expect(result.code).toBe(9);
    expect(
      result.stdout
        .trim()
        .split('\n')
        .map((line) => JSON.parse(line).uid),
    ).toEqual((await readAll(sandbox, '/v2.5/computers')).map((c) => c.uid));
    expect(result.stderr).toMatch(/^mon: revoked: [^\n]+\nmon: 1 of 2 accounts failed: revoked — [^\n]+\n$/);
  });

  it('Ctrl-C while an account hangs ends every account: exit 130, no line blaming an account', async () => {
    const child = spawn(
      process.execPath,
      [MON_BIN, '--profiles', 'alpha,stuck', 'computers', 'list', '--all', '-o', 'ndjson'],
      {
        env: { PATH: process.env.PATH ?? '', HOME: dir, MON_CONFIG_DIR: dir },
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    let stdout = '';
    let stderr = '';
    const killer = setTimeout(() => child.kill('SIGKILL'), bound(30_000));
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      stdout += chunk;
      // alpha is whole and stuck is still waiting for its first answer.
      if (stdout.split('\n').length > 30) child.kill('SIGINT');
    });
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
    clearTimeout(killer);
    expect(code).toBe(130);
    expect(stderr).toBe('mon: interrupted\n');
    expect(stdout.trim().split('\n')).toHaveLength(30);
  });
});

describe('rate budgets across accounts', () => {
  let servers: FakeApi[] = [];
  afterAll(() => Promise.all(servers.map((server) => server.close())));

  it('an account at its limit waits; another account does not wait for it', async () => {
    // busy's wait lasts until idle has been answered: had idle waited for busy, neither would go on.
    let idleAnswered!: () => void;
    const answered = new Promise<void>((resolve) => (idleAnswered = resolve));
    const pages = computersPage(3);
    servers = [
      await startFakeApi(pages),
      await startFakeApi((req, res) => {
        const result = pages(req, res, 0);
        idleAnswered();
        return result;
      }),
    ];
    const clock = testClock();
    const waits: number[] = [];
    const waitingForIdle: Clock = {
      now: () => clock.now(),
      sleep: async (ms) => {
        waits.push(ms);
        await answered;
        clock.advance(ms);
      },
    };
    const dir = tempConfigDir();
    for (const [i, name] of ['busy', 'idle'].entries()) {
      await runMain(['profile', 'add', name, '--base-url', servers[i]!.url, '--api-key-stdin'], {
        env: { MON_CONFIG_DIR: dir },
        input: `k_${name}_000000000000000${i}`,
      });
    }
    // Two requests per 2 seconds for every key: busy spends its two now.
    const env = { MON_CONFIG_DIR: dir, MON_RATE_LIMIT: '2/2' };
    for (let i = 0; i < 2; i++)
      expect((await runMain(['-p', 'busy', 'computers', 'list'], { env, clock })).code).toBe(0);
    const result = await runMain(['--profiles', 'busy,idle', 'computers', 'list', '--json'], {
      env,
      clock: waitingForIdle,
    });
    expect(result.code).toBe(0);
    // idle's own budget is untouched; busy waits out its window, once.
    expect(waits).toHaveLength(1);
    expect(waits[0]).toBeGreaterThan(1_000);
    expect((JSON.parse(result.stdout) as Item[]).map((item) => item.profile)).toEqual([
      'busy',
      'busy',
      'busy',
      'idle',
      'idle',
      'idle',
    ]);
  });
});

describe('MON_DEADLINE across accounts', () => {
  let servers: FakeApi[] = [];
  afterAll(() => Promise.all(servers.map((server) => server.close())));

  it("counts from the command's start for every account, also one that waited for its turn", async () => {
    const pages = computersPage(2);
    // Each answer takes 1.2 s of the command's time: the test clock moves, the wall clock need not.
    const clock = testClock();
    const slow = () =>
      startFakeApi((req, res) => {
        clock.advance(1_200);
        return pages(req, res, 0);
      });
    servers = [await slow(), await slow()];
    const dir = tempConfigDir();
    for (const [i, name] of ['first', 'second'].entries()) {
      await runMain(['profile', 'add', name, '--base-url', servers[i]!.url, '--api-key-stdin'], {
        env: { MON_CONFIG_DIR: dir },
        input: `k_${name}_0000000000000000`,
      });
    }
    // One at a time: the second account starts at 1.2 s, past the deadline of the command's 1 s
    // (counted from its own start, it would have had until 2.2 s).
    const result = await runMain(
      ['--profiles', 'first,second', '--parallel', '1', 'computers', 'list', '-o', 'ndjson'],
      { env: { MON_CONFIG_DIR: dir, MON_DEADLINE: '1' }, clock },
    );
    expect(result.code).toBe(9);
    expect(
      result.stdout
        .trim()
        .split('\n')
        .map((line) => JSON.parse(line).profile),
    ).toEqual(['first', 'first']);
    expect(result.stderr).toMatch(/^mon: second: [^\n]*deadline of 1 s/m);
  });
});

describe('items as received across accounts', () => {
  let servers: FakeApi[] = [];
  afterAll(() => Promise.all(servers.map((server) => server.close())));

  it('an item with a `__proto__` key keeps it as a key, after `profile`, as other items keep theirs', async () => {
    // JSON.parse makes `__proto__` an own key: copied by setting keys, it would change the copy's prototype instead.
    const body =
      '[{"uid":"c_1","__proto__":{"hidden":true},"computer_name":"odd"},{"uid":"c_2","computer_name":"plain","profile":"theirs"}]';
    const answer = () =>
      startFakeApi((_req, res) => {
        res.writeHead(200, {
          'content-type': 'application/json',
          'x-total': '2',
          'x-total-pages': '1',
          'x-page': '1',
          'x-per-page': '50',
        });
        res.end(body);
      });
    servers = [await answer(), await answer()];
    const dir = tempConfigDir();
    for (const [i, name] of ['first', 'second'].entries()) {
      await runMain(['profile', 'add', name, '--base-url', servers[i]!.url, '--api-key-stdin'], {
        env: { MON_CONFIG_DIR: dir },
        input: `k_${name}_0000000000000000`,
      });
    }
    const result = await runMain(['--profiles', 'first,second', 'computers', 'list', '-o', 'ndjson'], {
      env: { MON_CONFIG_DIR: dir },
    });
    expect(result.code).toBe(0);
    // A `profile` key of the item's own wins, in the first place (as `{ profile, ...item }` has it).
    expect(result.stdout).toBe(
      `${['first', 'second']
        .flatMap((name) => [
          `{"profile":"${name}","uid":"c_1","__proto__":{"hidden":true},"computer_name":"odd"}`,
          '{"profile":"theirs","uid":"c_2","computer_name":"plain"}',
        ])
        .join('\n')}\n`,
    );
  });
});

describe('ndjson across accounts', () => {
  let servers: FakeApi[] = [];
  afterAll(() => Promise.all(servers.map((server) => server.close())));

  it('streams the first account as its pages arrive, and holds the next one until the first has finished', async () => {
    let stdout = '';
    let firstPageSeen: () => void = () => undefined;
    const seen = new Promise<void>((resolve) => (firstPageSeen = resolve));
    const pages = computersPage(4);
    let secondRead: () => void = () => undefined;
    const read = new Promise<void>((resolve) => (secondRead = resolve));
    // The first account's second page is answered only once its first page is on stdout and the
    // second account has been read whole: neither waits for the other (or this would hang).
    const first = await startFakeApi(async (req, res) => {
      if (req.query.get('page') === '2') await Promise.all([seen, read]);
      pages(req, res, 0);
    });
    const rest = computersPage(3);
    const second = await startFakeApi((req, res) => {
      rest(req, res, 0);
      if (req.query.get('page') === '2') secondRead();
    });
    servers = [first, second];
    const dir = tempConfigDir();
    for (const [i, name] of ['one', 'two'].entries()) {
      await runMain(['profile', 'add', name, '--base-url', servers[i]!.url, '--api-key-stdin'], {
        env: { MON_CONFIG_DIR: dir },
        input: `k_${name}_0000000000000000`,
      });
    }
    const io = {
      stdout: {
        write: (chunk: string) => {
          stdout += chunk;
          if (stdout.split('\n').length > 2) firstPageSeen();
          return true;
        },
        isTTY: false,
      },
      stderr: { write: () => true, isTTY: false },
      stdin: Object.assign(Readable.from([]), { isTTY: false }),
    };
    const code = await main(
      [
        '--profiles',
        'one,two',
        'computers',
        'list',
        '--all',
        '--order',
        'created_desc',
        '--per-page',
        '2',
        '-o',
        'ndjson',
      ],
      { io, env: { PATH: process.env.PATH, HOME: dir, MON_CONFIG_DIR: dir }, clock: testClock() },
    );
    expect(code).toBe(0);
    const lines = stdout
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as Item);
    expect(lines.map((line) => `${line.profile}:${line.uid}`)).toEqual([
      'one:c_1',
      'one:c_2',
      'one:c_3',
      'one:c_4',
      'two:c_1',
      'two:c_2',
      'two:c_3',
    ]);
    expect(second.requests).toHaveLength(2);
  });
});
