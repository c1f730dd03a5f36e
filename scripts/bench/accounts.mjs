// Many accounts in `npm run bench`: `--all-profiles computers list --all -o ndjson` over three
// accounts (three sandboxes, each with its own key and 3,000 computers, saved as three profiles)
// against the same command for one of them. The accounts are read side by side, so the target
// is well under 3×: at most 2.5× one account. On loopback there is no network latency for the
// accounts to overlap: mon's own work per computer (parsing, checking, printing) is what
// remains, and only the start-up is shared, so the ratio tells how little the fan-out adds.
// Alone: `node scripts/bench/accounts.mjs [--runs 5]`.
import { copyFileSync, mkdtempSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { inTurn, run, stats, timingRow } from './measure.mjs';

export const ACCOUNT_COUNT = 3;
export const ACCOUNT_COMPUTERS = 3_000;
export const ACCOUNTS_TARGET = 2.5;
const PROFILES = ['north', 'south', 'west'];

/** Three sandboxes of 3,000 computers, each with a key of its own. */
export async function startAccounts(sandboxes) {
  const started = [];
  for (const [i, profile] of PROFILES.entries())
    started.push({
      profile,
      sandbox: await sandboxes.start(ACCOUNT_COMPUTERS, { apiKey: `bench_${profile}_key_000${i}` }),
    });
  return started;
}

/**
 * Saves the accounts as profiles, checks the answers, then runs both commands `runs` times
 * (after one warm-up round), interleaved. Each run gets a fresh copy of the profiles, so that
 * no run waits on the rate budget the others spent.
 */
export async function measureAccounts({ node, mon: monBin, accounts, freshDir, scratch, runs, fail }) {
  const saved = freshDir();
  for (const { profile, sandbox } of accounts) {
    const added = spawnSync(node, [monBin, 'profile', 'add', profile, '--base-url', sandbox.url, '--api-key-stdin'], {
      input: sandbox.apiKey,
      env: { PATH: process.env.PATH ?? '', HOME: scratch, MON_CONFIG_DIR: saved },
    });
    if (added.status !== 0) throw new Error(`profile add ${profile}: ${added.stderr}`);
  }
  const configDir = () => {
    const dir = freshDir();
    copyFileSync(join(saved, 'config.json'), join(dir, 'config.json'));
    return dir;
  };
  const mon = (args, options = {}) =>
    run(node, [monBin, ...args], {
      env: { PATH: process.env.PATH ?? '', HOME: scratch, TMPDIR: scratch, MON_CONFIG_DIR: configDir() },
      scratch,
      ...options,
    });
  const one = ['-p', PROFILES[0], 'computers', 'list', '--all', '-o', 'ndjson'];
  const every = ['--all-profiles', 'computers', 'list', '--all', '-o', 'ndjson'];

  const got = await mon(every, { capture: true });
  const lines = got.stdout
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line).profile);
  const inOrder = PROFILES.flatMap((profile) => Array(ACCOUNT_COMPUTERS).fill(profile));
  if (got.code !== 0 || lines.join() !== inOrder.join())
    fail(
      `--all-profiles computers list --all -o ndjson: exit ${got.code}, ${lines.length} lines, ${ACCOUNT_COUNT * ACCOUNT_COMPUTERS} in account order expected ${got.stderr.trim()}`,
    );

  const samples = await inTurn(
    runs,
    [
      ['one', one.join(' '), () => mon(one)],
      ['every', every.join(' '), () => mon(every)],
    ],
    fail,
  );
  return { samples };
}

/** Prints the rows and returns the target, as bench.mjs records it. */
export function reportAccounts({ samples }, say) {
  const one = stats(samples.one);
  const every = stats(samples.every);
  const ratio = every.median / one.median;
  const holds = ratio <= ACCOUNTS_TARGET;
  const n = ACCOUNT_COMPUTERS.toLocaleString('en');
  say(
    `Many accounts: ${ACCOUNT_COUNT} accounts of ${n} computers, read side by side (--parallel 4); median [min … max]`,
  );
  say(timingRow(`-p north computers list --all -o ndjson (one account, ${n})`, one));
  say(
    timingRow(
      `--all-profiles computers list --all -o ndjson (${ACCOUNT_COUNT} × ${n})`,
      every,
      `  ${ratio.toFixed(2)}× one account (≤ ${ACCOUNTS_TARGET}×, well under ${ACCOUNT_COUNT}×: ${holds ? 'holds' : 'MISSED'})`,
    ),
  );
  return { accounts: { ...every, one, ratio, target: ACCOUNTS_TARGET, holds } };
}

// Alone: its own sandboxes and the bundle as built.
if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const { values } = parseArgs({ options: { runs: { type: 'string', default: '5' } } });
  const { loadSandbox } = await import('./sandbox.mjs');
  const MON = fileURLToPath(new URL('../../bin/mon', import.meta.url));
  const sandboxes = await loadSandbox();
  const accounts = await startAccounts(sandboxes);
  const freshDir = () => mkdtempSync(join(sandboxes.dir, 'config-'));
  const fail = (message) => {
    process.stderr.write(`bench: ${message}\n`);
    process.exitCode = 1;
  };
  const measured = await measureAccounts({
    node: process.execPath,
    mon: MON,
    accounts,
    freshDir,
    scratch: sandboxes.dir,
    runs: Number(values.runs),
    fail,
  });
  await sandboxes.close();
  reportAccounts(measured, (line = '') => process.stdout.write(`${line}\n`));
}
