import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { main } from '../../src/main.js';
import { json, startFakeApi, type FakeApi } from '../helpers/fake-api.js';
import { EXAMPLES } from '../helpers/examples.js';
import { runMain } from '../helpers/run-main.js';
import { tempConfigDir } from '../helpers/run-mon.js';

/**
 * Names are the customers' own: a group or plugin named with escape sequences must reach the
 * terminal as visible escapes, never acted on. Every example of every verb's help runs against a
 * server whose every name, detail and title holds ESC, BEL, a CSI, an OSC and C1 controls; no
 * raw control character (but the line feed, and the tab of TSV) may come out on either stream.
 */

/** ESC ] 0 ; … BEL sets the window title, ESC [ 2 J clears the screen, 0x9b is CSI in C1, 0x85 NEL. */
const HOSTILE = 'Evil\x1b]0;pwned\x07\x1b[2J\x9b31m\x85\x1b[1Aend';
const RAW = /[\x00-\x08\x0b-\x1f\x7f-\x9f]/;

const result = (n: number, status: string) => ({
  uid: `pr_${n}`,
  name: `${HOSTILE} ${n}`,
  slug: `evil-${n}`,
  status,
  details: HOSTILE,
  last_run: 1_790_000_000,
  muted: false,
  visible: true,
});
/** One object for every resource: each name-like field of each kind hostile. */
const item = (n: number) => ({
  uid: `x_${n}`,
  id: n,
  name: `${HOSTILE} ${n}`,
  slug: `evil-${n}`,
  description: HOSTILE,
  computer_name: HOSTILE,
  custom_name: `${HOSTILE} ${n}`,
  client_id: `CLIENT-${n}`,
  os_version: HOSTILE,
  platform: 'mac',
  group: 'x_1',
  last_report: 1_790_000_000,
  created_at: 1_780_000_000,
  missing: n === 2,
  hidden: false,
  pending_removal: false,
  plugin_results: [result(n * 10 + 1, 'Alert'), result(n * 10 + 2, 'Warning'), result(n * 10 + 3, 'OK')],
  body: HOSTILE,
  title: HOSTILE,
  email: `evil${n}@example.com`,
  firstname: HOSTILE,
  lastname: HOSTILE,
  role: HOSTILE,
  license_key: HOSTILE,
  notes: HOSTILE,
  expires_at: 1_790_500_000,
  expiration_manufacturer_id: 'x_1',
  expiration_product_id: 'x_2',
  computer: 'x_1',
  renewable: true,
});

describe('hostile names reach no terminal raw, in any command', { timeout: 120_000 }, () => {
  let api: FakeApi;
  let dir: string;
  beforeAll(async () => {
    api = await startFakeApi((req, res) => {
      if (req.method === 'DELETE') {
        res.writeHead(204).end();
        return;
      }
      // A path the fake does not know: the API's error body, its title hostile too.
      if (req.path.includes('/nothing'))
        return json(res, 404, [{ status_code: 404, code: ':not_found', title: HOSTILE, details: HOSTILE }]);
      const list = req.method === 'GET' && /^\/v2\.5\/[a-z_]+$/.test(req.path);
      if (list)
        return json(res, 200, [item(1), item(2)], {
          'x-total': '2',
          'x-total-pages': '1',
          'x-per-page': '100',
          'x-page': '1',
          'x-next-page': '',
        });
      if (req.path.startsWith('/v2.5/plugin_results/'))
        return json(res, 200, { ...result(1, 'Alert'), muted: true, mute_type: 'ignored' });
      json(res, 200, item(1));
    });
    dir = tempConfigDir();
    for (const name of ['acme', 'northwind']) {
      const added = await runMain(['profile', 'add', name, '--base-url', api.url, '--api-key-stdin'], {
        env: { MON_CONFIG_DIR: dir },
        input: 'k_hostile_names_0001',
      });
      expect(added.code).toBe(0);
    }
  });
  afterAll(() => api.close());

  const lines: [string, string[]][] = [
    // The servers run until stopped: the sandbox's data is its own; `events listen` shows what
    // senders post (test/events/units.test.ts holds its hostile names to one escaped line), and
    // `metrics serve` escapes labels as `status -o openmetrics` does (below).
    // A report's folder goes to a temporary one, not into the working directory.
    ...EXAMPLES.filter(([, args]) => !['sandbox', 'events'].includes(args[0]!) && !args.includes('serve')).map(
      ([line, args]): [string, string[]] => [
        line,
        args.map((arg, i) => (args[i - 1] === '--output-dir' ? tempConfigDir() : arg)),
      ],
    ),
    ['status (one account)', ['status']],
    ['status --all-profiles', ['--all-profiles', 'status']],
    ['status --profiles', ['--profiles', 'acme,northwind', 'status']],
    ['status --group (a hostile scope)', ['status', '--group', 'x_1']],
    ['status -o openmetrics', ['status', '-o', 'openmetrics']],
    ['status -o openmetrics --all-profiles', ['--all-profiles', 'status', '-o', 'openmetrics']],
    ['groups list --all', ['groups', 'list', '--all']],
    ['an error title', ['api', 'GET', '/nothing']],
    ['groups get of an error', ['groups', 'get', 'nothing']],
  ];

  it.each(lines)('%s', { timeout: 20_000 }, async (_line, args) => {
    const run = await runMain(args, { env: { MON_CONFIG_DIR: dir }, input: '' });
    expect(run.stdout).not.toMatch(RAW);
    expect(run.stderr).not.toMatch(RAW);
  });

  it('on a terminal (colour on): nothing raw but the colours mon writes itself', async () => {
    for (const args of [['status'], ['--all-profiles', 'status'], ['alerts'], ['groups', 'list']]) {
      let stdout = '';
      let stderr = '';
      const io = {
        stdout: { write: (chunk: string) => (stdout += chunk), isTTY: true, columns: 200 },
        stderr: { write: (chunk: string) => (stderr += chunk), isTTY: true },
        stdin: Object.assign(Readable.from([]), { isTTY: false }),
      };
      const code = await main(args, { io, env: { PATH: process.env.PATH, HOME: dir, MON_CONFIG_DIR: dir } });
      expect(code).toBe(0);
      // SGR colours and the progress line's own erase are mon's; anything else is not.
      const own = /\x1b\[[0-9;]*m|\r\x1b\[K|\r/g;
      expect(stdout.replace(own, '')).not.toMatch(RAW);
      expect(stderr.replace(own, '')).not.toMatch(RAW);
    }
  });

  it('the names are shown, escaped (status, one account and several)', async () => {
    for (const args of [['status'], ['--all-profiles', 'status']]) {
      const run = await runMain(args, { env: { MON_CONFIG_DIR: dir } });
      expect(run.code).toBe(0);
      expect(run.stdout).toContain('Evil\\e]0;pwned\\x07\\e[2J\\x9b31m\\x85\\e[1Aend');
      expect(run.stdout).toMatch(/Plugins with the most unmuted alerts\n {2}Evil\\e/);
    }
  });
});
