import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type RunningSandbox } from '../../src/sandbox/server.js';
import { runMon, tempDir } from '../helpers/run-mon.js';
import { examplesOf, runExample } from './examples.js';

/**
 * README recipe 5, the node_exporter textfile collector's line, run as printed (only the
 * collector's folder is a temporary one) against two saved accounts, one of whose servers is
 * stopped: the file must say that account is down (mon_up 0) beside the other's figures, the
 * exit code still 9, and no temporary may be left beside it however often cron runs it.
 */
const root = fileURLToPath(new URL('../../', import.meta.url));
const COLLECTOR = '/var/lib/node_exporter/textfile';
const recipe = examplesOf(join(root, 'README.md')).find(
  (example) => example.script.includes('status -o openmetrics') && example.script.includes(COLLECTOR),
);

describe('README recipe 5: the textfile collector', () => {
  let north: RunningSandbox;
  let south: RunningSandbox;
  let dir: string;
  let env: Record<string, string>;

  beforeAll(async () => {
    north = await startSandbox({ port: 0 });
    south = await startSandbox({ port: 0, seed: 7, computers: 12, apiKey: 'sbx_live_second_0123456789ab' });
    dir = tempDir('mon-recipe-');
    env = { MON_CONFIG_DIR: join(dir, 'config'), MON_RETRIES: '0' };
    for (const [name, one] of [
      ['north', north],
      ['south', south],
    ] as const) {
      const saved = await runMon(['profile', 'add', name, '--base-url', one.url, '--api-key-stdin'], {
        env,
        input: one.apiKey,
      });
      expect(saved.code, saved.stderr).toBe(0);
    }
  });

  afterAll(async () => {
    await north?.close();
  });

  it('is in the README as one line with --output-file', () => {
    expect(recipe?.script.trim()).toBe(`mon --all-profiles status -o openmetrics --output-file ${COLLECTOR}/mon.prom`);
  });

  it('installs mon_up 0 for the account that is down, whatever the exit code, and leaves no temporary', async () => {
    const collector = join(dir, 'textfile');
    const { mkdirSync } = await import('node:fs');
    mkdirSync(collector);
    const example = { ...recipe!, script: recipe!.script.replaceAll(COLLECTOR, collector) };

    // Both up: the file is written, each account mon_up 1.
    const up = await runExample(example, dir, env);
    expect(
      up.invocations.map((one) => one.code),
      up.output,
    ).toEqual([0]);
    const before = readFileSync(join(collector, 'mon.prom'), 'utf8');
    expect(before).toMatch(/^mon_up\{account="south"\} 1$/m);
    expect(before).toMatch(/^mon_up\{account="north"\} 1$/m);

    await south.close();
    for (let run = 0; run < 3; run++) {
      const down = await runExample(example, dir, env);
      expect(
        down.invocations.map((one) => one.code),
        down.output,
      ).toEqual([9]);
      expect(down.output).toMatch(/^mon: south: cannot reach /m);
      const text = readFileSync(join(collector, 'mon.prom'), 'utf8');
      expect(text).toMatch(/^mon_up\{account="south"\} 0$/m);
      expect(text).toMatch(/^mon_up\{account="north"\} 1$/m);
      expect(text).not.toMatch(/^mon_computers\{account="south"/m);
      expect(text).toMatch(/^mon_computers\{account="north"/m);
      expect(text.endsWith('# EOF\n')).toBe(true);
      expect(readdirSync(collector)).toEqual(['mon.prom']);
    }
  }, 60_000);

  it('a command that fails before its answer is whole leaves the file as it was, and no temporary', async () => {
    const collector = tempDir('mon-collector-');
    const file = join(collector, 'computers.csv');
    writeFileSync(file, 'the last good list\n');
    const run = await runMon(['-p', 'south', 'computers', 'list', '--all', '-o', 'csv', '--output-file', file], {
      env,
    });
    expect(run.code).toBe(8);
    expect(run.stdout).toBe('');
    expect(readFileSync(file, 'utf8')).toBe('the last good list\n');
    expect(readdirSync(collector)).toEqual(['computers.csv']);
  });
});
