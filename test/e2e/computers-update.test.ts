import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startSandbox, type RunningSandbox } from '../../src/sandbox/server.js';
import { runMain } from '../helpers/run-main.js';

type Item = Record<string, unknown>;

describe('computers update against the sandbox', () => {
  let sandbox: RunningSandbox;
  let env: Record<string, string>;
  let clientId: string;

  const get = async (path: string): Promise<any> =>
    (await fetch(`${sandbox.url}${path}${path.includes('?') ? '&' : '?'}api_key=${sandbox.apiKey}`)).json();
  const form = () => {
    const { api_key: key, ...rest } = sandbox.requests[0]!.form;
    expect(key).toBe(sandbox.apiKey);
    return rest;
  };

  beforeAll(async () => {
    sandbox = await startSandbox({ port: 0 });
    env = { MON_BASE_URL: sandbox.url, MON_API_KEY: sandbox.apiKey };
    clientId = ((await get('/v2.5/computers?per_page=1')) as Item[])[0]!.client_id as string;
  });
  beforeEach(() => {
    sandbox.requests.length = 0;
  });
  afterAll(() => sandbox.close());

  it.each([
    [['--asset-id', 'A-1042'], 'computer[asset_id]', 'A-1042', { asset_id: 'A-1042' }],
    [['--custom-name', 'Reception iMac'], 'computer[custom_name]', 'Reception iMac', { custom_name: 'Reception iMac' }],
    [['--description', 'Front desk'], 'computer[description]', 'Front desk', { description: 'Front desk' }],
    [
      ['--reference-email', 'desk@example.com'],
      'computer[reference_email]',
      'desk@example.com',
      { reference_email_computer: 'desk@example.com' },
    ],
    [
      ['--product-description', 'iMac (24-inch, 2023)'],
      'computer[product_description]',
      'iMac (24-inch, 2023)',
      { product_description: 'iMac (24-inch, 2023)' },
    ],
    [
      ['--estimated-manufacture-date', '2023-03-15'],
      'computer[estimated_manufacture_date]',
      '2023-03-15',
      { estimated_manufacture_date: Date.parse('2023-03-15T00:00:00Z') / 1000 },
    ],
    [['--beacon-reporting'], 'computer[beacon_reporting]', 'true', { beacon_reporting: true }],
    [['--no-beacon-reporting'], 'computer[beacon_reporting]', 'false', { beacon_reporting: false }],
    [
      ['--beacon-missing-threshold', '2'],
      'computer[beacon_missing_threshold_in_minutes]',
      '2',
      { beacon_missing_threshold_in_minutes: 2 },
    ],
    [
      ['--beacon-missing-threshold', '30'],
      'computer[beacon_missing_threshold_in_minutes]',
      '30',
      { beacon_missing_threshold_in_minutes: 30 },
    ],
    [
      ['--create-ticket-on-beacon-found'],
      'computer[create_ticket_on_beacon_found]',
      'true',
      { create_ticket_on_beacon_found: true },
    ],
    [
      ['--no-create-ticket-on-beacon-found'],
      'computer[create_ticket_on_beacon_found]',
      'false',
      { create_ticket_on_beacon_found: false },
    ],
  ])('%j is sent as %s=%s', async (flags, key, value, expected) => {
    const result = await runMain(['computers', 'update', clientId, ...flags, '--json'], { env });
    expect(result.code).toBe(0);
    expect(result.stderr).toBe(`Computer ${clientId} updated.\n`);
    expect(sandbox.requests).toHaveLength(1);
    expect(sandbox.requests[0]).toMatchObject({
      method: 'PUT',
      path: `/v2.5/computers/${clientId}`,
      query: {},
      status: 200,
    });
    expect(form()).toEqual({ [key]: value });
    expect(JSON.parse(result.stdout)).toMatchObject({ client_id: clientId, ...expected });
  });

  it('several attributes go in one PUT; the printed computer is what a GET then returns', async () => {
    const result = await runMain(
      [
        'computers',
        'update',
        clientId,
        '--asset-id',
        'A-7',
        '--custom-name',
        'Lab 7',
        '--beacon-missing-threshold',
        '15',
        '--json',
      ],
      { env },
    );
    expect(result.code).toBe(0);
    expect(form()).toEqual({
      'computer[asset_id]': 'A-7',
      'computer[custom_name]': 'Lab 7',
      'computer[beacon_missing_threshold_in_minutes]': '15',
    });
    expect(JSON.parse(result.stdout)).toEqual(await get(`/v2.5/computers/${clientId}`));
  });

  it('an unknown client id exits 4', async () => {
    const result = await runMain(['computers', 'update', 'NO-SUCH-CLIENT', '--asset-id', 'x'], { env });
    expect(result.code).toBe(4);
    expect(result.stderr).toMatch(/^mon: PUT \/v2\.5\/computers\/NO-SUCH-CLIENT: 404/);
  });

  it.each([
    ['nothing to update', [], /nothing to update: give at least one attribute option/],
    [
      'a --custom-name of 192 characters',
      ['--custom-name', 'n'.repeat(192)],
      /--custom-name: at most 191 characters \(got 192\)/,
    ],
    ['an --asset-id of 192 characters', ['--asset-id', 'a'.repeat(192)], /--asset-id: at most 191 characters/],
    [
      'a --description of 65536 characters',
      ['--description', 'd'.repeat(65_536)],
      /--description: at most 65535 characters/,
    ],
    [
      'a --reference-email that is not one',
      ['--reference-email', 'desk'],
      /--reference-email: 'desk' is not an e-mail address/,
    ],
    [
      'an impossible date',
      ['--estimated-manufacture-date', '2023-02-30'],
      /--estimated-manufacture-date: '2023-02-30' does not exist: February 2023 has 28 days — /,
    ],
    [
      'a date in another form',
      ['--estimated-manufacture-date', '15/03/2023'],
      /--estimated-manufacture-date: '15\/03\/2023' is not a date/,
    ],
    [
      'a threshold not listed (3)',
      ['--beacon-missing-threshold', '3'],
      /--beacon-missing-threshold: '3' is not one of 2, 5, 10, 15, 20, 30/,
    ],
    [
      'a threshold not listed (60)',
      ['--beacon-missing-threshold', '60'],
      /--beacon-missing-threshold: '60' is not one of 2, 5, 10, 15, 20, 30/,
    ],
  ])('%s: exit 2 naming the option, no request', async (_name, flags, message) => {
    const result = await runMain(['computers', 'update', clientId, ...flags], { env });
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(message);
    expect(result.stdout).toBe('');
    expect(sandbox.requests).toEqual([]);
  });
});
