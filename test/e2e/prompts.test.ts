import { describe, expect, it } from 'vitest';
import { json, startFakeApi } from '../helpers/fake-api.js';
import { runMain } from '../helpers/run-main.js';
import { tempConfigDir } from '../helpers/run-mon.js';
import { onTerminal } from '../helpers/terminal.js';

/**
 * The questions mon asks on a terminal (src/io/prompt.ts), answered with Ctrl-C and Ctrl-D: the
 * terminal is in raw mode while mon reads, so both come as keys. Ctrl-C is the interrupt it would
 * have been (exit 130), Ctrl-D an empty answer; neither is an "unexpected error", and nothing is
 * changed. bin/mon on a pseudo-terminal, as a person would run it.
 */
describe('questions on a terminal', () => {
  const withProfile = async () => {
    const dir = tempConfigDir();
    const added = await runMain(['profile', 'add', 'acme', '--base-url', 'http://127.0.0.1:9', '--api-key-stdin'], {
      env: { MON_CONFIG_DIR: dir },
      input: 'k_prompt_test_123456',
    });
    expect(added.code).toBe(0);
    return dir;
  };
  const profiles = async (dir: string) =>
    (await runMain(['profile', 'list', '-o', 'csv', '--fields', 'name'], { env: { MON_CONFIG_DIR: dir } })).stdout;

  it.each([
    ['Ctrl-C', '\x03', 130, 'mon: interrupted'],
    ['Ctrl-D', '\x04', 1, 'mon: not deleted: the deletion was not confirmed'],
    ['n', 'n\r', 1, 'mon: not deleted: the deletion was not confirmed'],
    ['an empty line', '\r', 1, 'mon: not deleted: the deletion was not confirmed'],
  ])('a y/N question answered with %s: the profile kept', async (_name, key, code, said) => {
    const dir = await withProfile();
    const { code: exit, screen } = await onTerminal(['profile', 'remove', 'acme'], { MON_CONFIG_DIR: dir }, key);
    expect(exit).toBe(code);
    expect(screen).toContain(said);
    // A "no" is not a usage error: no pointer to the help.
    expect(screen).not.toMatch(/--help|mon help/);
    expect(screen).not.toMatch(/unexpected error|Aborted|at .*\.js/);
    expect(await profiles(dir)).toBe('name\nacme\n');
  });

  it.each([
    ['Ctrl-C', '\x03', 130, 'mon: interrupted'],
    ['Ctrl-D', '\x04', 2, 'mon: the API key is empty'],
  ])("profile add's hidden key prompt answered with %s: nothing saved", async (_name, key, code, said) => {
    const dir = tempConfigDir();
    const { code: exit, screen } = await onTerminal(
      ['profile', 'add', 'acme', '--base-url', 'http://127.0.0.1:9'],
      { MON_CONFIG_DIR: dir },
      key,
      'input hidden): ',
    );
    expect(exit).toBe(code);
    expect(screen).toContain(said);
    expect(screen).not.toMatch(/unexpected error|Aborted|at .*\.js/);
    expect(await profiles(dir)).toBe('name\n');
  });

  /**
   * #41 item 7: MON_DEADLINE while a y/N question waits. The line says that no answer came, not
   * that standard output was not read: bin/mon's last word looks at what holds the process then.
   * Nothing is typed; the process ends by itself (the helper's hang bound would kill it).
   */
  it('MON_DEADLINE at a y/N question nobody answers: exit 8 saying no answer came, the profile kept', async () => {
    const dir = await withProfile();
    const { code, screen } = await onTerminal(
      ['profile', 'remove', 'acme'],
      { MON_CONFIG_DIR: dir, MON_DEADLINE: '1' },
      '',
    );
    expect(code).toBe(8);
    expect(screen).toContain(
      'mon: the command did not finish within its deadline of 1 s (no answer came to the question) — raise MON_DEADLINE (seconds) if it needs longer',
    );
    expect(screen).not.toContain('standard output');
    expect(await profiles(dir)).toBe('name\nacme\n');
  });

  it("MON_DEADLINE at `notes delete`'s question: exit 8 saying no answer came, and no DELETE sent", async () => {
    const api = await startFakeApi((_req, res) =>
      json(res, 200, { uid: 'n_1', body: 'Battery replaced', private: false, computer: null, group: null }),
    );
    try {
      const { code, screen } = await onTerminal(
        ['notes', 'delete', 'n_1'],
        { MON_BASE_URL: api.url, MON_API_KEY: 'k_prompt_test_123456', MON_DEADLINE: '1' },
        '',
      );
      expect(code).toBe(8);
      expect(screen).toContain('(no answer came to the question)');
      expect(screen).not.toContain('standard output');
      expect(api.requests.map((request) => request.method)).not.toContain('DELETE');
    } finally {
      await api.close();
    }
  });
});
