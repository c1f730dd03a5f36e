// The sandbox at fleet size in `npm run bench`: how long `mon sandbox serve --computers 10000`
// takes from spawn to its first answer (a GET of one computer), seeding a new fleet and from its
// saved state, and with --live (which seeds in memory every time); and the CPU share of a living
// fleet of 10,000 computers at --speed 60 over a stretch of real time (Linux: /proc/<pid>/stat).
// Targets (#43): first answer <= 2.5 s seeding, <= 1.5 s from saved state; the living fleet
// under 10 % of one core on average.
// Alone: `node scripts/bench/sandbox-live.mjs [--runs 3] [--cpu-seconds 60] [--computers 10000]`.
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { stats, timingRow } from './measure.mjs';

const MON = fileURLToPath(new URL('../../bin/mon', import.meta.url));
export const START_TARGET_SEED_MS = 2_500;
export const START_TARGET_SAVED_MS = 1_500;
export const LIVE_CPU_TARGET = 0.1;

/** Spawns `mon sandbox serve …`; resolves once it has answered one GET, with the time taken and the child. */
async function firstAnswer(node, dir, args) {
  const started = performance.now();
  const child = spawn(node, [MON, 'sandbox', 'serve', '--port', '0', ...args], {
    env: { PATH: process.env.PATH ?? '', HOME: dir, MON_CONFIG_DIR: dir },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const url = await new Promise((resolve, reject) => {
    let out = '';
    child.stdout.setEncoding('utf8').on('data', (chunk) => {
      out += chunk;
      const found = /export MON_BASE_URL=(\S+)/.exec(out)?.[1];
      if (found && out.includes('export MON_API_KEY=')) resolve(found);
    });
    child.once('exit', (code) => reject(new Error(`mon sandbox serve exited with ${code}`)));
  });
  const res = await fetch(`${url}/v2.5/computers?per_page=1&api_key=sbx_live_demo_4f6c2a9e1b7d`);
  await res.arrayBuffer();
  if (res.status !== 200) throw new Error(`first answer: HTTP ${res.status}`);
  return { ms: performance.now() - started, child, url };
}

async function stop(child) {
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGINT');
  await exited;
}

/** CPU seconds a process has used (user + system), from /proc; undefined where there is none. */
function cpuSeconds(pid) {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    // utime and stime are fields 14 and 15 of the line, 12 and 13 after "pid (comm) "
    return (Number(fields[11]) + Number(fields[12])) / 100;
  } catch {
    return undefined;
  }
}

export async function measureSandboxLive({
  node = process.execPath,
  computers = 10_000,
  runs = 3,
  cpuSeconds: window = 60,
}) {
  const size = ['--computers', String(computers)];
  const samples = { seed: [], saved: [], live: [] };
  for (let round = 0; round < runs; round++) {
    const dir = mkdtempSync(join(tmpdir(), 'mon-bench-sandbox-'));
    try {
      const fresh = await firstAnswer(node, dir, size);
      samples.seed.push(fresh.ms);
      await stop(fresh.child);
      const saved = await firstAnswer(node, dir, size);
      samples.saved.push(saved.ms);
      await stop(saved.child);
      const live = await firstAnswer(node, dir, [...size, '--live', '--speed', '60']);
      samples.live.push(live.ms);
      await stop(live.child);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }
  // The living fleet's CPU over `window` seconds of real time, after its start.
  const dir = mkdtempSync(join(tmpdir(), 'mon-bench-sandbox-'));
  let cpu;
  try {
    const live = await firstAnswer(node, dir, [...size, '--live', '--speed', '60']);
    const before = cpuSeconds(live.child.pid);
    const wallStart = performance.now();
    await new Promise((resolve) => setTimeout(resolve, window * 1000));
    const after = cpuSeconds(live.child.pid);
    const wall = (performance.now() - wallStart) / 1000;
    await stop(live.child);
    if (before !== undefined && after !== undefined) cpu = { share: (after - before) / wall, seconds: wall };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  return { computers, samples, cpu };
}

/** Prints the rows and returns whether each target holds. */
export function reportSandboxLive({ computers, samples, cpu }, say) {
  const seed = stats(samples.seed);
  const saved = stats(samples.saved);
  const live = stats(samples.live);
  const verdict = (s, limit) => `  (≤ ${(limit / 1000).toFixed(1)} s: ${s.max <= limit ? 'holds' : 'MISSED'})`;
  say(`mon sandbox serve --computers ${computers.toLocaleString('en')}: spawn to the first answer; median [min … max]`);
  say(timingRow('seeding a new fleet', seed, verdict(seed, START_TARGET_SEED_MS)));
  say(timingRow('from its saved state', saved, verdict(saved, START_TARGET_SAVED_MS)));
  say(timingRow('--live --speed 60 (seeds in memory each start)', live, verdict(live, START_TARGET_SEED_MS)));
  if (cpu)
    say(
      `  the living fleet at --speed 60: ${(cpu.share * 100).toFixed(2)} % of one core over ${cpu.seconds.toFixed(0)} s  (< ${LIVE_CPU_TARGET * 100} %: ${cpu.share < LIVE_CPU_TARGET ? 'holds' : 'MISSED'})`,
    );
  else say('  the living fleet: no /proc here, CPU share not measured');
  return {
    sandboxStart: {
      seed,
      saved,
      live,
      holds: seed.max <= START_TARGET_SEED_MS && saved.max <= START_TARGET_SAVED_MS && live.max <= START_TARGET_SEED_MS,
    },
    sandboxLiveCpu: cpu && { ...cpu, holds: cpu.share < LIVE_CPU_TARGET },
  };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const { values } = parseArgs({
    options: {
      runs: { type: 'string', default: '3' },
      'cpu-seconds': { type: 'string', default: '60' },
      computers: { type: 'string', default: '10000' },
    },
  });
  const measured = await measureSandboxLive({
    computers: Number(values.computers),
    runs: Number(values.runs),
    cpuSeconds: Number(values['cpu-seconds']),
  });
  reportSandboxLive(measured, (line = '') => process.stdout.write(`${line}\n`));
}
