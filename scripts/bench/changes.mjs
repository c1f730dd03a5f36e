// `--changes NAME` in `npm run bench`: `computers list --changes NAME -o ndjson` over 10,000
// computers as a cron job runs it (a state saved by the run before, nothing changed since),
// against the same list without it, `computers list --all -o ndjson`. Target: within 1.2×.
// Also reports the size of the saved state. Alone: `node scripts/bench/changes.mjs [--runs 5]`.
import { statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { inTurn, stats, timingRow } from './measure.mjs';

export const CHANGES_TARGET = 1.2;

/**
 * Both rows read 100 pages in one config folder (the state lives there, beside the rate ledger),
 * so the client's own budget is raised for both alike, as the 50,000 row does.
 */
const ENV = { MON_RATE_LIMIT: '100000/60' };

/**
 * Checks the answers (the first run records 10,000 computers as the baseline, the next finds no
 * change), then runs the two commands `runs` times (after one warm-up round), interleaved.
 */
export async function measureChanges({ mon, big, count, freshDir, runs, fail }) {
  const dir = freshDir();
  const args = ['computers', 'list', '--changes', 'bench', '-o', 'ndjson'];
  const first = await mon(args, big, { capture: true, configDir: dir, env: ENV });
  if (
    first.code !== 0 ||
    first.stdout !== '' ||
    first.stderr !== `recorded ${count} computers as the baseline of 'bench'\n`
  ) {
    fail(`--changes, first run: exit ${first.code}, ${first.stdout.length} bytes on stdout, ${first.stderr.trim()}`);
  }
  const second = await mon(args, big, { capture: true, configDir: dir, env: ENV });
  if (second.code !== 0 || second.stdout !== '' || !/^no changes since .* \(\d+ computers\)\n$/.test(second.stderr)) {
    fail(
      `--changes, second run: exit ${second.code}, ${second.stdout.length} bytes on stdout, ${second.stderr.trim()}`,
    );
  }
  const file = join(dir, 'changes', `@${new URL(big.url).host.replace(/[^\w.-]/g, '_')}`, 'bench.json');
  const stateBytes = statSync(file).size;
  const samples = await inTurn(
    runs,
    [
      [
        'list',
        `--all -o ndjson over ${count}`,
        () => mon(['computers', 'list', '--all', '-o', 'ndjson'], big, { configDir: dir, env: ENV }),
      ],
      ['changes', `--changes over ${count}`, () => mon(args, big, { configDir: dir, env: ENV })],
    ],
    fail,
  );
  return { count, samples, stateBytes };
}

/** Prints the rows and returns the target, as bench.mjs records it. */
export function reportChanges({ count, samples, stateBytes }, say) {
  const reference = stats(samples.list);
  const mine = stats(samples.changes);
  const ratio = mine.median / reference.median;
  const holds = ratio <= CHANGES_TARGET;
  const row = (label, s, tail) => say(timingRow(label, s, tail));
  say(
    `--changes over ${count.toLocaleString('en')} computers, nothing changed since the saved state (${(stateBytes / 1024).toFixed(0)} KiB); median [min … max]`,
  );
  row('computers list --all -o ndjson (reference)', reference);
  row(
    'computers list --changes NAME -o ndjson',
    mine,
    `  ${ratio.toFixed(2)}× (≤ ${CHANGES_TARGET}×: ${holds ? 'holds' : 'MISSED'})`,
  );
  return { changes: { ...mine, ratio, target: CHANGES_TARGET, holds, stateBytes } };
}

// Alone: its own sandbox and the bundle as built.
if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const { values } = parseArgs({ options: { runs: { type: 'string', default: '5' } } });
  const { alone } = await import('./sandbox.mjs');
  const {
    sandboxes: [big],
    mon,
    freshDir,
    fail,
    close,
  } = await alone([10_000]);
  const measured = await measureChanges({ mon, big, count: 10_000, freshDir, runs: Number(values.runs), fail });
  await close();
  reportChanges(measured, (line = '') => process.stdout.write(`${line}\n`));
}
