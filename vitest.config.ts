import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 20_000,
    hookTimeout: 20_000,
    // e2e tests spawn bin/mon, which runs the bundle in dist/: the set-up rebuilds it when stale.
    globalSetup: ['test/helpers/global-setup.ts'],
    // Commands run in-process print local times in the test process's zone: pin it, as the
    // spawned ones pin theirs with TZ in their environment.
    env: { TZ: 'UTC' },
  },
});
