// The fleet commands in `npm run bench`: `alerts -o ndjson` and `status -o json` against the
// same pages read by `computers list --all --expand plugin_results -o ndjson`, at 1,000 and
// 10,000 computers. Targets: wall time within 1.3× of that list at 10,000, and peak memory
// within 10 MB of it at each size. Alone: `node scripts/bench/fleet.mjs [--runs 5]`.
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { stats, timingRow } from './measure.mjs';

export const FLEET_TARGETS = { wall: 1.3, memoryMb: 10 };

const COMMANDS = [
  {
    key: 'list',
    label: 'computers list --all --expand plugin_results -o ndjson (reference)',
    args: ['computers', 'list', '--all', '--expand', 'plugin_results', '-o', 'ndjson'],
  },
  { key: 'alerts', label: 'alerts -o ndjson', args: ['alerts', '-o', 'ndjson'] },
  { key: 'status', label: 'status -o json', args: ['status', '-o', 'json'] },
];

/** The default selection of alerts, read by the bench itself over HTTP: the right answer. */
async function expectedAlerts(sandbox) {
  const uids = [];
  for (let page = 1; ; page++) {
    const response = await fetch(
      `${sandbox.url}/v2.5/computers?expand[]=plugin_results&per_page=100&page=${page}&api_key=${sandbox.apiKey}`,
    );
    for (const computer of await response.json()) {
      for (const result of computer.plugin_results ?? []) {
        if (
          (result.status === 'Alert' || result.status === 'Warning') &&
          result.muted !== true &&
          result.visible !== false
        )
          uids.push(result.uid);
      }
    }
    if (!response.headers.get('x-next-page')) return uids.sort();
  }
}

/**
 * Checks the answers, then runs each command `runs` times (after one warm-up round) on each
 * sandbox, interleaved. `mon(args, sandbox, options)` runs bin/mon as the bench does.
 */
export async function measureFleet({ mon, sizes, freshDir, runs, fail }) {
  const [[big, bigCount]] = sizes;
  const want = await expectedAlerts(big);
  const got = await mon(['alerts', '-o', 'ndjson'], big, { capture: true, configDir: freshDir() });
  const uids = got.stdout
    .trim()
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line).uid)
    .sort();
  if (got.code !== 0 || uids.join() !== want.join())
    fail(`alerts -o ndjson: exit ${got.code}, ${uids.length} results, ${want.length} expected ${got.stderr.trim()}`);
  const status = await mon(['status', '-o', 'json'], big, { capture: true, configDir: freshDir() });
  const report = status.code === 0 ? JSON.parse(status.stdout) : undefined;
  if (
    report?.computers.total !== bigCount ||
    report.plugin_results.alerts + report.plugin_results.warnings !== want.length
  ) {
    fail(`status -o json: exit ${status.code}, ${report?.computers.total} computers ${status.stderr.trim()}`);
  }
  const samples = Object.fromEntries(
    COMMANDS.map((c) => [c.key, { ms: [], rss: Object.fromEntries(sizes.map(([, n]) => [n, []])) }]),
  );
  for (let round = -1; round < runs; round++) {
    for (const [sandbox, count] of sizes) {
      for (const command of COMMANDS) {
        const result = await mon(command.args, sandbox, { memory: true, configDir: freshDir() });
        if (result.code !== 0) fail(`${command.label} over ${count}: exit ${result.code} ${result.stderr.trim()}`);
        if (round < 0) continue;
        if (count === bigCount) samples[command.key].ms.push(result.ms);
        samples[command.key].rss[count].push(result.rssMb);
      }
    }
  }
  return {
    sizes: sizes.map(([, n]) => n),
    samples,
    checked: `alerts (${want.length} results) and status (${bigCount} computers) checked`,
  };
}

/** Prints the rows and returns the targets, as bench.mjs records them. */
export function reportFleet({ sizes, samples, checked }, say) {
  const targets = {};
  const [big] = sizes;
  say(
    `Fleet commands over ${sizes.map((n) => n.toLocaleString('en')).join(' and ')} computers with plugin results (${checked}); median [min … max]`,
  );
  const reference = stats(samples.list.ms);
  for (const command of COMMANDS) {
    const s = stats(samples[command.key].ms);
    const ratio = s.median / reference.median;
    const memory = sizes.map((n) => {
      const mine = stats(samples[command.key].rss[n]);
      const base = stats(samples.list.rss[n]);
      return { n, mb: mine.median, over: mine.median - base.median };
    });
    const reference_ = command.key === 'list';
    const wallHolds = ratio <= FLEET_TARGETS.wall;
    const memoryHolds = memory.every((m) => m.over <= FLEET_TARGETS.memoryMb);
    const memText = memory
      .map(
        (m) =>
          `${m.n.toLocaleString('en')}: ${m.mb.toFixed(1)} MB${reference_ ? '' : ` (${m.over >= 0 ? '+' : ''}${m.over.toFixed(1)})`}`,
      )
      .join(', ');
    say(
      timingRow(
        command.label,
        s,
        reference_
          ? `  peak ${memText}`
          : `  ${ratio.toFixed(2)}× (≤ ${FLEET_TARGETS.wall}×: ${wallHolds ? 'holds' : 'MISSED'}); peak ${memText} (≤ +${FLEET_TARGETS.memoryMb} MB: ${memoryHolds ? 'holds' : 'MISSED'})`,
      ),
    );
    if (!reference_)
      targets[`fleet-${command.key}`] = {
        ...s,
        ratio,
        memory,
        wallTarget: FLEET_TARGETS.wall,
        memoryTargetMb: FLEET_TARGETS.memoryMb,
        holds: wallHolds && memoryHolds,
        at: big,
      };
  }
  return targets;
}

// Alone: its own sandboxes and bundle as built.
if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const { values } = parseArgs({ options: { runs: { type: 'string', default: '5' } } });
  const { alone } = await import('./sandbox.mjs');
  const {
    sandboxes: [big, small],
    mon,
    freshDir,
    fail,
    close,
  } = await alone([10_000, 1_000]);
  const measured = await measureFleet({
    mon,
    sizes: [
      [big, 10_000],
      [small, 1_000],
    ],
    freshDir,
    runs: Number(values.runs),
    fail,
  });
  await close();
  reportFleet(measured, (line = '') => process.stdout.write(`${line}\n`));
}
