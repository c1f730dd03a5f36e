// The sandbox for the benchmark, run inside the bench process: the real src/sandbox/server.ts,
// bundled on the fly (the dist/ bundle does not export it), with the server-side rate limit
// raised so that repeated runs do not wait on each other. mon's own budget (400/min) stays.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { build } from 'esbuild';

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
    /** `apiKey`: a key of its own, so that the sandbox stands for an account of its own (--all-profiles). */
    async start(computers, { apiKey } = {}) {
      const sandbox = await startSandbox({
        port: 0,
        computers,
        apiKey,
        seed: 1,
        recordRequests: false,
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
