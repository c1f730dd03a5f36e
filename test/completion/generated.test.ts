import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { generatedFiles } from '../../scripts/generated-files.js';
import { EXIT_CODES } from '../../src/errors.js';
import { TOPICS } from '../../src/spec/topics.js';
import { hasProgram } from '../helpers/programs.js';
import { runMain } from '../helpers/run-main.js';

/** groff, to render the man page; CI installs it with the shells. */
const hasGroff = hasProgram('groff');

const root = new URL('../../', import.meta.url);
const files = generatedFiles();

describe('files generated from the command tree', () => {
  it('are the committed ones: completions, the command reference, a page per help topic and the man page', () => {
    expect(Object.keys(files).sort()).toEqual([
      'completions/_mon',
      'completions/mon.bash',
      'completions/mon.fish',
      'docs/commands.md',
      ...TOPICS.map((topic) => `docs/help/${topic.name}.md`).sort(),
      'man/mon.1',
    ]);
  });

  it('docs/help/exit-codes.md is the table `mon help exit-codes` prints, from the one in src/errors.ts', async () => {
    const page = readFileSync(new URL('docs/help/exit-codes.md', root), 'utf8');
    const help = (await runMain(['help', 'exit-codes'])).stdout.replace(/\s+/g, ' ');
    for (const row of EXIT_CODES) {
      expect(page).toContain(`| \`${row.code}\` | ${row.meaning} | ${row.retry} |`);
      expect(help).toContain(row.meaning);
    }
  });

  it.runIf(hasGroff)(
    'man/mon.1 renders with groff -ww -man without a warning, with every command and topic section',
    () => {
      const result = spawnSync(
        'groff',
        ['-ww', '-man', '-Tutf8', '-P-cbou', fileURLToPath(new URL('man/mon.1', root))],
        { encoding: 'utf8' },
      );
      expect({ status: result.status, stderr: result.stderr }).toEqual({ status: 0, stderr: '' });
      for (const heading of [
        'NAME',
        'SYNOPSIS',
        'GLOBAL OPTIONS',
        'COMMANDS',
        'FLEET COMMANDS',
        'OUTPUT FORMATS',
        'ENVIRONMENT',
        'EXIT STATUS',
        'SANDBOX',
      ])
        expect(result.stdout).toMatch(new RegExp(`^${heading}$`, 'm'));
      expect(result.stdout).toContain('mon computers list|ls [options]');
      expect(result.stdout).toContain('MON_DEADLINE');
    },
  );

  it('package.json installs the man page and ships it with the completions and the docs', () => {
    const pkg = JSON.parse(readFileSync(new URL('package.json', root), 'utf8')) as { man: string[]; files: string[] };
    expect(pkg.man).toEqual(['./man/mon.1']);
    expect(pkg.files).toEqual(expect.arrayContaining(['bin', 'dist', 'completions', 'man', 'docs', 'README.md']));
  });

  it.each(Object.keys(files))('%s matches the tree (run npm run generate)', (path) => {
    let committed: string | undefined;
    try {
      committed = readFileSync(new URL(path, root), 'utf8');
    } catch {
      committed = undefined;
    }
    // A plain boolean first, so that a drift fails with the one line that says what to do.
    expect(
      committed === files[path],
      `${path} differs from the command tree: run npm run generate and commit the result`,
    ).toBe(true);
  });

  it('are the same on every run (no dates, versions or map order)', () => {
    expect(generatedFiles()).toEqual(files);
  });
});
