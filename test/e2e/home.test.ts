import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type RunningSandbox } from '../../src/sandbox/server.js';
import { runMon, tempConfigDir } from '../helpers/run-mon.js';

/** #12 item 13: a plain read never creates the user's home; the rate ledger then stays in memory. */
describe('HOME pointing at a folder that does not exist', () => {
  let sandbox: RunningSandbox;
  beforeAll(async () => {
    sandbox = await startSandbox({ port: 0 });
  });
  afterAll(() => sandbox.close());

  it('a read works, creates nothing, and says once with --verbose that the ledger is in memory', async () => {
    const home = join(tempConfigDir(), 'home');
    const env = { HOME: home, MON_CONFIG_DIR: undefined, MON_BASE_URL: sandbox.url, MON_API_KEY: sandbox.apiKey };
    const quiet = await runMon(['groups', 'list', '--count'], { env });
    expect(quiet).toMatchObject({ code: 0, stderr: '' });
    expect(Number(quiet.stdout)).toBeGreaterThan(0);
    expect(existsSync(home)).toBe(false);

    const verbose = await runMon(['computers', 'list', '--per-page', '1', '--limit', '3', '-o', 'ndjson', '-v'], {
      env,
    });
    expect(verbose.code).toBe(0);
    expect(verbose.stdout.trim().split('\n')).toHaveLength(3);
    const notes = verbose.stderr.split('\n').filter((line) => line.startsWith('rate ledger:'));
    expect(notes).toEqual([
      `rate ledger: cannot keep it in ${join(home, '.config', 'mon-nodejs', 'rate')} (ENOENT); this run counts its requests in memory`,
    ]);
    expect(existsSync(home)).toBe(false);
  });

  it('a command that needs the config folder says why it cannot have one (exit 2), and still creates nothing', async () => {
    const home = join(tempConfigDir(), 'home');
    const result = await runMon(
      ['profile', 'add', 'acme', '--subdomain', 'acme', '--domain', 'example.com', '--api-key-stdin'],
      { env: { HOME: home, MON_CONFIG_DIR: undefined }, input: 'k_test_1234567890' },
    );
    expect(result.code).toBe(2);
    expect(result.stderr).toBe(
      `mon: cannot create config folder ${join(home, '.config', 'mon-nodejs')}: the home folder ${home} does not exist, and mon does not create it — set MON_CONFIG_DIR to a folder you can write\n`,
    );
    expect(existsSync(home)).toBe(false);
  });
});
