import type { Command, Option } from 'commander';
import { formsHeldOnce } from '../once-only.js';
import { TOPIC_NAMES } from '../spec/topics.js';

/**
 * The commander tree reduced to what a shell needs to complete a command line: command names
 * and aliases, options (long and short), whether each takes a value and which values it
 * accepts. Every generator (bash, zsh, fish, the command reference) reads this model, so a new
 * command or option completes once the scripts are regenerated (`npm run generate`).
 */

/** Where the values of an option or argument come from. */
export type ValueSource =
  /** free text: nothing to suggest */
  | { type: 'none' }
  | { type: 'choices'; values: readonly string[] }
  /** saved profile names, asked for at completion time (`mon __complete profiles`) */
  | { type: 'profiles' }
  /** saved profile names, separated by commas (`--profiles a,b`) */
  | { type: 'profile-list' }
  | { type: 'files' }
  /** the account's own names (groups, client ids, plugins, note and expiration uids), from the live cache (`mon __complete <kind>`) */
  | { type: 'names'; kind: 'groups' | 'computers' | 'plugins' | 'notes' | 'expirations' }
  /** the subcommands of the parent command, and the help topics (`mon help <command|topic>`) */
  | { type: 'commands'; topics: readonly string[] };

export interface OptionNode {
  long?: string;
  short?: string;
  description: string;
  /** 'required': takes the next word; 'optional': takes it unless it starts with '-' (as commander does). */
  value: 'none' | 'required' | 'optional';
  /** The placeholder shown in help: 'status' for '--status <status>'. */
  valueName?: string;
  source: ValueSource;
  /**
   * The flags that count as this option given, when mon takes it once and refuses it again (an
   * option with a value, a flag with its --no- form, -o with --json: src/once-only.ts,
   * onceOnly): a shell need not offer them once one is on the line. Undefined for an option that
   * may come again (a repeatable one such as --group or --expand, a lone flag).
   */
  once?: readonly string[];
}

export interface ArgNode {
  name: string;
  optional: boolean;
  variadic: boolean;
  source: ValueSource;
}

export interface CommandNode {
  name: string;
  aliases: readonly string[];
  /** Canonical names from the root: [] for `mon`, ['computers', 'list'] for `mon computers list`. */
  path: readonly string[];
  summary: string;
  /**
   * Options this command adds. Options of ancestors are recognised after it too (commander
   * parses them anywhere unless positional options are enabled), so an option with the same
   * flags as an ancestor's (every `-h, --help`) is left out. A command with a default
   * subcommand also lists that subcommand's options (`mon sandbox --port 8025`).
   */
  options: readonly OptionNode[];
  args: readonly ArgNode[];
  /** Visible subcommands, in help order; hidden ones (`__complete`) are left out. */
  commands: readonly CommandNode[];
  /** The commander command it was read from (for help text in the command reference). */
  command: Command;
}

/**
 * Values that only exist at completion time, by where they are typed. Keep in sync with the
 * root options `--profile` and `--profiles` (src/program.ts) and the `<name>` arguments of src/commands/profile.ts;
 * `profile add <name>` names a new profile, so it is not here.
 */
const PROFILE_OPTIONS = new Set(['--profile']);
const PROFILE_LIST_OPTIONS = new Set(['--profiles']);
const PROFILE_ARGS = new Set([
  'profile use <name>',
  'profile show <name>',
  'profile remove <name>',
  'profile test <name>',
]);
/** Options and arguments that name something of the account: completed from the live cache (src/completion/live.ts). */
const NAME_OPTIONS: Record<string, 'groups' | 'computers' | 'plugins'> = {
  '--group': 'groups',
  '--computer': 'computers',
  '--plugin': 'plugins',
};
function namesOfArg(
  path: readonly string[],
  arg: string,
): 'groups' | 'computers' | 'notes' | 'expirations' | undefined {
  if (arg === 'group') return 'groups';
  if (arg === 'client-id') return 'computers';
  if (arg === 'uid' && path[0] === 'notes') return 'notes';
  if (arg === 'uid' && path[0] === 'expirations') return 'expirations';
  return undefined;
}
/** Placeholders that name a file on disk ('--body-file <path>'). */
const FILE_VALUE = /^(path|file|dir|directory)$/i;

/** The completion model of a whole program (the root command with every verb). */
export function buildTree(program: Command): CommandNode {
  return readCommand(program, [], []);
}

/** Reads a commander command (and everything below it) into the completion model. */
export function readCommand(command: Command, path: readonly string[], inherited: readonly OptionNode[]): CommandNode {
  const help = command.createHelp();
  const isHelpCommand =
    path.length > 0 &&
    command.name() === 'help' &&
    !command.commands.length &&
    command.registeredArguments[0]?.name() === 'command';
  const defaultName = (command as unknown as { _defaultCommandName?: string })._defaultCommandName;
  const defaultCommand = defaultName ? command.commands.find((sub) => sub.name() === defaultName) : undefined;

  const seen = new Set(inherited.map(flagsKey));
  const options: OptionNode[] = [];
  for (const option of [
    ...help.visibleOptions(command),
    ...(defaultCommand ? help.visibleOptions(defaultCommand) : []),
  ]) {
    const once = formsHeldOnce(command, option) ?? (defaultCommand && formsHeldOnce(defaultCommand, option));
    const node = {
      ...readOption(option, path),
      ...(once ? { once: once.flatMap((form) => [form.short, form.long].filter((flag) => flag !== undefined)) } : {}),
    };
    if (seen.has(flagsKey(node))) continue;
    seen.add(flagsKey(node));
    options.push(node);
  }
  const below = [...inherited, ...options];
  const args = command.registeredArguments.map((arg): ArgNode => {
    const key = `${path.join(' ')} <${arg.name()}>`;
    const names = namesOfArg(path, arg.name());
    const source: ValueSource = isHelpCommand
      ? { type: 'commands', topics: TOPIC_NAMES }
      : PROFILE_ARGS.has(key)
        ? { type: 'profiles' }
        : arg.argChoices
          ? { type: 'choices', values: [...arg.argChoices] }
          : names
            ? { type: 'names', kind: names }
            : { type: 'none' };
    return { name: arg.name(), optional: !arg.required, variadic: arg.variadic, source };
  });
  return {
    name: command.name(),
    aliases: command.aliases(),
    path,
    summary: firstLine(command.summary() || command.description()),
    options,
    args,
    commands: help.visibleCommands(command).map((sub) => readCommand(sub, [...path, sub.name()], below)),
    command,
  };
}

function readOption(option: Option, path: readonly string[]): OptionNode {
  const value = option.required ? 'required' : option.optional ? 'optional' : 'none';
  const valueName = /[<[]([^>\]]+)[>\]]/.exec(option.flags)?.[1]?.replace(/\.\.\.$/, '');
  let source: ValueSource = { type: 'none' };
  if (value !== 'none') {
    if (path.length === 0 && option.long && PROFILE_OPTIONS.has(option.long)) source = { type: 'profiles' };
    else if (path.length === 0 && option.long && PROFILE_LIST_OPTIONS.has(option.long))
      source = { type: 'profile-list' };
    else if (option.argChoices) source = { type: 'choices', values: [...option.argChoices] };
    else if (path.length > 0 && option.long && NAME_OPTIONS[option.long])
      source = { type: 'names', kind: NAME_OPTIONS[option.long]! };
    else if (valueName && FILE_VALUE.test(valueName)) source = { type: 'files' };
  }
  return {
    ...(option.long ? { long: option.long } : {}),
    ...(option.short ? { short: option.short } : {}),
    description: firstLine(option.description),
    value,
    ...(valueName ? { valueName } : {}),
    source,
  };
}

function flagsKey(option: OptionNode): string {
  return `${option.short ?? ''} ${option.long ?? ''}`;
}

function firstLine(text: string): string {
  return (text.split('\n')[0] ?? '').trim();
}

/** Every command in the tree, depth first, root included. */
export function walk(node: CommandNode): CommandNode[] {
  return [node, ...node.commands.flatMap(walk)];
}

/** The words a user types for an option: long and short. */
export function flagsOf(option: OptionNode): string[] {
  return [option.short, option.long].filter((flag): flag is string => flag !== undefined);
}

/** The canonical path as one string: '' for the root, 'computers list'. */
export function pathKey(node: { path: readonly string[] }): string {
  return node.path.join(' ');
}
