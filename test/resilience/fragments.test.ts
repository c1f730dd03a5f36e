import { writeFileSync } from 'node:fs';
import type { ServerResponse } from 'node:http';
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
  for (let i = 0; i + 8 <= secret.length; i++)
    if (text.includes(secret.slice(i, i + 8))) found.push(secret.slice(i, i + 8));
  return found;
}

describe('pieces of the key', () => {
  let api: FakeApi;
  let dir: string;
  const env = () => ({ MON_BASE_URL: api.url, MON_API_KEY: KEY });

  beforeAll(async () => {
    api = await startFakeApi((_req, res) =>
      apiError(res, 422, `invalid value ${KEY.slice(2, 30)}`, `token ${KEY.slice(9)} rejected`),
    );
  });
  afterAll(() => api.close());
  beforeEach(() => {
    api.requests.length = 0;
    dir = tempDir('mon-fragments-');
  });

  it.each([
    ['an env file', `MON_API_KEY=${KEY}\n`, "line 1 of '@' (50 characters) does not start with pr_"],
    [
      'a JSON line with the key as uid',
      `{"uid": "${KEY}"}\n`,
      'line 1 of \'@\' (49 characters) is a JSON object whose "uid" does not start with pr_',
    ],
    ['the key after good lines', `pr_1\npr_2\n${KEY}\n`, "line 3 of '@' (38 characters) does not start with pr_"],
  ])('--from %s: exit 2, the line described, no piece of the key', async (_name, content, message) => {
    const file = join(dir, 'uids');
    writeFileSync(file, content);
    const result = await runMain(['plugin', 'mute', '--from', file, '--ignore', '--yes'], { env: env() });
    expect(result.code).toBe(2);
    expect(result.stderr).toBe(
      `mon: --from: ${message.replace('@', file)} — give one plugin result uid (pr_…) a line, or the lines of \`mon alerts -o ndjson\`\n`,
    );
    expect(pieces(result.stderr + result.stdout, KEY)).toEqual([]);
    expect(api.requests).toEqual([]);
  });

  it('the key of a saved profile, not in the environment, is not quoted either', async () => {
    const configDir = tempConfigDir();
    const added = await runMain(['profile', 'add', 'acme', '--base-url', api.url, '--api-key-stdin'], {
      env: { MON_CONFIG_DIR: configDir },
      input: KEY,
    });
    expect(added.code).toBe(0);
    const file = join(dir, 'uids');
    writeFileSync(file, `api_key: ${KEY}\n`);
    const result = await runMain(['plugin', 'mute', '--from', file, '--ignore', '--yes'], {
      env: { MON_CONFIG_DIR: configDir },
    });
    expect(result.code).toBe(2);
    expect(pieces(result.stderr, KEY)).toEqual([]);
  });

  it('a value that holds part of the key, typed where a format was meant: the part is redacted', async () => {
    const result = await runMain(['-o', KEY.slice(4, 30), 'computers', 'list'], { env: env() });
    expect(result.code).toBe(2);
    expect(result.stderr).toBe(
      "mon: -o/--output: '[REDACTED]' is not one of table, json, ndjson, csv, tsv, openmetrics — e.g. -o json, or -o csv for a spreadsheet\n",
    );
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
    const result = await runMain(['plugin', 'mute', '--from', file, '--ignore', '--yes'], {
      env: { MON_BASE_URL: api.url, MON_API_KEY: KEY },
    });
    expect(result.code).toBe(2);
    expect(result.stderr).toBe(
      `mon: --from: line 1 of '${file}' (300 characters) is longer than the 255 characters a uid may be — give one plugin result uid (pr_…) a line, or the lines of \`mon alerts -o ndjson\`\n`,
    );
  });

  it('an unknown uid of 203 characters: its first characters and its length in the "no plugin result" line', async () => {
    const file = join(tempDir('mon-long-'), 'uids');
    writeFileSync(file, `pr_${'a'.repeat(200)}\n`);
    const result = await runMain(['plugin', 'mute', '--from', file, '--ignore', '--yes'], {
      env: { MON_BASE_URL: api.url, MON_API_KEY: KEY },
    });
    expect(result.code).toBe(4);
    expect(result.stderr).toBe(
      `mon: --from: no plugin result pr_${'a'.repeat(29)}… (203 characters) in this account — take the uids from \`mon alerts -o ndjson\` of the same account\n`,
    );
  });

  it('a 100,000-character value of an option: its length and first characters', async () => {
    const value = `v${'y'.repeat(99_999)}`;
    const result = await runMain(['-o', value, 'computers', 'list'], {
      env: { MON_BASE_URL: api.url, MON_API_KEY: KEY },
    });
    expect(result.code).toBe(2);
    expect(result.stderr).toBe(
      `mon: -o/--output: 'v${'y'.repeat(31)}…' (100,000 characters) is not one of table, json, ndjson, csv, tsv, openmetrics — e.g. -o json, or -o csv for a spreadsheet\n`,
    );
  });

  it('an unknown option of 100,000 characters: cut too', async () => {
    // Within the test's bound: the hint's search for a near option once took 15 s.
    const result = await runMain(['computers', 'list', `--${'q'.repeat(100_000)}`], {
      env: { MON_BASE_URL: api.url, MON_API_KEY: KEY },
    });
    expect(result.code).toBe(2);
    expectOneLine(result);
    expect(result.stderr.length).toBeLessThan(300);
    expect(result.stderr).toContain('(100,002 characters)');
  });

  it("a server's error title of 1 MB: its first characters and its length", async () => {
    const result = await runMain(['groups', 'list', '--per-page', '7'], {
      env: { MON_BASE_URL: api.url, MON_API_KEY: KEY },
    });
    expect(result.code).toBe(5);
    expectOneLine(result);
    expect(result.stderr).toContain(`${'x'.repeat(32)}… (1,000,000 characters)`);
    expect(result.stderr.length).toBeLessThan(400);
  });
});

/**
 * The echoes of a key that escaped redaction once: a text cut before it was cleaned, a config
 * file V8 quotes, headers, the forms a server may encode a key in, a key typed into a request,
 * jq's own messages. Each is checked for any piece of 5 characters of the key, not 8: a cut can
 * leave a piece shorter than redaction knows.
 */
describe('echoes of the key', () => {
  const key = 'k3yS3CRETabcdef123456';
  /** Every run of 5 characters of `secret` that `text` holds. */
  const shortPieces = (text: string, secret = key) => {
    const found: string[] = [];
    for (let i = 0; i + 5 <= secret.length; i++)
      if (text.includes(secret.slice(i, i + 5))) found.push(secret.slice(i, i + 5));
    return found;
  };
  let api: FakeApi;
  // A 5xx is final at once: what is printed is under test, not the retries.
  const env = () => ({ MON_BASE_URL: api.url, MON_API_KEY: key, MON_RETRIES: '0' });
  beforeAll(async () => {
    api = await startFakeApi(() => undefined);
  });
  afterAll(() => api.close());
  beforeEach(() => {
    api.requests.length = 0;
  });

  it.each([
    [
      'a title quoting the key before a long explanation (cut to a length)',
      (res: ServerResponse) => apiError(res, 401, `Invalid API key provided: ${key}`, 'x'.repeat(300)),
      3,
      key,
    ],
    // 53 characters before the key: the 60 kept would end 7 characters into it.
    [
      'a text/plain 500 whose key is cut by the 60 characters kept',
      (res: ServerResponse) => text(res, 500, `Internal error while checking credentials; rejected: ${key}`),
      7,
      key,
    ],
    [
      'the key in base64',
      (res: ServerResponse) => apiError(res, 401, `invalid api key ${Buffer.from(key).toString('base64')}`),
      3,
      Buffer.from(key).toString('base64'),
    ],
    [
      'the key as an attribute',
      (res: ServerResponse) =>
        json(res, 422, [{ status_code: 422, code: ':invalid', title: 'is invalid', attribute: key }]),
      5,
      key,
    ],
  ])('%s: no piece of it, in the error line or in status --check', async (_name, answer, code, echoed) => {
    api.handle((_req, res) => answer(res));
    const result = await runMain(['groups', 'list'], { env: env() });
    expect(result.code).toBe(code);
    expectOneLine(result);
    expect(shortPieces(result.stderr, echoed)).toEqual([]);
    const check = await runMain(['status', '--check'], { env: env() });
    expect(check.code).toBe(3);
    expect(check.stdout).toMatch(/^MON UNKNOWN - /);
    expect(shortPieces(check.stdout + check.stderr, echoed)).toEqual([]);
  });

  it.each([
    [
      'HTML-escaped',
      'k3y&S3C<RE+T&ab"cd/ef',
      (k: string) => k.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/"/g, '&quot;'),
    ],
    [
      'percent-encoded in lower case',
      'k3y&S3C<RE+T&ab"cd/ef',
      (k: string) => encodeURIComponent(k).replace(/%[0-9A-F]{2}/g, (e) => e.toLowerCase()),
    ],
  ])('a key with special characters, echoed %s: no piece of it', async (_name, special, encode) => {
    api.handle((_req, res) => text(res, 500, `bad key ${encode(special)}`, 'text/html'));
    const result = await runMain(['groups', 'list'], { env: { ...env(), MON_API_KEY: special } });
    expect(result.code).toBe(7);
    expect(result.stderr).toContain('bad key [REDACTED]');
    expect(shortPieces(result.stderr, encode(special))).toEqual([]);
  });

  it('mon api -i: a header that echoes the key is redacted', async () => {
    api.handle((_req, res) =>
      json(res, 200, [], { 'x-key': key, link: `<${api.url}/v2.5/groups?page=2&api_key=${key}>; rel="next"` }),
    );
    const result = await runMain(['api', '-i', 'GET', '/groups'], { env: env() });
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('x-key: [REDACTED]\n');
    expect(shortPieces(result.stdout)).toEqual([]);
  });

  it('--dry-run redacts the key where the user typed it (a path, a field), as --verbose does', async () => {
    const result = await runMain(['--dry-run', 'api', 'GET', `/groups/${key}`, '-F', `q=${key}`], { env: env() });
    expect(result.code).toBe(0);
    expect(result.stdout + result.stderr).toContain('/groups/[REDACTED]?q=[REDACTED]&api_key=[REDACTED]');
    expect(shortPieces(result.stdout + result.stderr)).toEqual([]);
    expect(api.requests).toEqual([]);
  });

  it("jq's debug and stderr lines are cleaned like every other line on stderr", async () => {
    api.handle((_req, res) => json(res, 200, [{ key }]));
    const result = await runMain(['api', 'GET', '/groups', '--jq', '.[0].key | debug | stderr | empty'], {
      env: env(),
    });
    expect(result.code).toBe(0);
    expect(result.stderr).toContain('["DEBUG:","[REDACTED]"]');
    expect(shortPieces(result.stderr)).toEqual([]);
  });

  it.each([
    ['a line break', `${key.slice(0, 7)}\n${key.slice(7)}`],
    ['a CR at the end (an env file saved on Windows)', `${key}\r`],
    ['a space', `${key} x`],
  ])('MON_API_KEY with %s: exit 2 before anything is sent, no piece of it', async (_name, bad) => {
    const result = await runMain(['groups', 'list'], { env: { MON_BASE_URL: api.url, MON_API_KEY: bad } });
    expect(result).toEqual({
      code: 2,
      stdout: '',
      stderr:
        'mon: MON_API_KEY contains white space or a control character — set it to the key alone, e.g. MON_API_KEY="$(cat key-file)"\n',
    });
    expect(api.requests).toEqual([]);
  });

  it('a config file that is not JSON: the message quotes no piece of the keys in it', async () => {
    const configDir = tempConfigDir();
    writeFileSync(
      join(configDir, 'config.json'),
      `{"profiles":{"acme":{"baseUrl":"${api.url}","apiKey":${key}}},"defaultProfile":"acme"}`,
      { mode: 0o600 },
    );
    for (const args of [
      ['groups', 'list'],
      ['profile', 'use', 'acme'],
      ['status', '--check'],
    ]) {
      const result = await runMain(args, { env: { MON_CONFIG_DIR: configDir } });
      expect(result.code).toBe(args[0] === 'status' ? 3 : 2);
      expect(result.stdout + result.stderr).toContain(
        `config file ${join(configDir, 'config.json')} is not valid JSON (`,
      );
      expect(shortPieces(result.stdout + result.stderr)).toEqual([]);
    }
    expect(api.requests).toEqual([]);
  });

  it('plain http to a loopback host passes by a proxy on another host: the key does not leave the machine', async () => {
    api.handle((_req, res) => json(res, 200, []));
    // 192.0.2.1 (TEST-NET-1) answers nothing: had mon used it, the request would time out.
    const result = await runMain(['groups', 'list', '--json', '--timeout', '3', '--retries', '0'], {
      env: { ...env(), HTTP_PROXY: 'http://192.0.2.1:3128' },
    });
    expect(result).toEqual({ code: 0, stdout: '[]\n', stderr: '' });
    expect(api.requests).toHaveLength(1);
  });

  it("NODE_DEBUG naming Node's HTTP client: a warning that its lines carry the key", async () => {
    api.handle((_req, res) => json(res, 200, []));
    const result = await runMain(['groups', 'list', '--json'], { env: { ...env(), NODE_DEBUG: 'undici' } });
    expect(result.code).toBe(0);
    expect(result.stderr).toBe(
      "mon: warning: NODE_DEBUG=undici makes Node print every request's URL on stderr with the API key in it — unset it, or use --verbose, which redacts the key\n",
    );
  });
});

/** A body that is not JSON. */
function text(res: ServerResponse, status: number, body: string, type = 'text/plain'): void {
  res.writeHead(status, { 'content-type': type });
  res.end(body);
}

describe('a key too short to be a secret', () => {
  it("a key of one character does not cut the server's message to pieces", async () => {
    const api = await startFakeApi((_req, res) => apiError(res, 401, 'invalid api_key: check the key'));
    try {
      const result = await runMain(['groups', 'list'], { env: { MON_BASE_URL: api.url, MON_API_KEY: 'k' } });
      expect(result.code).toBe(3);
      expect(result.stderr).toContain('invalid api_key: check the key');
    } finally {
      await api.close();
    }
  });
});
