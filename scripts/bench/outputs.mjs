// The fleet's other outputs in `npm run bench`: `status -o openmetrics` and `mon report` over
// 10,000 computers, against `status -o json` on the same data (they read what status reads).
// Targets: openmetrics within 1.1×, the report within 1.5× and its file under 5 MB.
// Alone: `node scripts/bench/outputs.mjs [--runs 5]`.
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { inTurn, stats, timingRow } from './measure.mjs';

export const OUTPUT_TARGETS = { openmetrics: 1.1, report: 1.5, reportBytes: 5 * 1024 * 1024 };

/** Both read 100 pages: the client's own budget is raised for all alike. */
const ENV = { MON_RATE_LIMIT: '100000/60' };

export async function measureOutputs({ mon, big, count, freshDir, runs, fail }) {
  const dir = freshDir();
  const report = await mon(['report'], big, { capture: true, configDir: dir, env: ENV });
  if (report.code !== 0 || !report.stdout.includes(`Inventory (${count})`))
    fail(`report: exit ${report.code}, ${report.stderr.trim()}`);
  const metrics = await mon(['status', '-o', 'openmetrics'], big, { capture: true, configDir: dir, env: ENV });
  if (metrics.code !== 0 || !metrics.stdout.endsWith('# EOF\n'))
    fail(`status -o openmetrics: exit ${metrics.code}, ${metrics.stderr.trim()}`);
  const samples = await inTurn(
    runs,
    [
      ['json', 'status -o json', () => mon(['status', '-o', 'json'], big, { configDir: dir, env: ENV })],
      [
        'openmetrics',
        'status -o openmetrics',
        () => mon(['status', '-o', 'openmetrics'], big, { configDir: dir, env: ENV }),
      ],
      ['report', 'report', () => mon(['report'], big, { configDir: dir, env: ENV })],
    ],
    fail,
  );
  return { count, samples, reportBytes: Buffer.byteLength(report.stdout) };
}

/** Prints the rows and returns the targets, as bench.mjs records them. */
export function reportOutputs({ count, samples, reportBytes }, say) {
  const json = stats(samples.json);
  const row = (label, s, tail = '') => say(timingRow(label, s, tail));
  const against = (key, limit) => {
    const s = stats(samples[key]);
    const ratio = s.median / json.median;
    return { ...s, ratio, target: limit, holds: ratio <= limit };
  };
  const openmetrics = against('openmetrics', OUTPUT_TARGETS.openmetrics);
  const report = against('report', OUTPUT_TARGETS.report);
  const bytesHold = reportBytes <= OUTPUT_TARGETS.reportBytes;
  say(`status -o openmetrics and mon report over ${count.toLocaleString('en')} computers; median [min … max]`);
  row('status -o json (reference)', json);
  row(
    'status -o openmetrics',
    openmetrics,
    `  ${openmetrics.ratio.toFixed(2)}× (≤ ${OUTPUT_TARGETS.openmetrics}×: ${openmetrics.holds ? 'holds' : 'MISSED'})`,
  );
  row(
    'report',
    report,
    `  ${report.ratio.toFixed(2)}× (≤ ${OUTPUT_TARGETS.report}×: ${report.holds ? 'holds' : 'MISSED'})`,
  );
  say(
    `${'report file'.padEnd(50)}${(reportBytes / 1024 / 1024).toFixed(2)} MB (≤ 5 MB: ${bytesHold ? 'holds' : 'MISSED'})`,
  );
  return { openmetrics, report, reportBytes: { bytes: reportBytes, holds: bytesHold } };
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
  const measured = await measureOutputs({ mon, big, count: 10_000, freshDir, runs: Number(values.runs), fail });
  await close();
  reportOutputs(measured, (line = '') => process.stdout.write(`${line}\n`));
}
