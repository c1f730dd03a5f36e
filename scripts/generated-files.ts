import type { Command } from 'commander';
import { buildProgram } from '../src/program.js';
import { bashScript } from '../src/completion/bash.js';
import { commandReference, examplesIn, withHelpText, type HelpOutput } from '../src/completion/docs.js';
import { fishScript } from '../src/completion/fish.js';
import { manPage, topicMarkdown } from '../src/completion/man.js';
import { TOPICS } from '../src/spec/topics.js';
import { buildTree } from '../src/completion/tree.js';
import { zshScript } from '../src/completion/zsh.js';

/** The whole program as `mon` builds it, with a runner that never runs: only its shape and help are read. */
export function fullProgram(output: HelpOutput = { writeOut: () => undefined, writeErr: () => undefined }): Command {
  return buildProgram(output, async () => undefined);
}

/**
 * The committed files generated from the command tree and the help topics, by path from the
 * repository root.
 * `npm run generate` writes them; test/completion checks they match the tree. Regenerate
 * whenever a command, option, alias or example changes.
 */
export function generatedFiles(): Record<string, string> {
  const tree = buildTree(fullProgram());
  const help = withHelpText(fullProgram);
  return {
    'completions/mon.bash': bashScript(tree),
    'completions/_mon': zshScript(tree),
    'completions/mon.fish': fishScript(tree),
    'docs/commands.md': commandReference(fullProgram),
    ...Object.fromEntries(TOPICS.map((topic) => [`docs/help/${topic.name}.md`, topicMarkdown(topic)])),
    'man/mon.1': manPage(help.tree, (command) => examplesIn(help.afterHelp(command))),
  };
}
