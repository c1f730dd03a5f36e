import type { Command } from 'commander';
import { bashScript } from './bash.js';
import { fishScript } from './fish.js';
import { buildTree } from './tree.js';
import { zshScript } from './zsh.js';

/** The completion script for a shell, generated from the program's command tree as it is now. */
export function completionScript(shell: 'bash' | 'zsh' | 'fish', program: Command): string {
  const tree = buildTree(program);
  return shell === 'bash' ? bashScript(tree) : shell === 'zsh' ? zshScript(tree) : fishScript(tree);
}
