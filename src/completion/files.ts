import { bashScript } from './bash.js';
import { commandReference } from './docs.js';
import { fishScript } from './fish.js';
import { buildTree } from './tree.js';
import { zshScript } from './zsh.js';

/**
 * The committed files generated from the command tree, by path from the repository root.
 * `npm run generate` writes them; test/completion checks they match the tree. Regenerate
 * whenever a command, option, alias or example changes.
 */
export function generatedFiles(): Record<string, string> {
  const tree = buildTree();
  return {
    'completions/mon.bash': bashScript(tree),
    'completions/_mon': zshScript(tree),
    'completions/mon.fish': fishScript(tree),
    'docs/commands.md': commandReference(),
  };
}
