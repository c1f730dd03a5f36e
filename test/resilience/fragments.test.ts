import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { apiError, json, startFakeApi, type FakeApi } from '../helpers/fake-api.js';
import { runMain } from '../helpers/run-main.js';
import { tempConfigDir, tempDir } from '../helpers/run-mon.js';
import { expectOneLine } from './support.js';

/**
 * No piece of a key reaches a person, and no message echoes a long value whole: the wrong file
 * in --from, a value typed where the key was meant, a server that quotes part of the key back;
 * a 300-character uid, a 100,000-character option value, a server's 1 MB error title. What mon
 * prints is under test, not the process: mon runs in-process.
 */

const KEY = 'k_live_Zq81mXv4Tn0pRw7yLc3bHd5s9Fg2Jk6';

/** Every run of 8 characters of `secret` that `text` holds. */
function pieces(text: string, secret: string): string[] {
  const found: string[] = [];
  for (let i = 0; i + 8 <= secret.length; i++) if (text.includes(secret.slice(i, i + 8))) found.push(secret.slice(i, i + 8));
  return found;
}

describe('pieces of the key', () => {
  let api: FakeApi;
  let dir: string;
  const env = () => ({ MON_BASE_URL: api.url, MON_API_KEY: KEY });

  beforeAll(async () => {
    api = await startFakeApi((_req, res) => apiError(res, 422, `invalid value ${KEY.slice(2, 30)}`, `token ${KEY.slice(9)} rejected`));
  });
  afterAll(() => api.close());
  beforeEach(() => {
    api.requests.length = 0;
    dir = tempDir('mon-fragments-');
  });

  it.each([
    ['an env file', `MON_API_KEY=${KEY}\n`, "line 1 of '@' (50 characters) does not start with pr_"],
    ['a JSON line with the key as uid', `{"uid": "${KEY}"}\n`, 'line 1 of \'@\' (49 characters) is a JSON object whose "uid" does not start with pr_'],
    ['the key after good lines', `pr_1\npr_2\n${KEY}\n`, "line 3 of '@' (38 characters) does not start with pr_"],
  ])('--from %s: exit 2, the line described, no piece of the key', async (_name, content, message) => {
    const file = join(dir, 'uids');
    writeFileSync(file, content);
    const result = await runMain(['plugin', 'mute', '--from', file, '--ignore', '--yes'], { env: env() });
    expect(result.code).toBe(2);
    expect(result.stderr).toBe(`mon: --from: ${message.replace('@', file)} — give one plugin result uid (pr_…) a line, or the lines of \`mon alerts -o ndjson\`\n`);
    expect(pieces(result.stderr + result.stdout, KEY)).toEqual([]);
    expect(api.requests).toEqual([]);
  });

  it('the key of a saved profile, not in the environment, is not quoted either', async () => {
    const configDir = tempConfigDir();
    const added = await runMain(['profile', 'add', 'acme', '--base-url', api.url, '--api-key-stdin'], { env: { MON_CONFIG_DIR: configDir }, input: KEY });
    expect(added.code).toBe(0);
    const file = join(dir, 'uids');
    writeFileSync(file, `api_key: ${KEY}\n`);
    const result = await runMain(['plugin', 'mute', '--from', file, '--ignore', '--yes'], { env: { MON_CONFIG_DIR: configDir } });
    expect(result.code).toBe(2);
    expect(pieces(result.stderr, KEY)).toEqual([]);
  });

  it('a value that holds part of the key, typed where a format was meant: the part is redacted', async () => {
    const result = await runMain(['-o', KEY.slice(4, 30), 'computers', 'list'], { env: env() });
    expect(result.code).toBe(2);
    expect(result.stderr).toBe("mon: -o/--output: '[REDACTED]' is not one of table, json, ndjson, csv, tsv, openmetrics — e.g. -o json, or -o csv for a spreadsheet\n");
  });

  it('a server that quotes pieces of the key back: each is redacted', async () => {
    const result = await runMain(['groups', 'list'], { env: env() });
    expect(result.code).toBe(5);
    expectOneLine(result);
    expect(result.stderr).toContain('invalid value [REDACTED]: token [REDACTED] rejected');
    expect(pieces(result.stderr, KEY)).toEqual([]);
  });
});

describe('long values in messages', () => {
  let api: FakeApi;
  const title = 'x'.repeat(1_000_000);

  beforeAll(async () => {
    api = await startFakeApi((req, res) => {
      // `groups list --per-page 7` only: the bulk mute reads groups too.
      if (req.path.endsWith('/groups') && req.query.get('per_page') === '7') return apiError(res, 422, title);
      // The plugin results of one computer, none of which --from names.
      return json(res, 200, [], { 'x-total': '0', 'x-total-pages': '1' });
    });
  });
  afterAll(() => api.close());

  it('a uid of 300 characters in --from is refused by its length, not printed back', async () => {
    const file = join(tempDir('mon-long-'), 'uids');
    writeFileSync(file, `pr_${'a'.repeat(297)}\n`);
    const result = await runMain(['plugin', 'mute', '--from', file, '--ignore', '--yes'], { env: { MON_BASE_URL: api.url, MON_API_KEY: KEY } });
    expect(result.code).toBe(2);
    expect(result.stderr).toBe(
      `mon: --from: line 1 of '${file}' (300 characters) is longer than the 255 characters a uid may be — give one plugin result uid (pr_…) a line, or the lines of \`mon alerts -o ndjson\`\n`,
    );
  });

  it('an unknown uid of 203 characters: its first characters and its length in the "no plugin result" line', async () => {
    const file = join(tempDir('mon-long-'), 'uids');
    writeFileSync(file, `pr_${'a'.repeat(200)}\n`);
    const result = await runMain(['plugin', 'mute', '--from', file, '--ignore', '--yes'], { env: { MON_BASE_URL: api.url, MON_API_KEY: KEY } });
    expect(result.code).toBe(4);
    expect(result.stderr).toBe(`mon: --from: no plugin result pr_${'a'.repeat(29)}… (203 characters) in this account — take the uids from \`mon alerts -o ndjson\` of the same account\n`);
  });

  it('a 100,000-character value of an option: its length and first characters', async () => {
    const value = `v${'y'.repeat(99_999)}`;
    const result = await runMain(['-o', value, 'computers', 'list'], { env: { MON_BASE_URL: api.url, MON_API_KEY: KEY } });
    expect(result.code).toBe(2);
    expect(result.stderr).toBe(`mon: -o/--output: 'v${'y'.repeat(31)}…' (100,000 characters) is not one of table, json, ndjson, csv, tsv, openmetrics — e.g. -o json, or -o csv for a spreadsheet\n`);
  });

  it('an unknown option of 100,000 characters: cut too', async () => {
    // Within the test's bound: the hint's search for a near option once took 15 s.
    const result = await runMain(['computers', 'list', `--${'q'.repeat(100_000)}`], { env: { MON_BASE_URL: api.url, MON_API_KEY: KEY } });
    expect(result.code).toBe(2);
    expectOneLine(result);
    expect(result.stderr.length).toBeLessThan(300);
    expect(result.stderr).toContain('(100,002 characters)');
  });

  it("a server's error title of 1 MB: its first characters and its length", async () => {
    const result = await runMain(['groups', 'list', '--per-page', '7'], { env: { MON_BASE_URL: api.url, MON_API_KEY: KEY } });
    expect(result.code).toBe(5);
    expectOneLine(result);
    expect(result.stderr).toContain(`${'x'.repeat(32)}… (1,000,000 characters)`);
    expect(result.stderr.length).toBeLessThan(400);
  });
});
