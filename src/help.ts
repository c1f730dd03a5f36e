import type { Command, Help } from 'commander';
import { OPTIONS_TOPIC, TOPICS, type Topic, type TopicBlock } from './spec/topics.js';

/**
 * Help as text: the root help (`mon`, `mon --help`: the commands first, on one screen) and the
 * topics (`mon help environment`). Wrapped at one width on a terminal and in a pipe alike.
 */

/** Columns that help text is wrapped to. */
export const HELP_WIDTH = 80;

/** The examples the root help shows; every topic has more. */
// One: the root help keeps to one screen (40 lines) with every global flag.
const ROOT_EXAMPLES = ['mon --sandbox computers list --status missing'] as const;

/** Words wrapped to `width`, every line after the first indented by `indent`. */
export function wrap(text: string, width: number, indent = 0): string[] {
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(/\s+/).filter(Boolean)) {
    if (line && line.length + 1 + word.length > width - (lines.length ? indent : 0)) {
      lines.push(line);
      line = word;
    } else line = line ? `${line} ${word}` : word;
  }
  if (line || !lines.length) lines.push(line);
  return lines.map((text, index) => (index > 0 ? ' '.repeat(indent) + text : text));
}

/** Two columns: the term, then its description wrapped beside it. */
function items(rows: readonly (readonly [string, string])[], termWidth?: number): string[] {
  const width = termWidth ?? Math.max(...rows.map(([term]) => term.length));
  return rows.flatMap(([term, description]) => {
    // A term too long for its column takes a line of its own.
    if (term.length > width)
      return [
        `  ${term}`,
        ...wrap(description, HELP_WIDTH - width - 4).map((line) => `${' '.repeat(width + 4)}${line}`),
      ];
    const lines = wrap(description, HELP_WIDTH - width - 4);
    return lines.map((line, index) =>
      (index === 0 ? `  ${term.padEnd(width)}  ${line}` : `${' '.repeat(width + 4)}${line}`).trimEnd(),
    );
  });
}

/** Flags side by side, wrapped under one heading. */
function flagBlock(flags: readonly string[]): string[] {
  const lines: string[] = [];
  for (const flag of flags) {
    const last = lines.at(-1);
    if (last !== undefined && last.length + 2 + flag.length <= HELP_WIDTH) lines[lines.length - 1] = `${last}  ${flag}`;
    else lines.push(`  ${flag}`);
  }
  return lines;
}

/** The global options' flags (all but --version and --help), as the block under every command's help. */
export function globalFlags(program: Command): string[] {
  return flagBlock(
    program.options
      .filter((option) => option.long !== '--version' && option.long !== '--help')
      .map((option) => option.flags),
  );
}

/** `mon`, `mon --help`: the commands first, then the topics, the global flags and a few examples. */
export function rootHelp(program: Command, helper: Help): string {
  // `help` is said in the topics' heading: the root help keeps to one screen (40 lines).
  const commands = helper
    .visibleCommands(program)
    .filter((command) => command.name() !== 'help')
    .map((command) => [command.name(), helper.subcommandDescription(command)] as const);
  const width = Math.max(
    ...commands.map(([term]) => term.length),
    ...[OPTIONS_TOPIC, ...TOPICS].map((topic) => topic.name.length),
  );
  const namedLikeCommands = TOPICS.filter((topic) => commands.some(([name]) => name === topic.name));
  const out = [
    'Usage: mon [global options] <command> [<verb>] [arguments] [options]',
    '',
    program.description(),
    '',
    'Commands:',
    ...items(commands, width),
    '',
    // A topic named like a command (`mon help sandbox`) is named on the heading, not listed
    // again: the commands already list it, and the root help stays one screen.
    `Help topics (mon help <topic|command>; also ${namedLikeCommands.map((topic) => topic.name).join(', ')}):`,
    ...items(
      [OPTIONS_TOPIC, ...TOPICS.filter((topic) => !namedLikeCommands.includes(topic))].map(
        (topic) => [topic.name, topic.summary] as const,
      ),
      width,
    ),
    '',
    'Global options (mon help options describes them):',
    ...globalFlags(program),
    '',
    // One line: the root help keeps to one screen (40 lines).
    `Try it without an account: ${ROOT_EXAMPLES[0]}`,
  ];
  return `${out.join('\n')}\n`;
}

/** One topic as `mon help <topic>` prints it. */
export function topicText(topic: Topic): string {
  return `${[topic.title, '', ...topic.blocks.flatMap((block) => [...blockText(block), ''])].join('\n').trimEnd()}\n`;
}

function blockText(block: TopicBlock): string[] {
  switch (block.kind) {
    case 'text':
      return wrap(block.text, HELP_WIDTH);
    case 'heading':
      return [`${block.text}:`];
    case 'examples':
      return ['Examples:', ...block.lines.map((line) => `  $ ${line}`)];
    case 'table':
      return tableText(block.head, block.rows);
  }
}

/**
 * A table as help shows it: the first columns as they are, the last one wrapped beside them;
 * a first column too wide for that (more than a third of the width) puts its cell on a line of
 * its own, with the rest indented below it.
 */
function tableText(head: readonly string[], rows: readonly (readonly string[])[]): string[] {
  const leading = head.length - 1;
  if (leading === 1)
    return items(
      rows.map((row) => [row[0]!, row[1]!] as const),
      Math.min(Math.max(...rows.map((row) => row[0]!.length)), Math.floor(HELP_WIDTH / 3)),
    );
  // Three columns (exit codes): the first beside the others, the third after a dash.
  return items(
    rows.map(
      (row) =>
        [
          row[0]!,
          row.at(-1) === '-'
            ? row.slice(1, -1).join(' ')
            : `${row.slice(1, -1).join(' ')}. ${head.at(-1)} ${row.at(-1)}`,
        ] as const,
    ),
    Math.max(...rows.map((row) => row[0]!.length)),
  );
}

/** `mon help options`: every global option with what it does, as commander describes it. */
export function optionsText(program: Command): string {
  const helper = program.createHelp();
  const options = helper
    .visibleOptions(program)
    .filter((option) => option.long !== '--help' && option.long !== '--version');
  const rows = options.map((option) => [helper.optionTerm(option), helper.optionDescription(option)] as const);
  return `${[`${OPTIONS_TOPIC.title}: accepted before or after any command`, '', ...items(rows, Math.floor(HELP_WIDTH / 3))].join('\n')}\n`;
}

/** The topic a word names, if any. */
export function topicNamed(word: string): Topic | typeof OPTIONS_TOPIC | undefined {
  return word === OPTIONS_TOPIC.name ? OPTIONS_TOPIC : TOPICS.find((topic) => topic.name === word);
}
