import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { computersPage, startFakeApi, type FakeApi } from '../helpers/fake-api.js';
import { expectRefusedBeforeSending, runMain } from '../helpers/run-main.js';
import { KEY } from './support.js';

/**
 * Numbers past the API's 32-bit integers were sent as `1e+23` or silently rounded, and an
 * empty --expand as `expand[]=`: refused before sending (exit 2), naming the option and limit.
 */
describe('whole numbers the API cannot take, and an empty --expand', () => {
  let api: FakeApi;
  let env: Record<string, string>;
  beforeAll(async () => {
    api = await startFakeApi(computersPage(3));
    env = { MON_BASE_URL: api.url, MON_API_KEY: KEY };
  });
  afterAll(() => api.close());
  beforeEach(() => {
    api.requests.length = 0;
  });

  it.each([
    ['--page', '99999999999999999999999'],
    ['--offset', '99999999999999999999999'],
    ['--page', '9007199254740993'],
    ['--limit', '2147483648'],
  ])('%s %s: exit 2, nothing sent', async (option, value) => {
    const result = await runMain(['computers', 'list', option, value], { env });
    expectRefusedBeforeSending(
      result,
      `${option}: must be at most 2147483647, the largest whole number the API takes (got '${value}')`,
      api.requests,
    );
  });

  it('the largest 32-bit value is sent exactly as typed', async () => {
    const result = await runMain(['computers', 'list', '--page', '2147483647', '--json'], { env });
    expect(result.code).toBe(0);
    expect(api.requests[0]!.query.get('page')).toBe('2147483647');
  });

  it('api --paginate with a page past 32 bits: exit 2, nothing sent', async () => {
    const result = await runMain(['api', 'get', '/computers', '-F', 'page=99999999999999999999999', '--paginate'], {
      env,
    });
    expectRefusedBeforeSending(
      result,
      '-F page=99999999999999999999999: must be a whole number from 1 to 2147483647',
      api.requests,
    );
  });

  it.each([[['--expand', '']], [['--expand', 'group', '--expand', '  ']]])(
    '%j: exit 2, nothing sent',
    async (expand) => {
      const result = await runMain(['computers', 'list', ...expand], { env });
      expectRefusedBeforeSending(
        result,
        "--expand: give a key to expand (got '') — e.g. --expand group or --expand plugin_results",
        api.requests,
      );
    },
  );

  it("--base-url '' beside MON_BASE_URL: exit 2 naming the flag, not 'no base URL'", async () => {
    const result = await runMain(['--base-url', '', 'computers', 'list'], { env });
    expectRefusedBeforeSending(
      result,
      "--base-url: give a URL (got '') — e.g. --base-url https://acme.monitoring.example.com",
      api.requests,
    );
  });
});
