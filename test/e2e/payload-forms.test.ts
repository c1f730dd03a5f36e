/**
 * mon reads every form the API reference allows for the fields its tables and samples disagree
 * on, and shows them the same way (#13, item 2): the sandbox serves the samples' form, and a
 * server in test/helpers rewrites the same data into the field tables' form and into ISO 8601
 * times. Each command's output must be the same from all three.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type RunningSandbox } from '../../src/sandbox/server.js';
import type { FakeApi } from '../helpers/fake-api.js';
import { startPayloadFormServer } from '../helpers/payload-forms.js';
import { runMain } from '../helpers/run-main.js';

type Item = Record<string, unknown>;

let sandbox: RunningSandbox;
let table: FakeApi;
let iso: FakeApi;
let timedClientId: string;
let ardClientId: string;

async function read(path: string): Promise<any> {
  return (await fetch(`${sandbox.url}${path}${path.includes('?') ? '&' : '?'}api_key=${sandbox.apiKey}`)).json();
}

beforeAll(async () => {
  sandbox = await startSandbox({ port: 0 });
  table = await startPayloadFormServer(sandbox, 'table');
  iso = await startPayloadFormServer(sandbox, 'iso');
  const computers = (await read('/v2.5/computers?per_page=100&expand[]=plugin_results')) as Item[];
  timedClientId = computers.find((c) => (c.plugin_results as Item[]).some((pr) => pr.mute_type === 'timed_mute'))
    ?.client_id as string;
  ardClientId = computers.find((c) => c.ard_field1 !== null)?.client_id as string;
});
afterAll(async () => {
  await table.close();
  await iso.close();
  await sandbox.close();
});

/** The same command line against the sandbox (samples' form), the tables' form and ISO times. */
async function everyForm(args: string[]): Promise<string[]> {
  const outputs: string[] = [];
  for (const url of [sandbox.url, table.url, iso.url]) {
    const result = await runMain(args, { env: { MON_BASE_URL: url, MON_API_KEY: sandbox.apiKey, TZ: 'Europe/Paris' } });
    expect(result.stderr, `${args.join(' ')} against ${url}`).toBe('');
    expect(result.code).toBe(0);
    outputs.push(result.stdout);
  }
  return outputs;
}

function expectSame(outputs: string[]): string {
  const [samples, tables, isoTimes] = outputs;
  expect(tables, 'field tables form').toBe(samples);
  expect(isoTimes, 'ISO 8601 times').toBe(samples);
  return samples as string;
}

const COMPUTER_KEYS =
  'client_id,last_report,last_update,registration_date,boot_volume_usage_percent,ard_field_1,ard_field2';

describe('mon shows each payload form the same way', () => {
  it('the servers really answer in different forms', async () => {
    const [samples, tables, isoTimes] = await Promise.all(
      [sandbox.url, table.url, iso.url].map(
        async (url) =>
          (await (await fetch(`${url}/v2.5/computers/${ardClientId}?api_key=${sandbox.apiKey}`)).json()) as Item,
      ),
    );
    expect(typeof samples?.boot_volume_usage_percent).toBe('string');
    expect(typeof tables?.boot_volume_usage_percent).toBe('number');
    expect(samples?.ard_field1).toBe(tables?.ard_field_1);
    expect(typeof isoTimes?.last_report).toBe('string');
    expect(typeof samples?.last_report).toBe('number');
  });

  it('computers list in a table, csv and --fields', async () => {
    expectSame(await everyForm(['computers', 'list', '--all']));
    const csv = expectSame(await everyForm(['computers', 'list', '--all', '-o', 'csv', '--fields', COMPUTER_KEYS]));
    const rows = csv.trim().split('\n');
    expect(rows[0]).toBe(COMPUTER_KEYS);
    expect(rows[1]).toMatch(
      /^[0-9A-F-]{36},\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ,\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ,\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ,\d+(\.\d+)?,/,
    );
    expect(rows.some((row) => /,[A-Z]+,(Laptop|Desktop)$/.test(row))).toBe(true);
    const shown = expectSame(await everyForm(['computers', 'list', '--all', '--fields', COMPUTER_KEYS]));
    expect(shown).toMatch(/\d+(\.\d)?%/);
  });

  it('computers get, as a table and as JSON with --fields under either spelling', async () => {
    const vertical = expectSame(await everyForm(['computers', 'get', ardClientId, '--fields', COMPUTER_KEYS]));
    expect(vertical).toMatch(/ARD FIELD 1\s+\S+/);
    const asJson = await everyForm([
      'computers',
      'get',
      ardClientId,
      '-o',
      'json',
      '--fields',
      'ard_field_1,ard_field2',
    ]);
    const parsed = asJson.map((out) => JSON.parse(out) as Item);
    for (const obj of parsed) {
      expect(Object.keys(obj)).toEqual(['ard_field_1', 'ard_field2']);
      expect(obj.ard_field_1).toBe(parsed[0]?.ard_field_1);
      expect(obj.ard_field_1).toEqual(expect.any(String));
    }
  });

  it('plugin list: the mute column and mute_until under either spelling', async () => {
    const shown = expectSame(await everyForm(['plugin', 'list', timedClientId]));
    expect(shown).toMatch(/until \d{4}-\d\d-\d\d \d\d:\d\d/);
    const csv = expectSame(
      await everyForm(['plugin', 'list', timedClientId, '-o', 'csv', '--fields', 'uid,mute_until,muted_until']),
    );
    expect(csv).toMatch(/pr_\w+,(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ),\1/);
  });

  it('notes: include_in_report under either spelling', async () => {
    const csv = expectSame(
      await everyForm([
        'notes',
        'list',
        '--include-private',
        '-o',
        'csv',
        '--fields',
        'uid,include_in_report,included_in_report',
      ]),
    );
    expect(csv).toMatch(/n_\w+,true,true/);
    expect(csv).toMatch(/n_\w+,false,false/);
  });
});
