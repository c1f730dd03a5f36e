import { CommanderError, type Command, type Option } from 'commander';
import { MonError, NotFoundError, UsageError } from './errors.js';
import { closest } from './validate/suggest.js';
import { quoted } from './text/escape.js';

/**
 * Usage mistakes as one line each, in the house style (`mon: what is wrong — what to type`):
 * commander's own errors reworded, a resource named without a verb, `mon help a b`, and the
 * hint every usage error without one of its own gets. Reads the commander tree through its
 * public API only (names, aliases, options, arguments, usage).
 */

/** `mon computers list`: the words that run a command. */
export function pathOf(command: Command): string {
  const names: string[] = [];
  for (let at: Command | null = command; at; at = at.parent) names.unshift(at.name());
  return names.join(' ');
}

function subcommand(command: Command, word: string): Command | undefined {
  return command.commands.find((sub) => sub.name() === word || sub.aliases().includes(word));
}

/** The options a command accepts: its own and those of the commands above it. */
function optionsFor(command: Command): Option[] {
  const options: Option[] = [];
  for (let at: Command | null = command; at; at = at.parent) options.push(...at.options);
  return options;
}

/** Walks the words of a command line down the tree; values of options that take one are skipped. */
function walk(program: Command, argv: readonly string[]): { command: Command; after: string[] } {
  let command = program;
  let after: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const word = argv[i]!;
    if (word === '--') break;
    if (word.startsWith('-')) {
      const option = optionsFor(command).find((candidate) => candidate.long === word || candidate.short === word);
      if (option?.required) i++;
      continue;
    }
    const sub = after.length === 0 ? subcommand(command, word) : undefined;
    if (sub) command = sub;
    else after = [...after, word];
  }
  return { command, after };
}

/** The deepest command a command line names (the root when it names none). */
export function commandOf(program: Command, argv: readonly string[]): Command {
  return walk(program, argv).command;
}

function listOf(words: readonly string[]): string {
  return words.length <= 1 ? (words[0] ?? '') : `${words.slice(0, -1).join(', ')} or ${words.at(-1)}`;
}

function visible(command: Command): string[] {
  // Commander's own hidden flag is not public; hidden verbs are named with a leading underscore.
  return command.commands.map((sub) => sub.name()).filter((name) => !name.startsWith('_'));
}

/**
 * A resource named without its verb (`mon notes`, `mon completion`): the one line that says
 * which verbs it has. Undefined when the command line is complete, asks for help, or names a
 * resource whose verb may be left out (`isDefaultless` false: `mon sandbox`).
 */
export function missingVerb(
  program: Command,
  argv: readonly string[],
  hasDefault: (command: Command) => boolean,
): UsageError | undefined {
  if (argv.some((word) => word === '-h' || word === '--help' || word === '-V' || word === '--version'))
    return undefined;
  const { command, after } = walk(program, argv);
  if (command === program || command.commands.length === 0 || after.length > 0 || hasDefault(command)) return undefined;
  const verbs = visible(command);
  return new UsageError(
    `${pathOf(command).slice(4)} needs one of ${listOf(verbs)}`,
    `e.g. \`${pathOf(command)} ${verbs[0]}\`; \`${pathOf(command)} --help\` says what each does`,
  );
}

/** `mon help computers list`: the command whose help to print, or a one-line error. */
export function helpTarget(program: Command, words: readonly string[]): Command {
  let command = program;
  for (const word of words) {
    const sub = subcommand(command, word);
    if (!sub) {
      const guess = closest(word, visible(command));
      const where = command === program ? '' : ` in ${pathOf(command).slice(4)}`;
      throw new UsageError(
        `no command ${quoted(word)}${where}`,
        guess
          ? `did you mean \`mon help ${[...words.slice(0, words.indexOf(word)), guess].join(' ')}\`?`
          : `\`${pathOf(command)} --help\` lists the commands`,
      );
    }
    command = sub;
  }
  return command;
}

/** The usage line of a command without commander's `[options]`: `mon computers get <client-id>`. */
function usageOf(command: Command): string {
  const args = command
    .usage()
    .replace(/\[options\]\s*/, '')
    .replace(/\[command\]/, '<command>')
    .trim();
  return `${pathOf(command)}${args ? ` ${args}` : ''}`;
}

const helpHint = (command: Command) =>
  `\`${pathOf(command)} --help\` shows its ${command.commands.length > 0 ? 'commands' : 'options'}`;

/** The first quoted word of a commander message: the option, argument or command it is about. */
function quotedWord(message: string): string {
  return /'([^']*)'/.exec(message)?.[1] ?? '';
}

/**
 * Commander's parse errors in the house style. `argv` is the command line, so the command the
 * error belongs to is known without commander's private state.
 */
export function fromCommander(error: CommanderError, program: Command, argv: readonly string[]): UsageError {
  const command = commandOf(program, argv);
  const subject = quotedWord(error.message);
  switch (error.code) {
    case 'commander.unknownCommand':
      return unknownCommand(command, subject);
    case 'commander.unknownOption': {
      const flag = subject.split('=')[0]!;
      const longs = optionsFor(command).flatMap((option) => (option.long ? [option.long] : []));
      const guess = flag.startsWith('--') ? closest(flag, longs) : undefined;
      return new UsageError(
        `unknown option ${quoted(flag)}${command === program ? '' : ` for ${pathOf(command).slice(4)}`}`,
        guess ? `did you mean ${guess}?` : helpHint(command),
      );
    }
    case 'commander.missingArgument': {
      const taken = optionalValueTaken(command, argv);
      if (taken) {
        return new UsageError(
          `${taken.flag} took ${quoted(taken.value)} as its value, so <${subject}> is missing`,
          `put <${subject}> first (\`${pathOf(command)} ${taken.value} ${taken.flag}\`) or give ${taken.flag} its value after it`,
        );
      }
      return new UsageError(`missing <${subject}>`, `usage: ${usageOf(command)}`);
    }
    case 'commander.optionMissingArgument': {
      const option = optionsFor(command).find((candidate) => candidate.flags === subject);
      const label = option?.long ?? subject;
      const choices = option?.argChoices;
      return new UsageError(
        `${label} needs a value`,
        choices?.length ? `one of ${listOf(choices)}, e.g. ${label} ${choices[0]}` : helpHint(command),
      );
    }
    case 'commander.excessArguments': {
      // A resource whose verb may be left out (`mon sandbox nosuch`): the word is a wrong verb.
      const word = walk(program, argv).after[0];
      if (command.commands.length > 0 && word !== undefined) return unknownCommand(command, word);
      const expected = command.registeredArguments.length;
      return new UsageError(
        `too many arguments: ${pathOf(command).slice(4)} takes ${expected === 0 ? 'none' : expected === 1 ? 'one' : expected}`,
        `usage: ${usageOf(command)}; quote a value that has spaces`,
      );
    }
    default:
      return new UsageError(
        error.message
          .replace(/^error: /, '')
          .replace(/\s*\n+\s*/g, ' ')
          .trim(),
        helpHint(command),
      );
  }
}

function unknownCommand(command: Command, word: string): UsageError {
  const guess = closest(word, visible(command));
  return new UsageError(
    command.parent ? `${pathOf(command).slice(4)} has no command ${quoted(word)}` : `unknown command ${quoted(word)}`,
    guess ? `did you mean \`${pathOf(command)} ${guess}\`?` : `\`${pathOf(command)} --help\` lists the commands`,
  );
}

/**
 * An option that needs a value and took another option of the command line as it
 * (`groups find-or-create --name --build-installers`): commander hands a value the next word
 * whatever it is, so the request would go with `name=--build-installers`. A value that only looks
 * like an option is given attached (`--name=--build-installers`), which this leaves alone.
 */
export function optionTakenAsValue(program: Command, argv: readonly string[]): UsageError | undefined {
  const command = commandOf(program, argv);
  const options = optionsFor(command);
  const isOption = (word: string) =>
    options.some((option) => option.long === word.split('=')[0] || option.short === word);
  for (let i = 0; i < argv.length - 1; i++) {
    const word = argv[i]!;
    if (word === '--') break;
    const option = word.startsWith('-')
      ? options.find((candidate) => candidate.long === word || candidate.short === word)
      : undefined;
    if (!option?.required) continue;
    const value = argv[++i]!;
    if (isOption(value)) {
      const label = option.long ?? word;
      return new UsageError(
        `${label} needs a value, and ${quoted(value)} is an option`,
        `give ${label} its value, or write ${label}=${value} for a value that starts with '-'`,
      );
    }
  }
  return undefined;
}

/** An option with an optional value (`--timed [when]`) that took the next word of argv. */
function optionalValueTaken(command: Command, argv: readonly string[]): { flag: string; value: string } | undefined {
  for (const option of command.options.filter((candidate) => candidate.optional)) {
    const at = argv.findIndex((word) => word === option.long || word === option.short);
    const value = at >= 0 ? argv[at + 1] : undefined;
    if (value !== undefined && !value.startsWith('-'))
      return { flag: option.long ?? option.short ?? option.flags, value };
  }
  return undefined;
}

/**
 * The hint an error gets when it has none of its own: for a usage error, where the command's
 * help is; for a 404, how to list what exists (the resource's `list`, when it has one).
 */
export function withHint(error: unknown, command: Command): unknown {
  // A message that already says what to do (` — …`), or quotes a tool's own lines (jq's caret
  // under the mistake), is left as its author shaped it.
  if (!(error instanceof MonError) || error.hint || / \u2014 |\n/.test(error.message)) return error;
  if (error instanceof UsageError) {
    // `--timeout: …` is about a global option, `MON_TIMEOUT: …` about the environment.
    const label = /^(-{1,2}[\w-]+)(?:\/-{1,2}[\w-]+)?:/.exec(error.message)?.[1];
    let root = command;
    while (root.parent) root = root.parent;
    const global =
      label !== undefined &&
      root !== command &&
      root.options.some((option) => option.long === label || option.short === label) &&
      !command.options.some((option) => option.long === label);
    const variable = /^(MON_[A-Z_]+):/.exec(error.message)?.[1];
    const hint = variable
      ? `fix or unset ${variable}`
      : global
        ? '`mon help options` describes the global options'
        : helpHint(command);
    return new UsageError(error.message, hint);
  }
  if (error instanceof NotFoundError) {
    const list = command.parent ? subcommand(command.parent, 'list') : undefined;
    if (!list || list === command) return error;
    return new NotFoundError(error.message, `\`${usageOf(list)}\` lists what exists`);
  }
  return error;
}

/** The error main() reports: commander's reworded, ours with a hint where it has none. */
export function explain(error: unknown, program: Command, argv: readonly string[]): unknown {
  if (error instanceof CommanderError) {
    return ['commander.helpDisplayed', 'commander.version', 'commander.help'].includes(error.code)
      ? error
      : fromCommander(error, program, argv);
  }
  const command = commandOf(program, argv);
  return error instanceof MonError ? withHint(argumentTaken(error, command, argv), command) : error;
}

/**
 * `plugin mute --timed pr_x`: the uid (optional, since selectors may stand for it) was read as
 * --timed's value and failed that option's rule. Said as when the uid was required.
 */
function argumentTaken(error: MonError, command: Command, argv: readonly string[]): MonError {
  // Only when no argument was given: commander keeps the operands it read in command.args.
  const argument = command.args.length === 0 ? command.registeredArguments.find((arg) => !arg.required) : undefined;
  const taken = argument && error instanceof UsageError && !error.hint ? optionalValueTaken(command, argv) : undefined;
  if (!argument || !taken || !error.message.startsWith(`${taken.flag}: ${quoted(taken.value)}`)) return error;
  const name = argument.name();
  return new UsageError(
    `${taken.flag} took ${quoted(taken.value)} as its value, so <${name}> is missing`,
    `put <${name}> first (\`${pathOf(command)} ${taken.value} ${taken.flag}\`) or give ${taken.flag} its value after it`,
  );
}
