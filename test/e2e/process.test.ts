import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type RunningSandbox } from '../../src/sandbox/server.js';
import { runMon } from '../helpers/run-mon.js';

/**
 * The few command tests that need a real process: the rest run in-process through main()
 * (test/helpers/run-main.ts). Here bin/mon itself is under test: the exit status the shell
 * sees, and every byte of a long output reaching the pipe before the process ends. Signals,
 * terminals, the saved root help and the time zone have their own spawned cases elsewhere.
 */
describe('bin/mon as a process', () => {
  let sandbox: RunningSandbox;
  let env: Record<string, string>;

  beforeAll(async () => {
    sandbox = await startSandbox({ port: 0, computers: 1_200 });
    env = { MON_BASE_URL: sandbox.url, MON_API_KEY: sandbox.apiKey };
  });
  afterAll(() => sandbox.close());

  it('exits 2 on a usage error, with one line on stderr', async () => {
    const result = await runMon(['computrs']);
    expect(result).toMatchObject({ code: 2, signal: null, stdout: '' });
    expect(result.stderr.trimEnd().split('\n')).toHaveLength(1);
  });

  it('exits 4 when the API answers 404', async () => {
    const result = await runMon(['computers', 'get', 'no-such-client'], { env });
    expect(result).toMatchObject({ code: 4, signal: null, stdout: '' });
  });

  it('flushes every line of a long --all -o ndjson into the pipe before exiting 0', async () => {
    const result = await runMon(['computers', 'list', '--all', '-o', 'ndjson'], { env });
    expect(result).toMatchObject({ code: 0, signal: null, stderr: '' });
    const lines = result.stdout.split('\n');
    expect(lines.pop()).toBe('');
    expect(lines).toHaveLength(1_200);
    expect(new Set(lines.map((line) => (JSON.parse(line) as { client_id: string }).client_id)).size).toBe(1_200);
  });
});
