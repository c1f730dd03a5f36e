// Sandbox writes in `npm run bench`: one PUT (a mute, then its unmute) on a 10,000-computer
// sandbox that keeps its state in a file as `mon sandbox` does, against one GET of a computer
// there. The two requests go straight over HTTP from this process, no mon in between: the row
// measures the sandbox's store. Target: a write within 2× a read, whatever the account's size.
// Alone: `node scripts/bench/sandbox-writes.mjs [--runs 30]`.
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { stats, timingRow } from './measure.mjs';

export const SANDBOX_WRITE_TARGET = 2;

/** Starts its own sandbox with a state file, then times `runs` reads and writes in turn (after warm-up). */
export async function measureSandboxWrites({ sandboxes, computers, runs, fail }) {
  const sandbox = await sandboxes.start(computers, { stateFile: join(sandboxes.dir, `writes-${computers}.json`) });
  const api = async (method, path, form) => {
    const key = new URLSearchParams({ api_key: sandbox.apiKey });
    const started = performance.now();
    const res =
      method === 'GET'
        ? await fetch(`${sandbox.url}/v2.5${path}${path.includes('?') ? '&' : '?'}${key}`)
        : await fetch(`${sandbox.url}/v2.5${path}`, {
            method,
            body: new URLSearchParams({ ...form, api_key: sandbox.apiKey }),
          });
    const body = await res.text();
    const ms = performance.now() - started;
    if (res.status !== 200) fail(`sandbox writes: ${method} ${path}: ${res.status} ${body.slice(0, 200)}`);
    return { ms, body };
  };
  const [computer] = JSON.parse((await api('GET', '/computers?per_page=1&expand[]=plugin_results')).body);
  const result = computer.plugin_results[0].uid;
  const samples = { read: [], write: [] };
  for (let round = -5; round < runs; round++) {
    const read = await api('GET', `/computers/${computer.client_id}`);
    const write = await api('PUT', `/plugin_results/${result}`, {
      'plugin_result[mute_type]': round % 2 ? 'ignored' : 'none',
    });
    if (round < 0) continue;
    samples.read.push(read.ms);
    samples.write.push(write.ms);
  }
  return { computers, samples };
}

/** Prints the rows and returns the target, as bench.mjs records it. */
export function reportSandboxWrites({ computers, samples }, say) {
  const read = stats(samples.read);
  const write = stats(samples.write);
  const ratio = write.median / read.median;
  const holds = ratio <= SANDBOX_WRITE_TARGET;
  say(
    `The sandbox with ${computers.toLocaleString('en')} computers and a state file: one write against one read; median [min … max]`,
  );
  say(timingRow('GET /computers/<client_id> (reference)', read));
  say(
    timingRow(
      'PUT /plugin_results/<uid> (a mute)',
      write,
      `  ${ratio.toFixed(2)}× (≤ ${SANDBOX_WRITE_TARGET}×: ${holds ? 'holds' : 'MISSED'})`,
    ),
  );
  return { sandboxWrites: { ...write, ratio, target: SANDBOX_WRITE_TARGET, holds } };
}

// Alone: its own sandbox.
if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const { values } = parseArgs({
    options: { runs: { type: 'string', default: '30' }, computers: { type: 'string', default: '10000' } },
  });
  const { loadSandbox } = await import('./sandbox.mjs');
  const sandboxes = await loadSandbox();
  const fail = (message) => {
    process.stderr.write(`bench: ${message}\n`);
    process.exitCode = 1;
  };
  const measured = await measureSandboxWrites({
    sandboxes,
    computers: Number(values.computers),
    runs: Number(values.runs),
    fail,
  });
  await sandboxes.close();
  reportSandboxWrites(measured, (line = '') => process.stdout.write(`${line}\n`));
}
