import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiError, json, startFakeApi, type FakeApi } from '../helpers/fake-api.js';
import { EXAMPLES } from '../helpers/examples.js';
import { runMain } from '../helpers/run-main.js';
import { tempConfigDir } from '../helpers/run-mon.js';

/**
 * --dry-run sends nothing, in every command: each example of every verb's help runs with
 * --dry-run against a server that records what it receives. The one documented exception is a
 * bulk mute by selectors, which sends the reads its plan needs (GETs) and no write.
 */

describe('--dry-run sends nothing, in every command', { timeout: 120_000 }, () => {
  let api: FakeApi;
  beforeAll(async () => {
    // An empty list for a read (a bulk plan finds nothing quickly), an error for anything else.
    api = await startFakeApi((req, res) =>
      req.method === 'GET'
        ? json(res, 200, [], { 'x-total': '0' })
        : apiError(res, 500, 'Dry run broken', `${req.method} ${req.path} was sent`),
    );
  });
  afterAll(() => api.close());

  it('walks every verb', () => expect(EXAMPLES.length).toBeGreaterThan(60));

  it.each(EXAMPLES)('%s', { timeout: 8000 }, async (_line, args) => {
    const before = api.requests.length;
    const dir = tempConfigDir();
    const run = await runMain(['--dry-run', ...args], {
      env: { MON_BASE_URL: api.url, MON_API_KEY: 'k_dry_run_every_0001', MON_CONFIG_DIR: dir },
      input: '',
    });
    const sent = api.requests.slice(before);
    const bulk = /^plugin (un)?mute$/.test(args.slice(0, 2).join(' ')) && !args[2]!.startsWith('pr_');
    expect(sent.filter((r) => !bulk || r.method !== 'GET').map((r) => `${r.method} ${r.path}`)).toEqual([]);
    expect(run.stderr).not.toMatch(/k_dry_run_every_0001/);
    expect(run.stdout).not.toMatch(/k_dry_run_every_0001/);
  });

  it('profile test shows the request it would send, key redacted', async () => {
    const before = api.requests.length;
    const run = await runMain(['--dry-run', 'profile', 'test'], {
      env: { MON_BASE_URL: api.url, MON_API_KEY: 'k_dry_run_every_0001', MON_CONFIG_DIR: tempConfigDir() },
    });
    expect(run).toEqual({
      code: 0,
      stdout: `GET ${api.url}/v2.5/groups?per_page=1&api_key=[REDACTED]\n`,
      stderr: 'dry run: nothing was sent\n',
    });
    expect(api.requests.length).toBe(before);
  });

  it('sandbox serve says what it would serve and serves nothing', { timeout: 8000 }, async () => {
    const run = await runMain(['--dry-run', 'sandbox', '--port', '0'], { env: { MON_CONFIG_DIR: tempConfigDir() } });
    expect(run.code).toBe(0);
    expect(run.stdout).toBe('');
    expect(run.stderr).toMatch(
      /^dry run: nothing was changed \(this would serve the sandbox's API on 127\.0\.0\.1:0 with the data of .*\)\n$/,
    );
  });
});
