import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startSandbox, type RunningSandbox } from '../../src/sandbox/server.js';
import { tempConfigDir } from '../helpers/run-mon.js';
import { runMain } from '../helpers/run-main.js';

/** #12 item 9: a base URL copied with its /v2.5 (and slashes) is not doubled. */
describe('base URL normalisation', () => {
  let sandbox: RunningSandbox;

  beforeAll(async () => {
    sandbox = await startSandbox({ port: 0 });
  });
  beforeEach(() => {
    sandbox.requests.length = 0;
  });
  afterAll(() => sandbox.close());

  it.each([
    ['MON_BASE_URL ending in /v2.5', (url: string) => ({ args: [], env: { MON_BASE_URL: `${url}/v2.5` } })],
    [
      'MON_BASE_URL ending in /v2.5/ and more slashes',
      (url: string) => ({ args: [], env: { MON_BASE_URL: `${url}//v2.5//` } }),
    ],
    ['--base-url ending in /V2.5/', (url: string) => ({ args: ['--base-url', `${url}/V2.5/`], env: {} })],
  ])('%s reaches /v2.5/users once', async (_label, given) => {
    const { args, env } = given(sandbox.url);
    const result = await runMain([...args, 'users', 'list', '-o', 'json', '--per-page', '1', '-q'], {
      env: { MON_API_KEY: sandbox.apiKey, ...env },
    });
    expect(result).toMatchObject({ code: 0, stderr: '' });
    expect(sandbox.requests.map((request) => request.path)).toEqual(['/v2.5/users']);
  });

  it('profile add --base-url …/v2.5/ saves the base URL without it, and the profile works', async () => {
    const env = { MON_CONFIG_DIR: tempConfigDir() };
    const added = await runMain(['profile', 'add', 'local', '--base-url', `${sandbox.url}/v2.5/`, '--api-key-stdin'], {
      env,
      input: sandbox.apiKey,
    });
    expect(added.code).toBe(0);
    expect(added.stderr).toContain(`(${sandbox.url})`);
    const shown = await runMain(['profile', 'show', 'local', '-o', 'json'], { env });
    expect(JSON.parse(shown.stdout)).toMatchObject({ base_url: sandbox.url });
    const listed = await runMain(['users', 'list', '--count'], { env });
    expect(listed.code).toBe(0);
    expect(sandbox.requests.map((request) => request.path)).toEqual(['/v2.5/users']);
  });
});
