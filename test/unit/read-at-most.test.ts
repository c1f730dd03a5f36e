import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readAtMost } from '../../src/config/trust.js';
import { tempDir } from '../helpers/run-mon.js';

/** Every file mon bounds is read to at most its limit and one byte, whatever stat says. */
describe('readAtMost', () => {
  it('a file of the limit is read whole; one byte more is too large', () => {
    const dir = tempDir('mon-read-');
    const exact = join(dir, 'exact');
    const over = join(dir, 'over');
    writeFileSync(exact, Buffer.alloc(70_000, 1));
    writeFileSync(over, Buffer.alloc(70_001, 1));
    expect(readAtMost(exact, 70_000)?.length).toBe(70_000);
    expect(readAtMost(over, 70_000)).toBeUndefined();
    expect(readAtMost(exact, 1_000_000)?.length).toBe(70_000);
  });

  it.runIf(existsSync('/dev/zero'))('an endless file (/dev/zero) stops one byte past the limit', () => {
    expect(readAtMost('/dev/zero', 1024 * 1024)).toBeUndefined();
  });

  it.runIf(existsSync('/proc/self/status'))('a file whose size says 0 (/proc) is read for what it holds', () => {
    expect(readAtMost('/proc/self/status', 1024 * 1024)!.toString()).toMatch(/^Name:/);
  });
});
