import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startSandbox, type RunningSandbox } from '../../src/sandbox/server.js';
import { runMain } from '../helpers/run-main.js';
import { setMute } from '../helpers/sandbox-http.js';
// The time zone belongs to the process: the two cases that change it spawn mon.
import { runMon } from '../helpers/run-mon.js';

type Item = Record<string, unknown>;

const MUTE = 'plugin_result[mute_type]';
const UNTIL = 'plugin_result[mute_until]';
const TICKET = 'plugin_result[ticket_number]';
const TICKET_URL = 'plugin_result[ticket_url]';
/** Seconds of slack between the test's clock and mon's, for "now + 2h" style values. */
const SLACK = 60;
const nowSec = () => Math.floor(Date.now() / 1000);

async function fetchJson(sandbox: RunningSandbox, path: string): Promise<any> {
  return (await fetch(`${sandbox.url}${path}${path.includes('?') ? '&' : '?'}api_key=${sandbox.apiKey}`)).json();
}

describe('plugin mute and unmute against the sandbox', () => {
  let sandbox: RunningSandbox;
  let env: Record<string, string>;
  let clientId: string;
  let uid: string;
  const current = async (): Promise<Item> => {
    const computer = await fetchJson(sandbox, `/v2.5/computers/${clientId}?expand[]=plugin_results`);
    return (computer.plugin_results as Item[]).find((p) => p.uid === uid)!;
  };
  /** The PUTs sent; a --timed mute reads first whether it would shorten a mute in force. */
  const puts = () => sandbox.requests.filter((r) => r.method === 'PUT');
  const form = (index = 0) => {
    const { api_key: key, ...rest } = puts()[index]!.form;
    expect(key).toBe(sandbox.apiKey);
    return rest;
  };

  beforeAll(async () => {
    sandbox = await startSandbox({ port: 0 });
    env = { MON_BASE_URL: sandbox.url, MON_API_KEY: sandbox.apiKey, TZ: 'UTC' };
    const [computer] = (await fetchJson(sandbox, '/v2.5/computers?per_page=1&expand[]=plugin_results')) as Item[];
    clientId = computer!.client_id as string;
    uid = (computer!.plugin_results as Item[]).find((p) => p.visible !== false)!.uid as string;
  });
  // Each case starts from the result unmuted.
  beforeEach(async () => {
    await setMute(sandbox, uid, { mute_type: 'none' });
    sandbox.requests.length = 0;
  });
  afterAll(() => sandbox.close());

  it('--timed 2h PUTs mute_type timed and mute_until now+7200, and says when it ends in local time', async () => {
    const before = nowSec();
    const result = await runMain(['plugin', 'mute', uid, '--timed', '2h', '--json'], { env });
    expect(result.code).toBe(0);
    expect(puts()).toHaveLength(1);
    expect(puts()[0]).toMatchObject({ method: 'PUT', path: `/v2.5/plugin_results/${uid}`, status: 200, query: {} });
    // It was not muted: what it read (the computers with a muted plugin) found nothing to shorten.
    expect(
      sandbox.requests.slice(0, -1).every((r) => r.method === 'GET' && r.query.status === 'has_muted_plugin'),
    ).toBe(true);
    expect(sandbox.requests.at(-1)!.method).toBe('PUT');
    const sent = form();
    expect(Object.keys(sent)).toEqual([MUTE, UNTIL]);
    expect(sent[MUTE]).toBe('timed');
    const until = Number(sent[UNTIL]);
    expect(until).toBeGreaterThanOrEqual(before + 7200);
    expect(until).toBeLessThanOrEqual(before + 7200 + SLACK);
    const printed = JSON.parse(result.stdout) as Item;
    expect(printed).toMatchObject({ uid, muted: true, mute_type: 'timed_mute', mute_until: until });
    expect(await current()).toEqual(printed);
    const end = new Date(until * 1000);
    const day = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'][end.getUTCDay()];
    const month = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'][
      end.getUTCMonth()
    ];
    const hhmm = end.toISOString().slice(11, 16);
    expect(result.stderr).toBe(
      `Muted ${uid} until ${day} ${end.getUTCDate()} ${month} ${end.getUTCFullYear()} ${hhmm} (local time)\n`,
    );
  });

  it('--timed without WHEN mutes for 24 hours', async () => {
    const before = nowSec();
    const result = await runMain(['plugin', 'mute', uid, '--timed', '-q', '--json'], { env });
    expect(result).toMatchObject({ code: 0, stderr: '' });
    const until = Number(form()[UNTIL]);
    expect(until).toBeGreaterThanOrEqual(before + 86_400);
    expect(until).toBeLessThanOrEqual(before + 86_400 + SLACK);
  });

  it('--timed with an ISO 8601 time sends exactly that instant; the confirmation shows it in the local zone', async () => {
    const result = await runMon(['plugin', 'mute', uid, '--timed', '2030-01-02T03:30:00Z'], {
      env: { ...env, TZ: 'Asia/Kolkata' },
    });
    expect(result.code).toBe(0);
    expect(form()).toEqual({ [MUTE]: 'timed', [UNTIL]: String(Date.parse('2030-01-02T03:30:00Z') / 1000) });
    // 03:30 UTC is 09:00 in India (UTC+5:30).
    expect(result.stderr).toBe(`Muted ${uid} until Wed 2 Jan 2030 09:00 (local time)\n`);
    expect(result.stdout).toMatch(
      /^UID\s+pr_\w+\nSTATUS\s+\w+\nNAME\s+.+\nLAST RUN\s+.+\nMUTE\s+until 2030-01-02 09:00\n$/,
    );
  });

  it('--timed with an ISO time without offset reads it as local time', async () => {
    const result = await runMon(['plugin', 'mute', uid, '--timed', '2030-01-02T09:00', '-q'], {
      env: { ...env, TZ: 'Asia/Kolkata' },
    });
    expect(result.code).toBe(0);
    expect(form()[UNTIL]).toBe(String(Date.parse('2030-01-02T03:30:00Z') / 1000));
  });

  it('--timed with epoch seconds sends them as given', async () => {
    const result = await runMain(['plugin', 'mute', uid, '--timed', '1893553440', '-q'], { env });
    expect(result).toMatchObject({ code: 0, stderr: '' });
    expect(form()).toEqual({ [MUTE]: 'timed', [UNTIL]: '1893553440' });
  });

  it('--timed with --ticket-url sends the URL too', async () => {
    const result = await runMain(
      ['plugin', 'mute', uid, '--timed', '90m', '--ticket-url', 'https://helpdesk.example.com/t/7', '-q'],
      { env },
    );
    expect(result.code).toBe(0);
    expect(Object.keys(form())).toEqual([MUTE, UNTIL, TICKET_URL]);
    expect(form()[TICKET_URL]).toBe('https://helpdesk.example.com/t/7');
  });

  it('--ticket NUMBER --ticket-url URL mutes under a ticket', async () => {
    const result = await runMain(
      ['plugin', 'mute', uid, '--ticket', '123', '--ticket-url', 'https://helpdesk.example.com/t/123', '--json'],
      { env },
    );
    expect(result.code).toBe(0);
    expect(form()).toEqual({ [MUTE]: 'ticket', [TICKET]: '123', [TICKET_URL]: 'https://helpdesk.example.com/t/123' });
    expect(JSON.parse(result.stdout)).toMatchObject({
      uid,
      muted: true,
      mute_type: 'ticket_muted',
      ticket_number: '123',
      ticket_url: 'https://helpdesk.example.com/t/123',
    });
    expect(result.stderr).toBe(`Muted ${uid} with ticket #123.\n`);
  });

  it('--ignore mutes until unmuted', async () => {
    const result = await runMain(['plugin', 'mute', uid, '--ignore', '--json'], { env });
    expect(result.code).toBe(0);
    expect(form()).toEqual({ [MUTE]: 'ignored' });
    expect(JSON.parse(result.stdout)).toMatchObject({ uid, muted: true, mute_type: 'muted_forever' });
    expect(result.stderr).toBe(`Muted ${uid} until it is unmuted.\n`);
  });

  it('unmute sends mute_type none and clears the mute', async () => {
    await runMain(['plugin', 'mute', uid, '--ticket', '77', '-q'], { env });
    expect(await current()).toMatchObject({ muted: true, mute_type: 'ticket_muted' });
    sandbox.requests.length = 0;
    const result = await runMain(['plugin', 'unmute', uid, '--json'], { env });
    expect(result.code).toBe(0);
    expect(sandbox.requests).toHaveLength(1);
    expect(sandbox.requests[0]).toMatchObject({ method: 'PUT', path: `/v2.5/plugin_results/${uid}`, status: 200 });
    expect(form()).toEqual({ [MUTE]: 'none' });
    expect(result.stderr).toBe(`Unmuted ${uid}.\n`);
    const after = await current();
    expect(after).toMatchObject({ muted: false });
    expect(after).not.toHaveProperty('ticket_number');
    expect(JSON.parse(result.stdout)).toEqual(after);
  });

  describe('--timed on a result whose mute it would end sooner', () => {
    const later = () => nowSec() + 7 * 86_400;
    it.each([
      ['muted for good', { mute_type: 'ignored' }, 'muted for good', 'muted_forever'],
      [
        'muted under a ticket',
        { mute_type: 'ticket', ticket_number: '4711' },
        'muted under ticket #4711',
        'ticket_muted',
      ],
      ['muted for 7 days', () => ({ mute_type: 'timed', mute_until: later() }), 'muted until ', 'timed_mute'],
    ] as const)(
      '%s: without a terminal, says what the mute is and becomes, exit 2 naming --yes, no PUT',
      async (_label, attributes, was, type) => {
        const before = await setMute(sandbox, uid, typeof attributes === 'function' ? attributes() : attributes);
        sandbox.requests.length = 0;
        const result = await runMain(['plugin', 'mute', uid, '--timed', '1h'], { env });
        expect(result.code).toBe(2);
        expect(result.stdout).toBe('');
        const lines = result.stderr.split('\n');
        expect(lines[0]).toMatch(
          new RegExp(
            `^${uid} is ${was}.*; --timed would shorten that to a mute until \\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d \\(local time\\)$`,
          ),
        );
        expect(lines[1]).toMatch(
          new RegExp(
            `^mon: refusing to shorten the mute of ${uid} without --yes: no terminal to confirm on — add --yes`,
          ),
        );
        expect(puts()).toEqual([]);
        const after = await current();
        expect(after).toMatchObject({ muted: true, mute_type: type });
        expect(after.mute_until).toBe(before.mute_until);
      },
    );

    it('muted for good, with --yes: says it and shortens it to the time given', async () => {
      await setMute(sandbox, uid, { mute_type: 'ignored' });
      sandbox.requests.length = 0;
      const result = await runMain(['plugin', 'mute', uid, '--timed', '1h', '--yes', '--json'], { env });
      expect(result.code).toBe(0);
      expect(result.stderr).toMatch(
        new RegExp(
          `^${uid} is muted for good; --timed shortens that to a mute until .+ \\(local time\\)\nMuted ${uid} until `,
        ),
      );
      expect(form()).toMatchObject({ [MUTE]: 'timed' });
      expect(await current()).toMatchObject({ muted: true, mute_type: 'timed_mute' });
    });

    it('a timed mute made longer, or --ignore on one for good, goes without asking', async () => {
      await setMute(sandbox, uid, { mute_type: 'timed', mute_until: nowSec() + 600 });
      const longer = await runMain(['plugin', 'mute', uid, '--timed', '2h', '-q'], { env });
      expect(longer).toMatchObject({ code: 0, stderr: '' });
      expect(await current()).toMatchObject({ mute_type: 'timed_mute' });
      await setMute(sandbox, uid, { mute_type: 'ignored' });
      sandbox.requests.length = 0;
      const forGood = await runMain(['plugin', 'mute', uid, '--ignore', '-q'], { env });
      expect(forGood).toMatchObject({ code: 0, stderr: '' });
      // --ignore and --ticket never end a mute sooner: nothing is read first.
      expect(sandbox.requests.map((r) => r.method)).toEqual(['PUT']);
    });
  });

  it('--dry-run shows the PUT with the key redacted and sends nothing', async () => {
    const result = await runMain(['plugin', 'mute', uid, '--timed', '1893553440', '--dry-run'], { env });
    expect(result.code).toBe(0);
    expect(result.stdout).toBe(
      `PUT ${sandbox.url}/v2.5/plugin_results/${uid}\n${MUTE}=timed\n${UNTIL}=1893553440\napi_key=[REDACTED]\n`,
    );
    expect(sandbox.requests).toEqual([]);
  });

  it('an unknown plugin result exits 4', async () => {
    const result = await runMain(['plugin', 'unmute', 'pr_nosuchresult'], { env });
    expect(result.code).toBe(4);
    expect(result.stderr).toMatch(/^mon: PUT \/v2\.5\/plugin_results\/pr_nosuchresult: 404/);
  });

  it.each([
    ['no mode', [], /give one of --timed, --ticket, --ignore/],
    ['two modes', ['--timed', '2h', '--ignore'], /give only one of --timed and --ignore/],
    ['--ticket with --ignore', ['--ticket', '1', '--ignore'], /give only one of --ticket and --ignore/],
    [
      '--ticket-url with --ignore',
      ['--ignore', '--ticket-url', 'https://x.example/1'],
      /--ignore and --ticket-url cannot be used together/,
    ],
    ['a time in the past', ['--timed', '2020-01-01T00:00:00Z'], /--timed: must lie in the future/],
    ['past epoch seconds', ['--timed', '1000000000'], /--timed: must lie in the future/],
    [
      'an unreadable WHEN',
      ['--timed', 'tomorrow'],
      /--timed: 'tomorrow' is not a duration \(90m, 2h, 7d\), an ISO 8601 time or epoch seconds/,
    ],
    ['a time past 2038', ['--timed', '2040-01-01'], /--timed: must be before 2038-01-19/],
    ['an empty ticket', ['--ticket', ' '], /--ticket: must not be empty/],
    ['a ticket of 256 characters', ['--ticket', '1'.repeat(256)], /--ticket: at most 255 characters/],
    [
      'a ticket URL that is not a URL',
      ['--ticket', '1', '--ticket-url', 'helpdesk/1'],
      /--ticket-url: 'helpdesk\/1' is not an http\(s\) URL/,
    ],
  ])('%s: exit 2 naming the option, no request', async (_name, extra, message) => {
    const result = await runMain(['plugin', 'mute', uid, ...extra], { env });
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(message);
    expect(result.stdout).toBe('');
    expect(sandbox.requests).toEqual([]);
  });

  it.each([[['mute', 'c_123', '--ignore']], [['unmute', 'c_123']]])(
    '%j refuses a uid that is not a plugin result',
    async (words) => {
      const result = await runMain(['plugin', ...words], { env });
      expect(result.code).toBe(2);
      expect(result.stderr).toMatch(/<uid>: 'c_123' is not a plugin result uid \(they start with pr_\)/);
      expect(sandbox.requests).toEqual([]);
    },
  );
});

describe('plugin mute --ticket without a ticket integration', () => {
  let sandbox: RunningSandbox;
  beforeAll(async () => {
    sandbox = await startSandbox({ port: 0, ticketIntegration: false, computers: 2 });
  });
  afterAll(() => sandbox.close());

  it('the 422 exits 5 naming ticket_number', async () => {
    const [computer] = (await fetchJson(sandbox, '/v2.5/computers?per_page=1&expand[]=plugin_results')) as Item[];
    const uid = (computer!.plugin_results as Item[])[0]!.uid as string;
    const result = await runMain(['plugin', 'mute', uid, '--ticket', '5'], {
      env: { MON_BASE_URL: sandbox.url, MON_API_KEY: sandbox.apiKey },
    });
    expect(result.code).toBe(5);
    expect(result.stderr).toMatch(/^mon: PUT \/v2\.5\/plugin_results\/pr_\w+: 422 .*ticket_number/);
    expect(result.stdout).toBe('');
  });
});

describe('--timed with a date, in the time zone of the machine', () => {
  it('a date alone is its local midnight, as the same date at 00:00 is (TZ=America/New_York: 05:00 UTC)', async () => {
    const env = { TZ: 'America/New_York' };
    const [day, midnight] = await Promise.all([
      runMon(['--sandbox', '--dry-run', 'plugin', 'mute', 'pr_1', '--timed', '2030-01-01'], { env }),
      runMon(['--sandbox', '--dry-run', 'plugin', 'mute', 'pr_1', '--timed', '2030-01-01T00:00'], { env }),
    ]);
    for (const result of [day, midnight]) {
      expect(result.code).toBe(0);
      expect(result.stdout).toContain(`plugin_result[mute_until]=${Date.UTC(2030, 0, 1, 5) / 1000}\n`);
    }
  });

  it('a day that does not exist is exit 2 naming it, not the next month', async () => {
    const result = await runMon(['--sandbox', 'plugin', 'mute', 'pr_1', '--timed', '2030-02-31']);
    expect(result).toMatchObject({
      code: 2,
      stdout: '',
      stderr:
        "mon: --timed: '2030-02-31' does not exist: February 2030 has 28 days — the form is right, check the day\n",
    });
  });
});
