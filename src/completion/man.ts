import type { Command, Help } from 'commander';
import { OPTIONS_TOPIC, TOPICS, type Topic, type TopicBlock } from '../spec/topics.js';
import { walk, type CommandNode } from './tree.js';

/**
 * man/mon.1: the manual page, generated from the command tree (every command with its usage,
 * description and options) and the help topics (ENVIRONMENT, EXIT STATUS, …), in the man macros
 * that `man` and `groff -man` read. ASCII only, with roff's own escapes for the rest, so that
 * `groff -ww -man` has nothing to warn about. No date or version: the same tree, the same page.
 */
export function manPage(tree: CommandNode, examplesOf: (command: Command) => readonly string[] = () => []): string {
  const program = tree.command;
  const commands = walk(tree).filter((node) => node.path.length > 0 && node.name !== 'help');
  const topic = (name: string) => TOPICS.find((candidate) => candidate.name === name)!;
  const out: string[] = [
    '.\\" Generated from the command tree by `npm run generate`: do not edit by hand.',
    '.TH MON 1 "" "mon" "User Commands"',
    '.SH NAME',
    'mon \\- administer the Endpoint Monitoring Service (API v2.5) from the command line',
    '.SH SYNOPSIS',
    '.B mon',
    '[\\fIglobal options\\fR] \\fIcommand\\fR [\\fIverb\\fR] [\\fIarguments\\fR] [\\fIoptions\\fR]',
    '.br',
    '.B mon help',
    '[\\fItopic\\fR|\\fIcommand\\fR [\\fIverb\\fR]]',
    '.SH DESCRIPTION',
    text(
      'mon is a command-line administration tool for the Endpoint Monitoring Service REST API v2.5: every endpoint has one command, `mon api` reaches anything else, and the fleet commands (`alerts`, `status`, bulk mutes, `--changes`, `--profiles`) work across a whole account or many. Tables are for people; json, ndjson, csv and tsv for scripts. Every value is checked before it is sent. `--sandbox` runs any command against a built-in sandbox with demo data, no account needed.',
    ),
    ...topicSection('GLOBAL OPTIONS', [{ kind: 'text', text: `${OPTIONS_TOPIC.summary}.` }]),
    ...optionItems(program),
    '.SH COMMANDS',
    ...commands.flatMap((node) => commandSection(node, examplesOf(node.command))),
    ...topicSection('FLEET COMMANDS', topic('fleet').blocks),
    ...topicSection('OUTPUT FORMATS', topic('formats').blocks),
    ...topicSection('ENVIRONMENT', topic('environment').blocks),
    ...topicSection('EXIT STATUS', topic('exit-codes').blocks),
    ...topicSection('SANDBOX', topic('sandbox').blocks),
    '.SH FILES',
    '.TP',
    '.I $MON_CONFIG_DIR/config.json',
    text("the saved profiles (mode 0600), in the config folder (default: the platform's, e.g. ~/.config/mon-nodejs)."),
    '.TP',
    '.I $MON_CONFIG_DIR/changes/',
    text('the states of --changes NAME, one folder per account.'),
    '.TP',
    '.I $MON_CONFIG_DIR/rate/',
    text('the rate ledger shared by every mon process of the user and key.'),
    '.SH SEE ALSO',
    text(
      "`mon help <topic>` prints each of the sections above; `mon <command> --help` one command. The README, the guides and docs/commands.md are in the package's folder and its repository.",
    ),
  ];
  return `${out.join('\n')}\n`;
}

/** `.SH`/`.SS` for one command: its usage, description, arguments and options. */
function commandSection(node: CommandNode, examples: readonly string[]): string[] {
  const command = node.command;
  const help = command.createHelp();
  const out = [`.SS ${quoteArg(['mon', ...node.path].join(' '))}`];
  out.push('.PP', `.B ${escapeLine(help.commandUsage(command))}`);
  if (node.aliases.length) out.push('.br', text(`Alias: ${node.aliases.join(', ')}.`));
  for (const paragraph of command.description().split(/\n\s*\n/)) {
    const lines = paragraph.split('\n');
    if (lines.every((line) => /^\s{2,}\S/.test(line) || !line.trim()))
      out.push(...example(lines.map((line) => line.trim()).filter(Boolean)));
    else out.push('.PP', text(paragraph));
  }
  if (node.commands.length) {
    for (const sub of node.commands) out.push('.TP', `.B ${escapeLine(sub.name)}`, text(sub.summary));
  } else {
    for (const arg of help.visibleArguments(command))
      out.push('.TP', `.I ${escapeLine(help.argumentTerm(arg))}`, text(help.argumentDescription(arg)));
    out.push(...optionItems(command));
  }
  if (examples.length) out.push('.PP', 'Examples:', ...example(examples));
  return out;
}

/** The options a command adds, one `.TP` each. */
function optionItems(command: Command): string[] {
  const help: Help = command.createHelp();
  return help
    .visibleOptions(command)
    .filter((option) => option.long !== '--help' && option.long !== '--version')
    .flatMap((option) => ['.TP', `.B ${escapeLine(help.optionTerm(option))}`, text(help.optionDescription(option))]);
}

function topicSection(heading: string, blocks: readonly TopicBlock[]): string[] {
  return [`.SH ${heading}`, ...blocks.flatMap(blockRoff)];
}

function blockRoff(block: TopicBlock): string[] {
  switch (block.kind) {
    case 'text':
      return ['.PP', text(block.text)];
    case 'heading':
      return [`.SS ${quoteArg(block.text)}`];
    case 'examples':
      return example(block.lines);
    case 'table':
      // A tagged paragraph per row: the first cell as the tag, the others as its text.
      return block.rows.flatMap((row) => [
        '.TP',
        `.B ${escapeLine(row[0]!)}`,
        text(
          row
            .slice(1)
            .map((cell, index) => (index === 0 || row.length < 3 ? cell : `${block.head[index + 1]} ${cell}`))
            .filter((cell, index) => index === 0 || !cell.endsWith(' -'))
            .join('. '),
        ),
      ]);
  }
}

function example(lines: readonly string[]): string[] {
  return ['.PP', '.RS 4', '.nf', ...lines.map((line) => escapeLine(`$ ${line}`)), '.fi', '.RE'];
}

/** Prose: `code` in bold, wrapped at sentence-neutral points; every line safe for roff. */
function text(prose: string): string {
  const marked = escape(prose.replace(/\s*\n\s*/g, ' ').trim()).replace(/`([^`]+)`/g, '\\fB$1\\fR');
  return marked.startsWith('.') || marked.startsWith("'") ? `\\&${marked}` : marked;
}

/** One line of text that must not start a request. */
function escapeLine(line: string): string {
  const escaped = escape(line);
  return escaped.startsWith('.') || escaped.startsWith("'") ? `\\&${escaped}` : escaped;
}

/** A macro argument in double quotes. */
function quoteArg(value: string): string {
  return `"${escape(value).replace(/"/g, '\\(dq')}"`;
}

/** Backslashes, hyphens of options and every character outside ASCII in roff's escapes. */
function escape(value: string): string {
  return value
    .replace(/\\/g, '\\e')
    .replace(/-/g, '\\-')
    .replace(/[^\x20-\x7e]/g, (char) => {
      const named: Record<string, string> = {
        '\u2014': '\\(em',
        '\u2013': '\\(en',
        '\u2026': '...',
        '\u2019': "'",
        '\u2018': "'",
        '\u201c': '"',
        '\u201d': '"',
        '\u00d7': '\\(mu',
      };
      return named[char] ?? `\\[u${char.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}]`;
    });
}

/** A topic as a Markdown page (docs/help/<topic>.md): the same blocks as `mon help <topic>`. */
export function topicMarkdown(topic: Topic): string {
  const out = [
    `# ${topic.title}`,
    '',
    `<!-- Generated from src/spec/topics.ts by \`npm run generate\`: do not edit by hand. \`mon help ${topic.name}\` prints the same. -->`,
    '',
  ];
  for (const block of topic.blocks) {
    switch (block.kind) {
      case 'text':
        out.push(mdText(block.text), '');
        break;
      case 'heading':
        out.push(`## ${block.text}`, '');
        break;
      case 'examples':
        out.push('```sh', ...block.lines, '```', '');
        break;
      case 'table':
        out.push(
          `| ${block.head.join(' | ')} |`,
          `|${block.head.map(() => '---').join('|')}|`,
          ...block.rows.map(
            (row) =>
              `| ${row.map((cell, index) => (index === 0 ? `\`${cell.replace(/\|/g, '\\|')}\`` : mdText(cell))).join(' | ')} |`,
          ),
          '',
        );
        break;
    }
  }
  return `${out.join('\n').trimEnd()}\n`;
}

/** Angle brackets outside code spans would read as HTML tags; pipes would end a cell. */
function mdText(value: string): string {
  return value
    .split(/(`[^`]*`)/)
    .map((part) => (part.startsWith('`') ? part : part.replace(/</g, '&lt;').replace(/>/g, '&gt;')))
    .join('')
    .replace(/\|/g, '\\|');
}
