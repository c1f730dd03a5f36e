// Timing and peak memory of child processes, and the statistics the benchmark prints.
import { spawn } from 'node:child_process';
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';

/** GNU time reports the peak resident set of the child it waits for (wait4 rusage, in KB). */
const GNU_TIME = ['/usr/bin/time', '/bin/time'].find((file) => existsSync(file));

/** How peak memory is measured here, for the report. */
export const MEMORY_METHOD = GNU_TIME
  ? `maxRSS of the mon process from ${GNU_TIME} -f %M (getrusage at exit)`
  : process.platform === 'linux'
    ? 'VmHWM from /proc/<pid>/status, polled every 5 ms (last value before exit)'
    : 'not available on this system';

/**
 * Runs `command` once; resolves with its wall time in ms (spawn to exit), exit code, stdout (when
 * `capture`), and peak RSS in MB (when `memory`). The event loop stays free meanwhile, so a
 * sandbox in this process can answer the child.
 */
export function run(command, args, { env, capture = false, memory = false, scratch } = {}) {
  return new Promise((resolve, reject) => {
    let file = command;
    let argv = args;
    let rssFile;
    if (memory && GNU_TIME) {
      rssFile = join(scratch, `rss-${process.pid}-${Date.now()}-${Math.random().toString(36).slice(2)}`);
      file = GNU_TIME;
      argv = ['-f', '%M', '-o', rssFile, command, ...args];
    }
    const started = process.hrtime.bigint();
    const child = spawn(file, argv, { env, stdio: ['ignore', capture ? 'pipe' : 'ignore', 'pipe'] });
    const out = [];
    let err = '';
    child.stdout?.on('data', (chunk) => out.push(chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk) => (err += chunk));
    let hwm = 0;
    const poll =
      memory && !GNU_TIME && process.platform === 'linux'
        ? setInterval(() => {
            try {
              const kb = Number(/VmHWM:\s+(\d+)/.exec(readFileSync(`/proc/${child.pid}/status`, 'utf8'))?.[1]);
              if (kb > hwm) hwm = kb;
            } catch {
              // gone
            }
          }, 5)
        : undefined;
    child.on('error', reject);
    child.on('close', (code) => {
      const ms = Number(process.hrtime.bigint() - started) / 1e6;
      if (poll) clearInterval(poll);
      let rssMb;
      if (rssFile) {
        try {
          rssMb = Number(readFileSync(rssFile, 'utf8').trim().split('\n').at(-1)) / 1024;
        } catch {
          rssMb = undefined;
        }
        rmSync(rssFile, { force: true });
      } else if (hwm > 0) {
        rssMb = hwm / 1024;
      }
      resolve({ ms, code, stdout: capture ? Buffer.concat(out).toString('utf8') : '', stderr: err, rssMb });
    });
  });
}

/** median, min and max of a list of numbers. */
export function stats(values) {
  const sorted = values.filter((v) => typeof v === 'number' && Number.isFinite(v)).sort((a, b) => a - b);
  if (sorted.length === 0) return { median: NaN, min: NaN, max: NaN, n: 0 };
  const mid = sorted.length >> 1;
  const median = sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
  return { median, min: sorted[0], max: sorted.at(-1), n: sorted.length };
}

/** One row of a part's report: the label, then the median and [min … max] of `s`, then `tail`. */
export function timingRow(label, s, tail = '') {
  return `  ${label.padEnd(62)} ${`${s.median.toFixed(1)} ms`.padStart(10)}  [${s.min.toFixed(1)} … ${s.max.toFixed(1)}]${tail}`;
}

/**
 * Runs each step in turn, a round at a time: one warm-up round, then `runs` measured ones, so
 * that load from other processes hits every step alike. A step is [key, label, go]; go() runs
 * one command (run()'s result). Returns the wall times by key (steps may share a key).
 */
export async function inTurn(runs, steps, fail) {
  const samples = Object.fromEntries(steps.map(([key]) => [key, []]));
  for (let round = -1; round < runs; round++) {
    for (const [key, label, go] of steps) {
      const result = await go();
      if (result.code !== 0) fail(`${label}: exit ${result.code} ${result.stderr.trim()}`);
      if (round >= 0) samples[key].push(result.ms);
    }
  }
  return samples;
}
