// `mon metrics serve` under scrapes: one account of --computers computers (10,000 by default),
// read once on its schedule (--refresh 1h: one read in the run), then --scrapes scrapes of
// /metrics, 50 at once. Targets: no API request beyond the schedule (counted at the sandbox), a
// scrape's 99th percentile under 20 ms, the exporter's memory flat (at most +10 MB from after
// the first 10% of the scrapes to the end). A benchmark, not a test: it prints figures and
// whether each target holds, and exits 1 when one does not.
//
//   node scripts/bench/exporter.mjs [--computers 10000] [--scrapes 10000] [--concurrency 50]
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { Agent, get } from 'node:http';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { loadSandbox } from './sandbox.mjs';

export const EXPORTER_TARGETS = { p99Ms: 20, memoryMb: 10 };

const MON = fileURLToPath(new URL('../../bin/mon', import.meta.url));

/** The resident memory of a process, in MB (Linux). */
function rssMb(pid) {
  const kb = Number(/^VmRSS:\s+(\d+) kB$/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))[1]);
  return kb / 1024;
}

/**
 * One GET of `url` through `agent`, its body read whole: the status. node:http with a keep-alive
 * agent, not fetch: fetch in this process cost each scrape more than the exporter took to answer
 * it, so the figure was the client's. 10,000 scrapes, 50 at once, 2 CPUs at load 1: p50 14-15 ms
 * and p99 48-51 ms with fetch; 7 ms and 30-33 ms with this.
 */
function scrape(agent, url) {
  return new Promise((resolve, reject) => {
    get(url, { agent }, (response) => {
      response.on('data', () => {});
      response.on('end', () => resolve(response.statusCode));
      response.on('error', reject);
    }).on('error', reject);
  });
}

function percentile(sorted, p) {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

export async function measureExporter({ computers, scrapes, concurrency }) {
  const sandboxes = await loadSandbox();
  const sandbox = await sandboxes.start(computers, { record: true });
  const configDir = mkdtempSync(join(sandboxes.dir, 'config-'));
  const env = { PATH: process.env.PATH ?? '', HOME: sandboxes.dir, MON_CONFIG_DIR: configDir };
  await new Promise((resolve, reject) => {
    const add = spawn(
      process.execPath,
      [MON, 'profile', 'add', 'bench', '--base-url', sandbox.url, '--api-key-stdin'],
      { env, stdio: ['pipe', 'ignore', 'inherit'] },
    );
    add.stdin.end(sandbox.apiKey);
    add.on('close', (code) => (code === 0 ? resolve() : reject(new Error(`profile add: exit ${code}`))));
  });
  const child = spawn(
    process.execPath,
    [MON, '-p', 'bench', 'metrics', 'serve', '--listen', '127.0.0.1:0', '--refresh', '1h'],
    { env, stdio: ['ignore', 'ignore', 'pipe'] },
  );
  try {
    const url = await new Promise((resolve, reject) => {
      let stderr = '';
      child.stderr.setEncoding('utf8').on('data', (chunk) => {
        stderr += chunk;
        const found = /Listening on (http:\/\/[^/\s]+)/.exec(stderr)?.[1];
        if (found) resolve(found);
      });
      child.on('close', (code) => reject(new Error(`metrics serve ended with ${code}: ${stderr}`)));
    });
    for (;;) {
      if ((await fetch(`${url}/-/ready`)).status === 200) break;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    const scheduled = sandbox.requests.length;
    const check = await (await fetch(`${url}/metrics`)).text();
    const total = check
      .split('\n')
      .filter((line) => line.startsWith('mon_computers{'))
      .reduce((sum, line) => sum + Number(line.slice(line.lastIndexOf(' ') + 1)), 0);
    if (total !== computers) throw new Error(`the exposition counts ${total} computers, not ${computers}`);

    const times = [];
    let next = 0;
    let memoryFrom;
    const warm = Math.floor(scrapes / 10);
    // One connection per worker, kept open, as a Prometheus server keeps its own.
    const agent = new Agent({ keepAlive: true, maxSockets: concurrency });
    const worker = async () => {
      while (next < scrapes) {
        const index = next++;
        if (index === warm) memoryFrom = rssMb(child.pid);
        const started = performance.now();
        const status = await scrape(agent, `${url}/metrics`);
        if (status !== 200) throw new Error(`scrape ${index}: ${status}`);
        times.push(performance.now() - started);
      }
    };
    await Promise.all(Array.from({ length: concurrency }, worker));
    agent.destroy();
    const memoryTo = rssMb(child.pid);
    times.sort((a, b) => a - b);
    return {
      computers,
      scrapes,
      concurrency,
      scheduled,
      extra: sandbox.requests.length - scheduled,
      p50: percentile(times, 50),
      p99: percentile(times, 99),
      memoryFrom,
      memoryTo,
      bytes: check.length,
    };
  } finally {
    child.kill('SIGTERM');
    await sandboxes.close();
  }
}

export function reportExporter(result, say) {
  const grew = result.memoryTo - result.memoryFrom;
  const holds = {
    requests: result.extra === 0,
    p99: result.p99 < EXPORTER_TARGETS.p99Ms,
    memory: grew <= EXPORTER_TARGETS.memoryMb,
  };
  say(
    `metrics serve over ${result.computers.toLocaleString('en')} computers (${result.bytes.toLocaleString('en')} bytes an exposition): ${result.scrapes.toLocaleString('en')} scrapes, ${result.concurrency} at once`,
  );
  say(
    `  API requests: ${result.scheduled} for the scheduled read, ${result.extra} more during the scrapes (target 0): ${holds.requests ? 'holds' : 'MISSED'}`,
  );
  say(
    `  scrape p50 ${result.p50.toFixed(2)} ms, p99 ${result.p99.toFixed(2)} ms (target under ${EXPORTER_TARGETS.p99Ms} ms): ${holds.p99 ? 'holds' : 'MISSED'}`,
  );
  say(
    `  memory ${result.memoryFrom.toFixed(1)} → ${result.memoryTo.toFixed(1)} MB (${grew >= 0 ? '+' : ''}${grew.toFixed(1)}; target at most +${EXPORTER_TARGETS.memoryMb}): ${holds.memory ? 'holds' : 'MISSED'}`,
  );
  return holds;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const { values } = parseArgs({
    options: {
      computers: { type: 'string', default: '10000' },
      scrapes: { type: 'string', default: '10000' },
      concurrency: { type: 'string', default: '50' },
    },
  });
  const result = await measureExporter({
    computers: Number(values.computers),
    scrapes: Number(values.scrapes),
    concurrency: Number(values.concurrency),
  });
  const holds = reportExporter(result, (line) => process.stdout.write(`${line}\n`));
  if (!Object.values(holds).every(Boolean)) process.exitCode = 1;
}
