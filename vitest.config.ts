import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';
import { bound } from './test/helpers/slow.js';

/**
 * Files that must have their modules to themselves: they mock a module (vi.mock), change the
 * process's time zone, which would leak into, or be defeated by, a module another file loaded,
 * or change V8's flags (the --jq worker's), which are the process's.
 */
const ISOLATED = ['test/unit/output-lazy.test.ts', 'test/unit/output-format.test.ts', 'test/unit/output-render.test.ts', 'test/unit/jq-engine.test.ts'];

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
      { extends: true, test: { name: 'isolated', include: ISOLATED } },
      // The rest share each worker's modules instead of loading src/ again for every file: the
      // suite spends a third less CPU. No module of mon keeps state a test depends on.
      { extends: true, test: { name: 'shared', include: ['test/**/*.test.ts'], exclude: ISOLATED, isolate: false } },
    ],
  },
});
