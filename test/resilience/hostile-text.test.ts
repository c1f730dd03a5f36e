import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { apiError, json, startFakeApi, type FakeApi } from '../helpers/fake-api.js';
import { runMain } from '../helpers/run-main.js';
import { KEY } from './support.js';
import { resolveColumns } from '../../src/output/columns.js';

/**
 * Text a terminal would act on: escape sequences and line breaks in what a server sends (names,
 * error titles) and in what a user typed that an error quotes. Shown escaped in tables, TSV,
 * CSV and error lines, one line per message; JSON stays exactly as received.
 */

/** Anything a terminal acts on: C0 (but the line feeds ending lines), DEL, C1. */
const RAW_CONTROL = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f]/;

const hostileName = 'Acme\u001b[2J\u001b]0;owned\u0007\r\nX-Evil: 1\u202e';
const group = { uid: 'g_1', name: hostileName, slug: 'acme' };

describe('server text is shown escaped, JSON exact', () => {
  let api: FakeApi;
  let env: Record<string, string>;
  beforeAll(async () => {
    api = await startFakeApi((_req, res) => json(res, 200, [group], { 'x-total': '1', 'x-total-pages': '1' }));
    env = { MON_BASE_URL: api.url, MON_API_KEY: KEY };
  });
  afterAll(() => api.close());
  beforeEach(() => {
    api.requests.length = 0;
  });

  it('a 422 whose title holds OSC, CSI and CR/LF: one stderr line with the sequences escaped', async () => {
    api.handle((_req, res) =>
      apiError(res, 422, 'Invalid\u001b]0;pwned\u0007 name\u001b[31m\r\nmon: all good', 'details\u009b2J'),
    );
    const result = await runMain(['groups', 'update', 'g_1', '--name', 'Acme'], { env });
    expect(result.code).toBe(5);
    expect(result.stderr).toBe(
      'mon: PUT /v2.5/groups/g_1: 422 Invalid\\e]0;pwned\\x07 name\\e[31m\\r\\nmon: all good: details\\x9b2J\n',
    );
    expect(result.stderr).not.toMatch(RAW_CONTROL);
  });

  it('a group name holding ESC[2J: escaped in a table, in TSV and in CSV; exact in JSON', async () => {
    api.handle((_req, res) => json(res, 200, [group], { 'x-total': '1', 'x-total-pages': '1' }));
    const table = await runMain(['groups', 'list', '--fields', 'uid,name'], { env });
    expect(table.code).toBe(0);
    expect(table.stdout).toContain('Acme\\e[2J\\e]0;owned\\x07 X-Evil: 1\\u202e');
    expect(table.stdout).not.toMatch(RAW_CONTROL);
    expect(table.stdout).not.toContain('\u202e');

    const tsv = await runMain(['groups', 'list', '-o', 'tsv', '--fields', 'uid,name', '--no-header'], { env });
    expect(tsv.stdout).toBe('g_1\tAcme\\e[2J\\e]0;owned\\x07 X-Evil: 1\\u202e\n');

    const csv = await runMain(['groups', 'list', '-o', 'csv', '--fields', 'uid,name', '--no-header'], { env });
    expect(csv.stdout).toBe('g_1,"Acme\\e[2J\\e]0;owned\\x07\r\nX-Evil: 1\\u202e"\n');

    const asJson = await runMain(['groups', 'list', '--json'], { env });
    expect(JSON.parse(asJson.stdout)).toEqual([group]);
  });

  it("a key shown as a table label is escaped too (a listing of an object's own keys)", () => {
    expect(resolveColumns([{ key: 'evil\u001b[2J_key' }]).map((c) => c.header)).toEqual(['EVIL\\e[2J KEY']);
  });
});

describe('user input quoted in an error stays on one line, and nothing is sent', () => {
  let api: FakeApi;
  let env: Record<string, string>;
  beforeAll(async () => {
    api = await startFakeApi((_req, res) => json(res, 200, group));
    env = { MON_BASE_URL: api.url, MON_API_KEY: KEY };
  });
  afterAll(() => api.close());

  it.each([
    [
      ['notes', 'get', 'n_\r\nX-Injected: 1'],
      "mon: <uid>: 'n_\\r\\nX-Injected: 1' is not a note uid (they start with n_)\n",
    ],
    [['computers', 'list', '--status', 'missing\n'], "mon: --status: 'missing\\n' is not one of "],
    [['plugin', 'mute', 'pr_1', '--timed', '\n'], "mon: --timed: '\\n' is not a duration"],
    [
      ['profile', 'add', 'a\nb', '--base-url', 'https://acme.example.com', '--api-key-stdin'],
      "mon: <name>: 'a\\nb' is not a profile name",
    ],
    [['groups', 'get', 'g_1', '--base-url', 'https://acme.example.com\r\nX: 1'], 'mon: '],
  ])('mon %j', async (args, start) => {
    const result = await runMain(args, { env, input: KEY });
    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr.startsWith(start)).toBe(true);
    expect(result.stderr.split('\n')).toHaveLength(2);
    expect(result.stderr.slice(0, -1)).not.toMatch(RAW_CONTROL);
    expect(api.requests).toEqual([]);
  });

  it('a MON_BASE_URL with CRLF: one line', async () => {
    const result = await runMain(['groups', 'get', 'g_1'], {
      env: { MON_BASE_URL: 'https://acme.example.com\r\nHost: evil', MON_API_KEY: KEY },
    });
    expect(result.code).toBe(2);
    expect(result.stderr.split('\n')).toHaveLength(2);
    expect(result.stderr.slice(0, -1)).not.toMatch(RAW_CONTROL);
  });
});
