import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { EXIT, EXIT_CODES } from '../../src/errors.js';
import { ENVIRONMENT } from '../../src/spec/topics.js';

/** The help topics' tables hold what the code does: each variable it reads, each code it exits with. */
const SRC = fileURLToPath(new URL('../../src/', import.meta.url));

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    return entry.isDirectory()
      ? sources(path)
      : entry.name.endsWith('.ts') && path !== join(SRC, 'spec', 'topics.ts')
        ? [path]
        : [];
  });
}

describe('the tables of the help topics', () => {
  it('name every MON_ variable the source reads (env.MON_X), and no other', () => {
    const read = new Set(
      sources(SRC).flatMap((file) =>
        [...readFileSync(file, 'utf8').matchAll(/\benv\.(MON_[A-Z_]+)\b/g)].map((match) => match[1]!),
      ),
    );
    const listed = ENVIRONMENT.flatMap((variable) => variable.name.split(', ')).filter((name) =>
      name.startsWith('MON_'),
    );
    expect([...read].sort()).toEqual([...listed].sort());
  });

  it('name every exit code the errors use, once', () => {
    const codes = EXIT_CODES.flatMap((row) => row.code.split(' / ').map(Number));
    expect(codes).toEqual([...new Set(codes)]);
    expect([...codes].sort((a, b) => a - b)).toEqual(Object.values(EXIT).sort((a, b) => a - b));
  });
});
