// The sandbox for the benchmark, run inside the bench process: the real src/sandbox/server.ts,
// bundled on the fly (the dist/ bundle does not export it), with the server-side rate limit
// raised so that repeated runs do not wait on each other. mon's own budget (400/min) stays.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { build } from 'esbuild';
import { run } from './measure.mjs';

const root = new URL('../../', import.meta.url);

/** Starts sandboxes with `computers` computers each; close() stops them and removes the temp files. */
export async function loadSandbox() {
  const dir = mkdtempSync(join(tmpdir(), 'mon-bench-'));
  const file = join(dir, 'server.mjs');
  await build({
    entryPoints: [new URL('src/sandbox/server.ts', root).pathname],
    outfile: file,
    bundle: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    logLevel: 'warning',
  });
  const { startSandbox } = await import(pathToFileURL(file).href);
  const running = [];
  return {
    dir,
    /**
     * `apiKey`: a key of its own, so that the sandbox stands for an account of its own
     * (--all-profiles); `stateFile`: persist as `mon sandbox` does (the write rows); `record`:
     * keep every request in `requests`, to count them (the exporter's row).
     */
    async start(computers, { apiKey, stateFile, record = false } = {}) {
      const sandbox = await startSandbox({
        port: 0,
        computers,
        apiKey,
        stateFile,
        seed: 1,
        recordRequests: record,
        rateLimit: { requests: 1_000_000, windowMs: 60_000 },
      });
      running.push(sandbox);
      return sandbox;
    },
    async close() {
      await Promise.all(running.map((sandbox) => sandbox.close()));
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/**
 * What a part of the benchmark needs to run alone (`node scripts/bench/fleet.mjs`): sandboxes of
 * these sizes, mon as bench.mjs runs it (bin/mon in a clean environment, the bundle as built), a
 * fresh config folder, and a way to fail that lets the rest finish.
 */
export async function alone(sizes) {
  const sandboxes = await loadSandbox();
  const started = [];
  for (const size of sizes) started.push(await sandboxes.start(size));
  const MON = fileURLToPath(new URL('bin/mon', root));
  const freshDir = () => mkdtempSync(join(sandboxes.dir, 'config-'));
  const mon = (args, sandbox, { configDir, env = {}, ...options } = {}) =>
    run(process.execPath, [MON, ...args], {
      env: {
        PATH: process.env.PATH ?? '',
        HOME: sandboxes.dir,
        TMPDIR: sandboxes.dir,
        MON_CONFIG_DIR: configDir,
        MON_BASE_URL: sandbox.url,
        MON_API_KEY: sandbox.apiKey,
        ...env,
      },
      scratch: sandboxes.dir,
      ...options,
    });
  const fail = (message) => {
    process.stderr.write(`bench: ${message}\n`);
    process.exitCode = 1;
  };
  return { sandboxes: started, mon, freshDir, fail, close: () => sandboxes.close() };
}
