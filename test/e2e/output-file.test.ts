/**
 * `--output-file PATH` in any command: PATH replaced by a rename once the answer is whole, left as
 * it was otherwise (a failure, Ctrl-C), never a temporary left beside it; a bad PATH refused
 * before anything is sent.
 */
import { mkdirSync, readdirSync, readFileSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type RunningSandbox } from '../../src/sandbox/server.js';
import { computersPage, hang, scripted, startFakeApi } from '../helpers/fake-api.js';
import { runMain } from '../helpers/run-main.js';
import { runMon, signalMon, tempDir } from '../helpers/run-mon.js';

describe('--output-file', () => {
  let sandbox: RunningSandbox;
  let env: Record<string, string>;

  beforeAll(async () => {
    sandbox = await startSandbox({ port: 0, recordRequests: true });
    env = { MON_BASE_URL: sandbox.url, MON_API_KEY: sandbox.apiKey };
  });
  afterAll(async () => {
    await sandbox.close();
  });

  it('replaces PATH with what stdout would have shown, and nothing goes to stdout', async () => {
    const dir = tempDir();
    const file = join(dir, 'groups.csv');
    writeFileSync(file, 'old\n');
    const direct = await runMon(['groups', 'list', '--all', '-o', 'csv'], { env });
    const run = await runMon(['groups', 'list', '--all', '-o', 'csv', '--output-file', file], { env });
    expect(run).toMatchObject({ code: 0, stdout: '', stderr: '' });
    expect(readFileSync(file, 'utf8')).toBe(direct.stdout);
    expect(readdirSync(dir)).toEqual(['groups.csv']);
  });

  it('goes through --jq too', async () => {
    const dir = tempDir();
    const file = join(dir, 'names.txt');
    const run = await runMain(['groups', 'list', '--all', '--jq', '.[].name', '--output-file', file], { env });
    expect(run).toMatchObject({ code: 0, stdout: '' });
    expect(readFileSync(file, 'utf8')).toMatch(/^Acme Design$/m);
    expect(readdirSync(dir)).toEqual(['names.txt']);
  });

  it('a new file follows the umask, as a redirect does', async () => {
    const dir = tempDir();
    const file = join(dir, 'status.json');
    expect((await runMon(['status', '-o', 'json', '--output-file', file], { env })).code).toBe(0);
    expect(statSync(file).mode & 0o777).toBe(0o666 & ~process.umask());
  });

  it.each([
    ['a folder that does not exist', (dir: string) => join(dir, 'nope', 'mon.prom'), /^--output-file: no folder /],
    ['a folder', (dir: string) => dir, /^--output-file: .* is a folder; it replaces a regular file$/],
    [
      'a symbolic link',
      (dir: string) => (symlinkSync('/dev/null', join(dir, 'link')), join(dir, 'link')),
      /^--output-file: .* is a symbolic link/,
    ],
    ['empty', () => '', /^--output-file: give a file name/],
  ])('PATH that is %s: exit 2 naming the option, nothing sent', async (_what, path, message) => {
    const dir = tempDir();
    const before = sandbox.requests.length;
    const run = await runMain(['status', '-o', 'openmetrics', '--output-file', path(dir)], { env });
    expect(run.code).toBe(2);
    expect(run.stdout).toBe('');
    expect(run.stderr).toMatch(/^mon: [^\n]+ — [^\n]+\n$/);
    expect(run.stderr.replace(/^mon: /, '').split(' — ')[0]).toMatch(message);
    expect(sandbox.requests.slice(before)).toEqual([]);
  });

  it('--dry-run writes nothing: the request is on stdout', async () => {
    const dir = tempDir();
    const run = await runMain(['--dry-run', 'status', '-o', 'openmetrics', '--output-file', join(dir, 'mon.prom')], {
      env,
    });
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/^GET /m);
    expect(readdirSync(dir)).toEqual([]);
  });

  it('Ctrl-C halfway through a list: PATH keeps what it held, no temporary is left', async () => {
    // Page 1 is answered (and written to the temporary); page 2 never is.
    const api = await startFakeApi(scripted(computersPage(250), hang));
    try {
      const dir = tempDir();
      const file = join(dir, 'computers.csv');
      writeFileSync(file, 'the last good list\n');
      const run = await signalMon(
        ['computers', 'list', '--all', '-o', 'csv', '--output-file', file],
        { MON_BASE_URL: api.url, MON_API_KEY: 'sbx_live_fake_0123456789ab' },
        [
          {
            signal: 'SIGINT',
            when: () => api.requests.length >= 2 && readdirSync(dir).some((name) => name.endsWith('.tmp')),
          },
        ],
      );
      expect(run.code).toBe(130);
      expect(readFileSync(file, 'utf8')).toBe('the last good list\n');
      expect(readdirSync(dir)).toEqual(['computers.csv']);
    } finally {
      await api.close();
    }
  });

  it('a command that runs until stopped appends to PATH as it prints (sandbox serve, twice)', async () => {
    const dir = tempDir();
    const file = join(dir, 'sandbox.log');
    const config = { MON_CONFIG_DIR: join(dir, 'config') };
    for (let run = 0; run < 2; run++) {
      const served = await signalMon(['sandbox', 'serve', '--port', '0', '--output-file', file], config, [
        {
          signal: 'SIGINT',
          when: () =>
            (readdirSync(dir).includes('sandbox.log') ? readFileSync(file, 'utf8') : '').split('export MON_API_KEY=')
              .length >
            run + 1,
        },
      ]);
      // Ctrl-C is how a sandbox ends: exit 0.
      expect(served.code).toBe(0);
      expect(served.stdout).toBe('');
    }
    expect(readFileSync(file, 'utf8').match(/^export MON_BASE_URL=/gm)).toHaveLength(2);
    expect(readdirSync(dir).sort()).toEqual(['config', 'sandbox.log']);
  });

  it('status -o openmetrics is whole whatever the exit code: a dead account is installed as mon_up 0 (exit 8)', async () => {
    const dir = tempDir();
    mkdirSync(join(dir, 'textfile'));
    const file = join(dir, 'textfile', 'mon.prom');
    writeFileSync(file, 'mon_up{account="127.0.0.1_9"} 1\n# EOF\n');
    const run = await runMon(['status', '-o', 'openmetrics', '--output-file', file], {
      env: { MON_BASE_URL: 'http://127.0.0.1:9', MON_API_KEY: 'sbx_live_gone_0000', MON_RETRIES: '0' },
    });
    expect(run.code).toBe(8);
    expect(run.stdout).toBe('');
    expect(readFileSync(file, 'utf8')).toMatch(/^mon_up\{account="127\.0\.0\.1_9"\} 0$/m);
    expect(readdirSync(join(dir, 'textfile'))).toEqual(['mon.prom']);
  });
});
