import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startSandbox, type RunningSandbox } from '../../src/sandbox/server.js';
import { hasProgram } from '../helpers/programs.js';
import { readAll } from '../helpers/sandbox-http.js';
import { onTerminal } from '../helpers/terminal.js';

/**
 * What a person at a terminal is told and asked before a mute ends sooner or a mute that would
 * not end by itself is lifted: bin/mon on a pseudo-terminal (`script`), against the sandbox.
 */

type Item = Record<string, unknown>;

const HAS_SCRIPT = hasProgram('script (util-linux)', ['script', '--version']);

describe.skipIf(!HAS_SCRIPT)('mutes that would end sooner or never end, on a terminal', () => {
  let sandbox: RunningSandbox;
  let env: Record<string, string>;
  let results: Item[];
  const puts = () => sandbox.requests.filter((r) => r.method === 'PUT');
  const current = async (uid: string) =>
    (await readAll(sandbox, '/v2.5/computers?expand[]=plugin_results'))
      .flatMap((c) => c.plugin_results as Item[])
      .find((r) => r.uid === uid)!;

  beforeEach(async () => {
    sandbox = await startSandbox({ port: 0 });
    env = { MON_BASE_URL: sandbox.url, MON_API_KEY: sandbox.apiKey, TZ: 'UTC' };
    results = (await readAll(sandbox, '/v2.5/computers?expand[]=plugin_results')).flatMap(
      (c) => c.plugin_results as Item[],
    );
    sandbox.requests.length = 0;
  });
  afterEach(() => sandbox.close());

  it('plugin mute <uid> --timed 1h on a result muted for good says what it is and becomes, and asks; n keeps it, y shortens it', async () => {
    const uid = String(results.find((r) => r.muted === true && r.mute_type === 'muted_forever')!.uid);
    const declined = await onTerminal(['plugin', 'mute', uid, '--timed', '1h'], env, 'n\r');
    expect(declined.screen).toMatch(
      new RegExp(
        `${uid} is muted for good; --timed would shorten that to a mute until \\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d \\(local time\\)`,
      ),
    );
    expect(declined.screen).toContain(`Shorten the mute of ${uid}? [y/N]`);
    expect(declined.code).not.toBe(0);
    expect(puts()).toEqual([]);
    expect(await current(uid)).toMatchObject({ muted: true, mute_type: 'muted_forever' });

    const accepted = await onTerminal(['plugin', 'mute', uid, '--timed', '1h'], env, 'y\r');
    expect(accepted.code).toBe(0);
    expect(accepted.screen).toContain(`Muted ${uid} until `);
    expect(puts()).toHaveLength(1);
    expect(await current(uid)).toMatchObject({ muted: true, mute_type: 'timed_mute' });
  }, 30_000);

  it('plugin unmute by selectors asks with how many of the mutes it lifts are not timed', async () => {
    const group = (await readAll(sandbox, '/v2.5/groups')).find((g) => g.name === 'Acme Design')!;
    sandbox.requests.length = 0;
    const declined = await onTerminal(['plugin', 'unmute', '--group', String(group.uid)], env, 'n\r');
    expect(declined.screen).toMatch(
      /unmute 3 plugin results on \d+ computers? in 1 group, 1 of them not timed \(muted for good\)/,
    );
    expect(declined.screen).toContain('Unmute these 3 plugin results, 1 of them not timed (muted for good)? [y/N]');
    expect(puts()).toEqual([]);
  }, 30_000);
});
