import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { INSTALL_OPTIONAL } from '../helpers/programs.js';

/**
 * One list of the optional programs' packages: the line the README gives, the one a skipped
 * test's notice gives, and what .ci/run installs (it adds python3, which the parser's package
 * brings anyway).
 */
const root = new URL('../../', import.meta.url);
const packagesOf = (line: string) =>
  line
    .replace(/^.*apt-get install -y /, '')
    .trim()
    .split(/\s+/)
    .sort();

describe('the optional programs', () => {
  it('the README, the notices and .ci/run name the same packages', () => {
    const readme = readFileSync(new URL('README.md', root), 'utf8');
    const line = readme.split('\n').find((text) => text.startsWith('sudo apt-get install -y '));
    expect(line).toBeDefined();
    expect(packagesOf(line!)).toEqual(packagesOf(INSTALL_OPTIONAL));
    const ci = readFileSync(new URL('.ci/run', root), 'utf8');
    const listed = /OPTIONAL_PACKAGES=\(([^)]*)\)/.exec(ci)?.[1];
    expect(
      listed
        ?.split(/\s+/)
        .filter((name) => name !== 'python3')
        .sort(),
    ).toEqual(packagesOf(INSTALL_OPTIONAL));
  });
});
