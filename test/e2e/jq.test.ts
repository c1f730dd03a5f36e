// --jq end to end: the real jq (jq-wasm) over what mon prints, against the sandbox over HTTP.
// As a process too: a filter that never ends is stopped by a signal or MON_DEADLINE, its memory
// is bounded, and its results reach a pipe as jq yields them (issue 24, items 1 and 8).
import { spawn } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type RunningSandbox } from '../../src/sandbox/server.js';
import { runMain } from '../helpers/run-main.js';
import { MON_BIN, runMon, tempConfigDir } from '../helpers/run-mon.js';
import { bound } from '../helpers/slow.js';

/** Every computer straight from the sandbox over HTTP, without mon in between. */
async function allComputers(sandbox: RunningSandbox): Promise<Record<string, unknown>[]> {
  const out: Record<string, unknown>[] = [];
  for (let page = 1; ; page++) {
    const response = await fetch(`${sandbox.url}/v2.5/computers?per_page=100&page=${page}&api_key=${sandbox.apiKey}`);
    out.push(...((await response.json()) as Record<string, unknown>[]));
    if (!response.headers.get('x-next-page')) return out;
  }
}

interface Spawned {
  code: number | null;
  stdout: string;
  stderr: string;
}

/**
 * Spawns bin/mon with `--verbose` and calls `act` on each output until it returns a signal to
 * send; the process is killed outright after 20 s, so a hang fails the test instead of stalling it.
 */
function spawnMon(
  args: readonly string[],
  env: Record<string, string>,
  act: (out: { stdout: string; stderr: string }) => NodeJS.Signals | undefined,
): Promise<Spawned> {
  const child = spawn(process.execPath, [MON_BIN, '--verbose', ...args], {
    env: { PATH: process.env.PATH ?? '', HOME: tempConfigDir(), MON_CONFIG_DIR: tempConfigDir(), ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const out = { stdout: '', stderr: '' };
  let sent = false;
  const killer = setTimeout(() => child.kill('SIGKILL'), bound(30_000));
  const check = () => {
    const signal = sent ? undefined : act(out);
    if (!signal) return;
    sent = true;
    child.kill(signal);
  };
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
    // Only the start of a never-ending output is kept.
    if (out.stdout.length < 1000) out.stdout += chunk;
    check();
  });
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
    out.stderr += chunk;
    check();
  });
  return new Promise((resolve) =>
    child.on('close', (code) => {
      clearTimeout(killer);
      resolve({ code, ...out });
    }),
  );
}

/** The groups were received (--verbose says so on stderr): the filter is running now. */
const answered = (out: { stderr: string }) => / 200 \(\d+ ms\)/.test(out.stderr);

describe('--jq', () => {
  let sandbox: RunningSandbox;
  let env: Record<string, string>;
  let computers: Record<string, unknown>[];

  beforeAll(async () => {
    sandbox = await startSandbox({ port: 0 });
    env = { MON_BASE_URL: sandbox.url, MON_API_KEY: sandbox.apiKey };
    computers = await allComputers(sandbox);
    sandbox.requests.length = 0;
  });
  afterAll(() => sandbox.close());

  it('over --all at per_page 10 sees every computer of every page, in one run of bin/mon', async () => {
    expect(computers.length).toBeGreaterThan(20);
    const result = await runMon(['computers', 'list', '--all', '--per-page', '10', '--jq', '.[].computer_name'], {
      env,
    });
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    // Strings raw, one a line, in page order.
    expect(result.stdout).toBe(computers.map((c) => `${String(c.computer_name)}\n`).join(''));
    expect(sandbox.requests.filter((r) => r.path === '/v2.5/computers')).toHaveLength(Math.ceil(computers.length / 10));
    sandbox.requests.length = 0;
  });

  it('`map(select(.missing)) | length` over --all equals --count --status missing', async () => {
    const jq = await runMain(['computers', 'list', '--all', '--jq', 'map(select(.missing)) | length'], { env });
    const count = await runMain(['computers', 'list', '--count', '--status', 'missing'], { env });
    expect([jq.code, count.code]).toEqual([0, 0]);
    expect(Number(count.stdout)).toBeGreaterThan(0);
    expect(jq.stdout).toBe(count.stdout);
    expect(jq.stdout).toBe(`${computers.filter((c) => c.missing === true).length}\n`);
  });

  it('with -o ndjson runs once per item as pages arrive; with -o json (the default) once over the whole array', async () => {
    const perItem = await runMain(
      ['computers', 'list', '--all', '--per-page', '10', '-o', 'ndjson', '--jq', 'length'],
      { env },
    );
    expect(perItem.code).toBe(0);
    // `length` of each computer object is its number of keys.
    expect(perItem.stdout).toBe(computers.map((c) => `${Object.keys(c).length}\n`).join(''));
    const whole = await runMain(['computers', 'list', '--all', '--per-page', '10', '--jq', 'length'], { env });
    expect(whole.stdout).toBe(`${computers.length}\n`);
    const json = await runMain(['computers', 'list', '--per-page', '3', '--json', '--jq', 'length'], { env });
    expect(json.stdout).toBe('3\n');
  });

  it('prints strings raw and every other result as compact JSON, one a line, numbers as jq keeps them', async () => {
    const result = await runMain(
      [
        'computers',
        'list',
        '--per-page',
        '1',
        '--jq',
        '"tab\\there", "é", 1.50, {"a": "two\\nlines", "b": [1, 2]}, null, true, ""',
      ],
      { env },
    );
    expect(result.code).toBe(0);
    expect(result.stdout).toBe('tab\there\né\n1.50\n{"a":"two\\nlines","b":[1,2]}\nnull\ntrue\n\n');
  });

  it('a syntax error is exit 2 with jq’s own message, and nothing is sent', async () => {
    sandbox.requests.length = 0;
    const result = await runMain(['computers', 'list', '--all', '--jq', '.['], { env });
    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr).toBe(
      "mon: --jq: syntax error, unexpected end of file at <top-level>, line 1, column 2: .[ — check the filter against jq's manual: https://jqlang.org/manual/\n",
    );
    const unknown = await runMain(['api', 'GET', '/computers', '--jq', 'nosuchfunction(1)'], { env });
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toMatch(
      /^mon: --jq: nosuchfunction\/1 is not defined at <top-level>, line 1, column 1: nosuchfunction\(1\) — check the filter/,
    );
    expect(sandbox.requests).toEqual([]);
  });

  it('a runtime error is exit 1 with jq’s message, after the data was read', async () => {
    sandbox.requests.length = 0;
    const result = await runMon(
      ['computers', 'list', '--per-page', '2', '--jq', '.[0].uid, (.[] | .computer_name.x)'],
      { env },
    );
    expect(result.code).toBe(1);
    // What jq printed before the error is printed too, as jq does.
    expect(result.stdout).toBe(`${String(computers[0]?.uid)}\n`);
    expect(result.stderr).toBe('mon: --jq: Cannot index string with string ("x")\n');
    expect(sandbox.requests).toHaveLength(1);
  });

  it.each([
    [['notes', 'delete', 'n_1234', '--yes'], 'notes delete'],
    [
      ['profile', 'add', 'acme', '--subdomain', 'acme', '--domain', 'monitoring.example.com', '--api-key-stdin'],
      'profile add',
    ],
    [['completion', 'bash'], 'completion bash'],
  ])('on a command that prints no JSON (%j) is exit 2 before anything is sent', async (args, name) => {
    sandbox.requests.length = 0;
    const result = await runMain([...args, '--jq', '.'], { env, input: 'k_secret' });
    expect(result).toEqual({
      code: 2,
      stdout: '',
      stderr: `mon: --jq: \`mon ${name}\` prints no JSON to filter — use --jq with a command that prints JSON: a list, get, create, update or \`mon api\`\n`,
    });
    expect(sandbox.requests).toEqual([]);
  });

  it.each(['table', 'csv', 'tsv'])('with -o %s is exit 2 before anything is sent', async (format) => {
    sandbox.requests.length = 0;
    const result = await runMain(['computers', 'list', '-o', format, '--jq', '.'], { env });
    expect(result.code).toBe(2);
    expect(result.stderr).toBe(
      `mon: --jq: filters JSON, so it takes -o json (the default with --jq) or -o ndjson, not -o ${format} — drop -o, or use -o ndjson to filter item by item\n`,
    );
    expect(sandbox.requests).toEqual([]);
  });

  it('works with `mon api`, with --paginate over every page, and with a single object', async () => {
    const pages = await runMain(['api', 'GET', '/computers', '-F', 'per_page=25', '--paginate', '--jq', 'length'], {
      env,
    });
    expect(pages.stdout).toBe(`${computers.length}\n`);
    const one = await runMain(['api', 'GET', `/computers/${String(computers[0]?.client_id)}`, '--jq', '.uid'], { env });
    expect(one.stdout).toBe(`${String(computers[0]?.uid)}\n`);
    const got = await runMain(['computers', 'get', String(computers[0]?.client_id), '--jq', '[.uid, .platform]'], {
      env,
    });
    expect(got.stdout).toBe(`${JSON.stringify([computers[0]?.uid, computers[0]?.platform])}\n`);
  });

  it('`mon api -i` (headers before the JSON) does not go with --jq: exit 2, nothing sent', async () => {
    sandbox.requests.length = 0;
    const result = await runMain(['api', '-i', 'GET', '/computers', '--jq', '.'], { env });
    expect(result).toEqual({
      code: 2,
      stdout: '',
      stderr: 'mon: --include: prints headers, which are not JSON, so it does not go with --jq — drop one of them\n',
    });
    expect(sandbox.requests).toEqual([]);
  });

  it('works with the fleet commands: `alerts` (the whole list) and `status` (its one object); `status --check` refuses it', async () => {
    const lines = await runMain(['alerts', '-o', 'ndjson'], { env });
    const alerts = await runMain(['alerts', '--jq', 'length'], { env });
    expect(alerts.code).toBe(0);
    expect(alerts.stdout).toBe(`${lines.stdout.split('\n').filter(Boolean).length}\n`);
    const status = await runMain(['status', '--jq', '.computers.total'], { env });
    expect(status.code).toBe(0);
    expect(status.stdout).toBe(`${computers.length}\n`);
    sandbox.requests.length = 0;
    const check = await runMain(['status', '--check', '--jq', '.'], { env });
    expect(check.code).toBe(3);
    expect(check.stdout).toMatch(/^MON UNKNOWN - --check: prints one Nagios line, not JSON/);
    expect(sandbox.requests).toEqual([]);
  });

  it('a filter that starts with a dash is a filter, not an option of jq', async () => {
    const result = await runMain(['computers', 'list', '--per-page', '1', '--jq', '-1'], { env });
    expect(result).toMatchObject({ code: 0, stdout: '-1\n' });
  });

  it('jq’s $ENV is its own, not mon’s: the key cannot be read through it', async () => {
    const result = await runMain(['computers', 'list', '--per-page', '1', '--jq', '$ENV | tostring'], {
      env: { ...env, SECRET_MARKER: 'visible?' },
    });
    expect(result.code).toBe(0);
    expect(result.stdout).not.toContain(sandbox.apiKey);
    expect(result.stdout).not.toContain('visible?');
  });

  it('jq’s debug messages go to stderr; stdout keeps the results', async () => {
    const result = await runMain(['computers', 'list', '--per-page', '1', '--jq', '.[0].uid | debug | length'], {
      env,
    });
    expect(result.code).toBe(0);
    expect(result.stdout).toBe(`${String(computers[0]?.uid).length}\n`);
    // The note that the list stopped after one page comes after what jq printed, not before.
    expect(result.stderr).toBe(
      `["DEBUG:",${JSON.stringify(computers[0]?.uid)}]\nshowing 1 of ${computers.length} — add --all for every page\n`,
    );
  });

  it('--dry-run checks the filter and shows the request as it is', async () => {
    sandbox.requests.length = 0;
    const shown = await runMain(['computers', 'list', '--all', '--jq', '.[].uid', '--dry-run'], { env });
    expect(shown.code).toBe(0);
    expect(JSON.parse(shown.stdout)).toMatchObject({ method: 'GET' });
    expect((await runMain(['computers', 'list', '--jq', '.[', '--dry-run'], { env })).code).toBe(2);
    expect(sandbox.requests).toEqual([]);
  });

  it('a failed command prints nothing through the filter', async () => {
    const result = await runMain(['computers', 'get', 'no-such-computer', '--jq', '"never"'], { env });
    expect(result.code).toBe(4);
    expect(result.stdout).toBe('');
  });

  describe('in a process', () => {
    it.each([
      ['repeat(1)', 'SIGINT', 130],
      ['def f: f; f', 'SIGINT', 130],
      ['last(range(infinite))', 'SIGTERM', 143],
      ['repeat(1)', 'SIGTERM', 143],
    ] as const)(
      'a filter that never ends (%s) is ended by %s: exit %i within a few seconds',
      async (filter, signal, code) => {
        const result = await spawnMon(['groups', 'list', '--jq', filter], env, (out) =>
          answered(out) ? signal : undefined,
        );
        expect(result.code).toBe(code);
        expect(result.stderr).toMatch(new RegExp(`\\nmon: ${signal === 'SIGINT' ? 'interrupted' : 'terminated'}\\n$`));
      },
    );

    it('the engine bin/mon starts at once takes --jq EXPR and --jq=EXPR alike, and ends when the command does not use it', async () => {
      const [spaced, joined] = await Promise.all([
        runMon(['groups', 'list', '--jq', 'length'], { env }),
        runMon(['groups', 'list', '--jq=length'], { env }),
      ]);
      expect(spaced.stdout).toBe(joined.stdout);
      expect(spaced.stdout).toMatch(/^\d+\n$/);
      // A command line that fails before --jq is read: the engine started for it ends with mon.
      const other = await runMon(['notes', 'create', '--body', '--jq', 'c_1'], { env, timeoutMs: 10_000 });
      expect(other.code).toBe(2);
      expect(other.stderr).toMatch(/^mon: --body needs a value/);
      // A command that prints no JSON refuses the filter, and ends.
      const refused = await runMon(['completion', 'bash', '--jq', '.'], { env, timeoutMs: 10_000 });
      expect(refused.code).toBe(2);
      expect(refused.stderr).toMatch(/^mon: --jq: `mon completion bash` prints no JSON to filter/);
    });

    it('MON_DEADLINE ends a filter that never ends: exit 8, saying so', async () => {
      const result = await runMon(['groups', 'list', '--jq', 'last(range(infinite))'], {
        env: { ...env, MON_DEADLINE: '1' },
        timeoutMs: 20_000,
      });
      expect(result.code).toBe(8);
      expect(result.stdout).toBe('');
      expect(result.stderr).toBe(
        'mon: the command did not finish within its deadline of 1 s — raise MON_DEADLINE (seconds) if it needs longer\n',
      );
    });

    it('a filter that exhausts jq’s memory ends with exit 1 and says so', async () => {
      // A string that doubles until jq cannot hold it (256 MB).
      const result = await runMon(['groups', 'list', '--jq', '"x" | until(false; . + .)'], { env, timeoutMs: 20_000 });
      expect(result.code).toBe(1);
      expect(result.stdout).toBe('');
      expect(result.stderr).toMatch(/^mon: --jq: the filter ran out of memory \(jq's limit is 256 MB\) — [^\n]+\n$/);
    });

    it('results reach the pipe as jq yields them: the first lines of `range(infinite)` arrive', async () => {
      const result = await spawnMon(['groups', 'list', '--jq', 'range(infinite)'], env, (out) =>
        out.stdout.split('\n').length > 100 ? 'SIGTERM' : undefined,
      );
      expect(result.code).toBe(143);
      expect(result.stdout.split('\n').slice(0, 100)).toEqual(Array.from({ length: 100 }, (_, i) => String(i)));
    });

    it('with -o ndjson, the first item’s results arrive while the filter still runs over it', async () => {
      const result = await spawnMon(['groups', 'list', '-o', 'ndjson', '--jq', '.name, (1 | repeat(.))'], env, (out) =>
        out.stdout.includes('\n1\n') ? 'SIGINT' : undefined,
      );
      expect(result.code).toBe(130);
      expect(result.stdout).toMatch(/^[^\n]+\n1\n/);
    });
  });
});
