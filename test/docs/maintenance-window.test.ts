import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type RunningSandbox } from '../../src/sandbox/server.js';
import { runMon, tempDir } from '../helpers/run-mon.js';
import { readAll } from '../helpers/sandbox-http.js';
import { examplesOf, problems, runExample } from './examples.js';

/**
 * README recipe 2, a maintenance window, run as printed against a sandbox of its own: its
 * undo takes back exactly what the window muted, so a check muted for good before the window
 * (the seed's Load Average alert in Acme Design) is still muted after it, and every mute that
 * was in force before is as it was.
 */
type Item = Record<string, unknown>;

const root = fileURLToPath(new URL('../../', import.meta.url));
const README = join(root, 'README.md');

/** The mutes in force in a group, by uid: type and end as the API says them. */
async function mutesIn(sandbox: RunningSandbox, groupUid: string): Promise<Map<string, string>> {
  const computers = await readAll(sandbox, `/v2.5/computers?group_id=${groupUid}&expand[]=plugin_results`);
  const now = Date.now() / 1000;
  const mutes = new Map<string, string>();
  for (const computer of computers) {
    for (const result of computer.plugin_results as Item[]) {
      const until = Number(result.mute_until ?? result.muted_until);
      if (result.muted !== true || (result.mute_type === 'timed_mute' && until <= now)) continue;
      mutes.set(
        String(result.uid),
        `${String(result.mute_type)} ${result.mute_type === 'timed_mute' ? until : ''}`.trim(),
      );
    }
  }
  return mutes;
}

describe('README recipe 2: a maintenance window', () => {
  let sandbox: RunningSandbox;
  let dir: string;
  let env: Record<string, string>;

  beforeAll(async () => {
    sandbox = await startSandbox({ port: 0 });
    dir = tempDir('mon-window-');
    env = { MON_CONFIG_DIR: join(dir, 'config') };
    const saved = await runMon(['profile', 'add', 'acme', '--base-url', sandbox.url, '--api-key-stdin'], {
      env,
      input: sandbox.apiKey,
    });
    expect(saved.code, saved.stderr).toBe(0);
  });
  afterAll(() => sandbox?.close());

  it('the undo after the work lifts what the window muted and nothing else: a mute for good survives it', async () => {
    // The first shell block after the heading of recipe 2.
    const heading = readFileSync(README, 'utf8').split('\n').indexOf('### 2. A maintenance window') + 1;
    expect(heading).toBeGreaterThan(0);
    const recipe = examplesOf(README).find((example) => example.line > heading)!;
    expect(recipe, 'the recipe block of README section 2').toBeDefined();

    const [group] = (await readAll(sandbox, '/v2.5/groups')).filter((g) => g.name === 'Acme Design');
    const before = await mutesIn(sandbox, String(group!.uid));
    const forGood = [...before].filter(([, mute]) => mute === 'muted_forever').map(([uid]) => uid);
    expect(forGood.length, 'the seed mutes a result of Acme Design for good').toBeGreaterThan(0);

    const run = await runExample(recipe, dir, env);
    expect(problems(run), run.output).toEqual([]);
    expect(run.invocations.map((invocation) => invocation.args.split(' ').slice(0, 2).join(' '))).toEqual([
      'plugin mute',
      'plugin mute',
      'plugin unmute',
    ]);
    // The window did mute (56 results in the seed), and its undo sent one PUT each.
    const puts = sandbox.requests.filter((r) => r.method === 'PUT');
    const muted = puts.filter((r) => r.form['plugin_result[mute_type]'] === 'timed');
    const unmuted = puts.filter((r) => r.form['plugin_result[mute_type]'] === 'none');
    expect(muted.length).toBeGreaterThan(10);
    expect(unmuted.map((r) => r.path).sort()).toEqual(muted.map((r) => r.path).sort());

    const after = await mutesIn(sandbox, String(group!.uid));
    expect(after).toEqual(before);
    for (const uid of forGood) expect(after.get(uid)).toBe('muted_forever');
  });
});
