import { mkdirSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { staleInputs } from '../helpers/global-setup.js';
import { tempDir } from '../helpers/run-mon.js';

/** A checkout with a bundle built at `builtAt` and one source file changed at `changedAt` (seconds). */
function checkout(builtAt: number | undefined, changed: Record<string, number>): string {
  const base = tempDir('mon-setup-');
  for (const [file, at] of Object.entries(changed)) {
    mkdirSync(join(base, file, '..'), { recursive: true });
    writeFileSync(join(base, file), '');
    utimesSync(join(base, file), at, at);
  }
  if (builtAt !== undefined) {
    mkdirSync(join(base, 'dist'));
    writeFileSync(join(base, 'dist', 'mon.cjs'), '');
    utimesSync(join(base, 'dist', 'mon.cjs'), builtAt, builtAt);
  }
  return base;
}

describe('the test set-up rebuilds a stale bundle', () => {
  it('finds a source, a bin file or a build script changed after the bundle, newest first', () => {
    const base = checkout(1_000, {
      'src/api/client.ts': 900,
      'src/commands/api.ts': 1_100,
      'bin/mon': 1_200,
      'scripts/esbuild.config.mjs': 1_050,
    });
    expect(staleInputs(base)).toEqual([
      join(base, 'bin/mon'),
      join(base, 'src/commands/api.ts'),
      join(base, 'scripts/esbuild.config.mjs'),
    ]);
  });

  it('is content with a bundle newer than every input, and asks for one when there is none', () => {
    expect(staleInputs(checkout(2_000, { 'src/main.ts': 1_000, 'test/x.test.ts': 3_000 }))).toEqual([]);
    const bare = checkout(undefined, { 'src/main.ts': 1_000 });
    expect(staleInputs(bare)).toEqual([join(bare, 'dist', 'mon.cjs')]);
  });
});
