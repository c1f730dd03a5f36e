import { readdirSync, readFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import { defineConfig } from 'vitest/config';
import { bound } from './test/helpers/slow.js';

/**
 * Files that must have their modules to themselves: they mock a module (vi.mock), change the
 * process's time zone, which would leak into, or be defeated by, a module another file loaded,
 * or change V8's flags (the --jq worker's), which are the process's.
 */
const ISOLATED = [
  'test/unit/output-lazy.test.ts',
  'test/unit/output-format.test.ts',
  'test/unit/output-render.test.ts',
  'test/unit/jq-engine.test.ts',
];

/** Functions and properties: no server, no process. */
const UNIT = ['test/unit/**/*.test.ts', 'test/api/**/*.test.ts'];

/**
 * The tiers of CONTRIBUTING.md, as vitest projects. A test file that starts a process (bin/mon,
 * a shell, npm, Chromium) is of the spawned tier; any other outside test/unit and test/api runs
 * main() or the sandbox in-process. `npm run test:fast` runs the unit and in-process tiers.
 */
function spawnedFiles(): string[] {
  const files: string[] = [];
  const visit = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = `${dir}/${entry.name}`;
      if (entry.isDirectory()) visit(path);
      else if (
        path.endsWith('.test.ts') &&
        /\b(runMon|signalMon|MON_BIN|onTerminal)\b|node:child_process/.test(
          readFileSync(join(import.meta.dirname, path), 'utf8'),
        )
      )
        files.push(path);
    }
  };
  for (const dir of ['e2e', 'events', 'resilience', 'sandbox', 'completion', 'docs', 'package', 'perf'])
    visit(`test/${dir}`);
  return files;
}
const SPAWNED = spawnedFiles();

export default defineConfig({
  test: {
    // Hang bounds, not measures: a test or hook that takes this long is stuck. MON_TEST_SLOW
    // (test/helpers/slow.ts) scales them with every other bound of the suite.
    testTimeout: bound(60_000),
    hookTimeout: bound(60_000),
    // Most test files wait on servers and spawned processes more than they compute: two workers
    // a core keep a small machine busy (CI's has two cores).
    maxWorkers: Math.max(4, 2 * availableParallelism()),
    // e2e tests spawn bin/mon, which runs the bundle in dist/: the set-up rebuilds it when stale.
    globalSetup: ['test/helpers/global-setup.ts'],
    // Removes the folders the helpers made for a file once its tests are done.
    setupFiles: ['test/helpers/cleanup.ts'],
    // Commands run in-process print local times in the test process's zone: pin it, as the
    // spawned ones pin theirs with TZ in their environment.
    env: { TZ: 'UTC' },
    projects: [
      { extends: true, test: { name: 'unit-isolated', include: ISOLATED } },
      // The rest share each worker's modules instead of loading src/ again for every file: the
      // suite spends a third less CPU. What a module of mon keeps between runs in one process is
      // reset at the start of each run (runtime.ts beginRun: the folders trusted, the profile
      // cache); the rest is what does not change in a process (the command tree, compiled
      // schemas, loaded modules), which no test depends on.
      { extends: true, test: { name: 'unit', include: UNIT, exclude: ISOLATED, isolate: false } },
      {
        extends: true,
        test: {
          name: 'in-process',
          include: ['test/**/*.test.ts'],
          exclude: [...UNIT, ...ISOLATED, ...SPAWNED],
          isolate: false,
        },
      },
      { extends: true, test: { name: 'spawned', include: SPAWNED, isolate: false } },
    ],
  },
});
