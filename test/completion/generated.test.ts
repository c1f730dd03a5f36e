import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { generatedFiles } from '../../src/completion/files.js';

const root = new URL('../../', import.meta.url);
const files = generatedFiles();

describe('files generated from the command tree', () => {
  it('are the four committed ones', () => {
    expect(Object.keys(files).sort()).toEqual(['completions/_mon', 'completions/mon.bash', 'completions/mon.fish', 'docs/commands.md']);
  });

  it.each(Object.keys(files))('%s matches the tree (run npm run generate)', (path) => {
    let committed: string | undefined;
    try {
      committed = readFileSync(new URL(path, root), 'utf8');
    } catch {
      committed = undefined;
    }
    // A plain boolean first, so that a drift fails with the one line that says what to do.
    expect(committed === files[path], `${path} differs from the command tree: run npm run generate and commit the result`).toBe(true);
  });

  it('are the same on every run (no dates, versions or map order)', () => {
    expect(generatedFiles()).toEqual(files);
  });
});
