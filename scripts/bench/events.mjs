// `mon events listen` under load, not a test: a sender posts deliveries at a fixed rate to a
// listener writing --output-file (each event synced to disk before its 2xx), retrying anything
// not answered 2xx, then checks that the file holds each event exactly once. It prints the rate
// held, the acknowledgement latency (p50, p99, max: from the POST to its answer) and, over a
// second run as fast as the listener takes them, the listener's memory growth.
//
//   node scripts/bench/events.mjs [--rate 1000] [--seconds 60] [--deliveries 100000] [--connections 64]
//
// Targets (issue #44): 1,000 deliveries/s for 60 s with nothing lost, p99 ≤ 50 ms at that rate,
// memory flat over 100,000 deliveries (≤ +10 MB). On a shared machine run it short
// (--seconds 10 --deliveries 20000) and read the figures as such.
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { Pool } from 'undici';

const MON = fileURLToPath(new URL('../../bin/mon', import.meta.url));
const { values } = parseArgs({
  options: {
    rate: { type: 'string', default: '1000' },
    seconds: { type: 'string', default: '60' },
    deliveries: { type: 'string', default: '100000' },
    connections: { type: 'string', default: '64' },
  },
});
const RATE = Number(values.rate);
const SECONDS = Number(values.seconds);
const DELIVERIES = Number(values.deliveries);
const CONNECTIONS = Number(values.connections);

/** Starts a listener; resolves once it printed where it listens. */
function startListener(file) {
  const child = spawn(process.execPath, [MON, 'events', 'listen', '--listen', '127.0.0.1:0', '--output-file', file], {
    env: {
      PATH: process.env.PATH,
      HOME: tmpdir(),
      MON_CONFIG_DIR: mkdtempSync(join(tmpdir(), 'mon-bench-events-cfg-')),
    },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  return new Promise((resolve, reject) => {
    child.stderr.setEncoding('utf8').on('data', (chunk) => {
      stderr += chunk;
      const match = /^Listening on (\S+)$/m.exec(stderr);
      if (match) resolve({ child, url: new URL(match[1]) });
    });
    child.once('exit', (code) => reject(new Error(`listener ended (${code}): ${stderr}`)));
  });
}

/** CPU time the process has used, user and system, in ms (/proc/PID/stat, in clock ticks of 10 ms). */
const cpuMs = (pid) => {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10;
};

const rssKb = (pid) => Number(/^VmRSS:\s+(\d+)/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))[1]);

const body = (i) =>
  JSON.stringify({
    event_id: `bench_${i}`,
    severity: i % 3 === 0 ? 'alert' : 'warning',
    previous_severity: 'ok',
    status_code: 2,
    previous_status: 0,
    new_status: 2,
    mute_type: null,
    is_hidden: false,
    computer: { client_id: `C-${i % 500}`, name: `host-${i % 500}` },
    group: { name: `Group ${i % 20}` },
    plugin_result: { name: 'Disk Usage', details: 'x'.repeat(200) },
  });

/** POSTs until 2xx; resolves with the latency of the attempt that was acknowledged and the tries. */
async function deliver(pool, path, i) {
  for (let tries = 1; ; tries++) {
    const start = performance.now();
    try {
      const response = await pool.request({
        path,
        method: 'POST',
        body: body(i),
        headers: { 'content-type': 'application/json' },
      });
      await response.body.dump();
      if (response.statusCode >= 200 && response.statusCode < 300) return { ms: performance.now() - start, tries };
    } catch {
      // dropped: send it again
    }
    if (tries > 50) throw new Error(`delivery ${i} not acknowledged after 50 tries`);
  }
}

const percentile = (sorted, p) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];

function checkFile(file, expected) {
  const ids = readFileSync(file, 'utf8')
    .trimEnd()
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line)._mon.id);
  const distinct = new Set(ids);
  return {
    lines: ids.length,
    distinct: distinct.size,
    lost: expected - distinct.size,
    twice: ids.length - distinct.size,
  };
}

async function atRate(dir) {
  const file = join(dir, 'rate.ndjson');
  const { child, url } = await startListener(file);
  const pool = new Pool(url.origin, { connections: CONNECTIONS });
  const total = RATE * SECONDS;
  const latencies = [];
  let retries = 0;
  const pending = [];
  const cpuBefore = cpuMs(child.pid);
  const started = performance.now();
  // Open loop: the i-th delivery leaves at i/RATE s, whatever the answers before it did.
  for (let i = 0; i < total; i++) {
    const due = started + (i * 1000) / RATE;
    const wait = due - performance.now();
    if (wait > 1) await new Promise((resolve) => setTimeout(resolve, wait));
    pending.push(
      deliver(pool, url.pathname, i).then(({ ms, tries }) => {
        latencies.push(ms);
        retries += tries - 1;
      }),
    );
  }
  await Promise.all(pending);
  const elapsed = (performance.now() - started) / 1000;
  const cpuPerDelivery = (cpuMs(child.pid) - cpuBefore) / total;
  await pool.close();
  child.kill('SIGTERM');
  await new Promise((resolve) => child.once('exit', resolve));
  latencies.sort((a, b) => a - b);
  return {
    total,
    elapsed,
    rate: total / elapsed,
    p50: percentile(latencies, 50),
    p99: percentile(latencies, 99),
    max: latencies.at(-1),
    retries,
    cpuPerDelivery,
    file: checkFile(file, total),
  };
}

async function memory(dir) {
  const file = join(dir, 'memory.ndjson');
  const { child, url } = await startListener(file);
  const pool = new Pool(url.origin, { connections: CONNECTIONS });
  let next = 0;
  const run = async (until) => {
    const worker = async () => {
      while (next < until) await deliver(pool, url.pathname, next++);
    };
    await Promise.all(Array.from({ length: CONNECTIONS }, worker));
  };
  // Warm up past the ids the listener remembers (10,000), so what follows is its steady state.
  const warm = Math.min(DELIVERIES, 12_000);
  await run(warm);
  const before = rssKb(child.pid);
  const samples = [before];
  const started = performance.now();
  for (let quarter = 1; quarter <= 4; quarter++) {
    await run(warm + Math.round(((DELIVERIES - warm) * quarter) / 4));
    samples.push(rssKb(child.pid));
  }
  const elapsed = (performance.now() - started) / 1000;
  const after = rssKb(child.pid);
  await pool.close();
  child.kill('SIGTERM');
  await new Promise((resolve) => child.once('exit', resolve));
  return {
    deliveries: DELIVERIES,
    measured: DELIVERIES - warm,
    rate: (DELIVERIES - warm) / elapsed,
    rssBeforeMb: before / 1024,
    rssAfterMb: after / 1024,
    samplesMb: samples.map((kb) => (kb / 1024).toFixed(1)),
    growthMb: (after - before) / 1024,
    file: checkFile(file, DELIVERIES),
  };
}

const dir = mkdtempSync(join(tmpdir(), 'mon-bench-events-'));
try {
  const rate = await atRate(dir);
  console.log(
    `events listen at ${RATE}/s for ${SECONDS}s with --output-file: ${rate.total} deliveries in ${rate.elapsed.toFixed(1)}s (${rate.rate.toFixed(0)}/s held)`,
  );
  console.log(
    `  acknowledged: p50 ${rate.p50.toFixed(1)} ms, p99 ${rate.p99.toFixed(1)} ms, max ${rate.max.toFixed(1)} ms; ${rate.retries} retries; the listener's CPU ${rate.cpuPerDelivery.toFixed(2)} ms a delivery (load average ${loadavg()[0].toFixed(1)} on ${cpus().length} cores)`,
  );
  console.log(
    `  file: ${rate.file.lines} lines, ${rate.file.lost} lost, ${rate.file.twice} twice  [target: 0 lost, p99 ≤ 50 ms: ${rate.file.lost === 0 && rate.file.twice === 0 && rate.p99 <= 50 ? 'holds' : 'MISSED'}]`,
  );
  const mem = await memory(dir);
  console.log(
    `memory over ${mem.deliveries} deliveries (${mem.measured} measured after warm-up, ${mem.rate.toFixed(0)}/s): RSS ${mem.rssBeforeMb.toFixed(1)} → ${mem.rssAfterMb.toFixed(1)} MB (${mem.growthMb >= 0 ? '+' : ''}${mem.growthMb.toFixed(1)} MB; by quarters ${mem.samplesMb.join(' → ')})`,
  );
  console.log(
    `  file: ${mem.file.lines} lines, ${mem.file.lost} lost, ${mem.file.twice} twice  [target: ≤ +10 MB: ${mem.growthMb <= 10 && mem.file.lost === 0 ? 'holds' : 'MISSED'}]`,
  );
  process.exitCode =
    rate.file.lost === 0 && rate.file.twice === 0 && mem.file.lost === 0 && mem.file.twice === 0 ? 0 : 1;
} finally {
  rmSync(dir, { recursive: true, force: true });
}
