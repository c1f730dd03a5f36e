import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { TOPIC_NAMES } from '../../src/spec/topics.js';

/** The links between the README, CONTRIBUTING.md and docs/ lead somewhere: a file, and a heading in it. */
const root = fileURLToPath(new URL('../../', import.meta.url));

function markdown(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    return entry.isDirectory() ? markdown(path) : entry.name.endsWith('.md') ? [path] : [];
  });
}

/** GitHub's anchor of a heading: lower case, punctuation but '-' dropped, spaces to '-'. */
function anchor(heading: string): string {
  return heading
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\- ]/gu, '')
    .replace(/ /g, '-');
}

const FILES = [join(root, 'README.md'), join(root, 'CONTRIBUTING.md'), ...markdown(join(root, 'docs'))];

describe('links between the docs', () => {
  it.each(FILES.map((file) => [relative(root, file), file] as const))(
    '%s links only to files and headings that exist',
    (_name, file) => {
      // Code spans and blocks are not links.
      const text = readFileSync(file, 'utf8')
        .replace(/```[\s\S]*?```/g, '')
        .replace(/`[^`\n]*`/g, '');
      const broken: string[] = [];
      for (const [, target] of text.matchAll(/\]\(([^)\s]+)\)/g)) {
        if (/^[a-z]+:/.test(target!)) continue;
        const [path, hash] = target!.split('#') as [string, string | undefined];
        const resolved = path === '' ? file : join(dirname(file), path);
        if (!existsSync(resolved)) {
          broken.push(target!);
          continue;
        }
        if (hash && !statSync(resolved).isDirectory()) {
          const headings = readFileSync(resolved, 'utf8')
            .replace(/```[\s\S]*?```/g, '')
            .split('\n')
            .filter((line) => /^#{1,6} /.test(line))
            .map((line) => anchor(line.replace(/^#+ /, '')));
          if (!headings.includes(hash)) broken.push(target!);
        }
      }
      expect(broken).toEqual([]);
    },
  );
});

describe('the README', () => {
  it('is at most 300 lines and names every help topic', () => {
    const text = readFileSync(join(root, 'README.md'), 'utf8');
    expect(text.split('\n').length).toBeLessThanOrEqual(300);
    const line = text.split('\n').find((candidate) => candidate.includes('`mon help <topic>`:')) ?? '';
    for (const name of TOPIC_NAMES) expect(line, name).toContain(`\`${name}\``);
  });
});
