import type { Command } from 'commander';
import { buildTree, walk, type CommandNode } from './tree.js';

/** Where a program writes its help: the docs capture it. */
export interface HelpOutput {
  writeOut(text: string): void;
  writeErr(text: string): void;
}

/**
 * docs/commands.md: every command with its usage, summary, arguments, options (with their
 * choices, defaults and limits, as help prints them) and examples, read from the same
 * commander tree that `--help` and the completion scripts come from. `build` makes that
 * program, writing its help to the output given.
 */
export function commandReference(build: (output: HelpOutput) => Command): string {
  const { tree, afterHelp } = withHelpText(build);
  const commands = walk(tree).filter((node) => node.path.length > 0 && !isHelp(node));

  const out: string[] = [
    '# Command reference',
    '',
    '<!-- Generated from the command tree by `npm run generate`: do not edit by hand. -->',
    '',
    'Every command of `mon`, as `mon help <command>` and `mon <command> --help` print it. Usage lines',
    'follow one syntax: `<required>`, `[optional]`, `a|b` for a name and its alias. Options that take',
    "a value list their choices and defaults; text values list the API's limit, which `mon` checks",
    'before sending anything (a longer value exits 2 and no request is made).',
    '',
    '## Global options',
    '',
    'Accepted before or after any command.',
    '',
    ...optionTable(tree.command),
    '',
    ...examplesBlock(afterHelp(tree.command)),
    '## Commands',
    '',
    '| Command | Summary |',
    '|---|---|',
    ...commands.map((node) => `| [\`${['mon', ...node.path].join(' ')}\`](#${anchor(node)}) | ${cell(node.summary)} |`),
    '',
  ];

  for (const node of commands) {
    const help = node.command.createHelp();
    const heading = node.path.length === 1 ? '##' : '###';
    out.push(`${heading} ${['mon', ...node.path].join(' ')}`, '');
    out.push('```', help.commandUsage(node.command), '```', '');
    out.push(...paragraphs(node.command.description()));
    if (node.aliases.length)
      out.push(
        `Alias${node.aliases.length > 1 ? 'es' : ''}: ${node.aliases.map((alias) => `\`${alias}\``).join(', ')}.`,
        '',
      );
    const args = help.visibleArguments(node.command);
    if (args.length) {
      out.push('| Argument | Description |', '|---|---|');
      for (const arg of args) out.push(`| \`${help.argumentTerm(arg)}\` | ${cell(help.argumentDescription(arg))} |`);
      out.push('');
    }
    if (node.commands.length) {
      out.push('| Command | Summary |', '|---|---|');
      for (const sub of node.commands.filter((candidate) => !isHelp(candidate)))
        out.push(`| [\`${sub.name}\`](#${anchor(sub)}) | ${cell(sub.summary)} |`);
      out.push('');
    } else {
      out.push(...optionTable(node.command));
      out.push('');
    }
    out.push(...examplesBlock(afterHelp(node.command)));
  }
  return `${out
    .join('\n')
    .replace(/\n{3,}/g, '\n\n')
    .trimEnd()}\n`;
}

/**
 * The tree of a program that writes its help to a buffer, and for each command the text
 * commander prints after the generated help (define.ts puts the examples there).
 */
export function withHelpText(build: (output: HelpOutput) => Command): {
  tree: CommandNode;
  afterHelp: (command: Command) => string;
} {
  let captured = '';
  const tree = buildTree(build({ writeOut: (text) => (captured += text), writeErr: () => undefined }));
  const afterHelp = (command: Command): string => {
    captured = '';
    command.outputHelp();
    const info = command.helpInformation();
    const at = captured.indexOf(info);
    return at < 0 ? '' : captured.slice(at + info.length);
  };
  return { tree, afterHelp };
}

/** The examples of a command's help, each one line again (help breaks a long one with ` \`). */
export function examplesIn(after: string): string[] {
  return after
    .replace(/ \\\n\s+/g, ' ')
    .split('\n')
    .map((line) => /^\s*\$ (.+)$/.exec(line)?.[1])
    .filter((line): line is string => line !== undefined);
}

function isHelp(node: CommandNode): boolean {
  return node.name === 'help' && node.commands.length === 0 && node.args[0]?.source.type === 'commands';
}

/** The options a command adds (not the help option), with what help says of each. */
function optionTable(command: Command): string[] {
  const help = command.createHelp();
  const options = help.visibleOptions(command).filter((option) => option.long !== '--help');
  if (!options.length) return ['No options of its own.'];
  return [
    '| Option | Description |',
    '|---|---|',
    ...options.map((option) => `| \`${help.optionTerm(option)}\` | ${cell(help.optionDescription(option))} |`),
  ];
}

function examplesBlock(after: string): string[] {
  const examples = examplesIn(after);
  if (!examples.length) return [];
  return ['Examples:', '', '```sh', ...examples, '```', ''];
}

/** Description text: indented lines become a shell block, the rest stays prose. */
function paragraphs(text: string): string[] {
  const out: string[] = [];
  let block: string[] = [];
  const flush = () => {
    if (block.length) out.push('', '```sh', ...block, '```', '');
    block = [];
  };
  for (const line of text.split('\n')) {
    if (/^\s{2,}\S/.test(line)) {
      block.push(line.trim());
      continue;
    }
    flush();
    out.push(line.trim() ? escapeText(line.trim()) : '');
  }
  flush();
  return [...out, ''];
}

/** GitHub's heading anchor: lower case, spaces to hyphens, other punctuation dropped. */
function anchor(node: CommandNode): string {
  return ['mon', ...node.path]
    .join(' ')
    .toLowerCase()
    .replace(/[^\w\- ]/g, '')
    .replace(/ /g, '-');
}

/** Angle brackets outside code spans would read as HTML tags. */
function escapeText(text: string): string {
  return text
    .split(/(`[^`]*`)/)
    .map((part) => (part.startsWith('`') ? part : part.replace(/</g, '&lt;').replace(/>/g, '&gt;')))
    .join('');
}

function cell(text: string): string {
  return escapeText(text.replace(/\s*\n\s*/g, ' ')).replace(/\|/g, '\\|');
}
