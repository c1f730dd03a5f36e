import { Command, Option } from 'commander';
import { COMMANDS } from './commands/index.js';
import { defineCommands, type VerbRunner } from './commands/define.js';
import { onceOnly } from './once-only.js';
import { isResource, type CommandSpec } from './spec/spec.js';
import { OUTPUT_FORMATS } from './output/types.js';
import { globalFlags, HELP_WIDTH, optionsText, rootHelp, topicNamed, topicText } from './help.js';
import { helpTarget } from './usage.js';
import { VERSION } from './version.js';

/** What the root command writes help and errors through; main() supplies it. */
export interface ProgramOutput {
  writeOut(text: string): void;
  writeErr(text: string): void;
}

/**
 * The root command: global options of docs/design/cli-contract.md and every command spec. Commander never
 * exits the process (exitOverride): main() turns its errors into exit codes. Given the command
 * line, only the resources it names get their verbs (see {@link commandsFor}); without it, the
 * whole tree (completions).
 */
export function buildProgram(output: ProgramOutput, runVerb: VerbRunner, argv?: readonly string[]): Command {
  const program = globalOptions(
    new Command('mon')
      .description('Administer the Endpoint Monitoring Service (API v2.5) from the command line.')
      .version(VERSION, '-V, --version', 'print the version (also: mon version)')
      .helpOption('-h, --help', 'show help')
      // Ours, not commander's: commander's help command reads one word (`mon help computers list`
      // would show the help of computers).
      .helpCommand(false),
  )
    // Our own hint says what was meant (usage.ts); commander's would compare every option with
    // the word however long it is, seconds for a word of 100,000 characters, and is not shown.
    .showSuggestionAfterError(false)
    .exitOverride()
    .configureOutput({
      writeOut: (text) => output.writeOut(text),
      writeErr: (text) => output.writeErr(text),
      // main() prints commander's errors as one line of its own.
      outputError: () => undefined,
      // One width on a terminal and in a pipe, as git's help has: the same text everywhere, so
      // bin/mon can print the root help the build saved (dist/help.txt) without the bundle.
      getOutHelpWidth: () => HELP_WIDTH,
      getErrHelpWidth: () => HELP_WIDTH,
    });
  globalOptionsOnce(program);
  rootHelpFirst(program);
  defineCommands(program, argv ? commandsFor(argv) : COMMANDS, runVerb);
  addHelpCommand(program, output);
  inheritBehaviour(program);
  return program;
}

/** The global options of docs/design/cli-contract.md, on the root command. */
function globalOptions(root: Command): Command {
  return root
    .option('-p, --profile <name>', 'saved profile to use (env MON_PROFILE; default: the one set with `profile use`)')
    .option('--profiles <names>', 'run a read across these saved profiles, side by side (env MON_PROFILES)')
    .option('--all-profiles', 'run a read across every saved profile, in the order `profile list` shows')
    .option('--parallel <n>', 'with --profiles/--all-profiles: accounts read at once, 1..16 (default 4)')
    .option('--base-url <url>', "override the profile's https://<subdomain>.<service-domain> (env MON_BASE_URL)")
    .option('--sandbox', 'run against a local sandbox with demo data, started in this process')
    .addOption(outputOption())
    .option('--json', 'short for -o json')
    .option('--jq <expression>', 'filter JSON output with jq, built in (implies -o json; per item with -o ndjson)')
    .option(
      '--fields <keys>',
      'comma-separated keys of -o json or table columns (name, flags, owner…), in every format',
    )
    .option(
      '--output-file <path>',
      'write stdout to PATH: a temporary beside it, renamed over it once the answer is whole; never a half-written PATH',
    )
    .option('--no-header', 'table/csv/tsv without the header row')
    .option(
      '--expand <key>',
      'expand a uid into its object, sent as expand[]=KEY (repeatable, dotted keys allowed)',
      (value: string, previous: string[] = []) => [...previous, value],
    )
    .option('--timeout <seconds>', 'per-request timeout in seconds (env MON_TIMEOUT; default 30)')
    .option('--retries <n>', 'retries for 429 and transient failures, 0..10 (env MON_RETRIES; default 5)')
    .option(
      '--dry-run',
      'print the request that would be sent (key redacted) and send nothing (a bulk mute sends its reads and prints its plan; profile, changes forget and sandbox reset change nothing and say what they would)',
    )
    .option('-y, --yes', 'confirm deletes and bulk mutes; without a terminal they are refused without it')
    .option('-q, --quiet', 'only data on stdout, no notices on stderr')
    .option('-v, --verbose', 'each request and its status on stderr (key redacted)')
    .option('--no-color', 'no colour (also NO_COLOR or TERM=dumb; colour is only ever used on a terminal)');
}

/** A global option given twice is refused as a verb option is; --expand combines its keys. */
function globalOptionsOnce(program: Command): void {
  const lists: Record<string, string> = {
    '--fields': 'give one comma-separated list: --fields uid,name',
    '--profiles': 'give one comma-separated list: --profiles acme,northwind',
  };
  // --json is short for -o json: the two are one option, given once (`-o csv --json` is refused as `-o csv -o json` is).
  const json = program.options.find((option) => option.long === '--json')!;
  for (const option of program.options) {
    if (option.long === '--expand' || option === json) continue;
    onceOnly(program, option.long === '--output' ? [option, json] : [option], lists[option.long ?? '']);
  }
}

/**
 * The root's own help: the commands first, on one screen (src/help.ts); every other command's
 * help is commander's. The longest name (expiration-manufacturers|manufacturers) leaves 40
 * columns for the text beside it: commander's default (40) would stop wrapping there and run past 80.
 */
function rootHelpFirst(program: Command): void {
  const formatHelp = program.createHelp().formatHelp;
  program.configureHelp({
    sortSubcommands: false,
    minWidthToWrap: 30,
    formatHelp: (command, helper) =>
      command === program ? rootHelp(program, helper) : formatHelp.call(helper, command, helper),
  });
}

/** `mon help [topic | command…]`: a topic by its one word, else the command's help. */
function addHelpCommand(program: Command, output: ProgramOutput): void {
  program
    .command('help')
    .argument('[command...]', 'a topic (`mon help exit-codes`), or a command and its verb (`mon help computers list`)')
    .description('Show help for a topic or a command')
    .action((words: string[]) => {
      // A topic by its one word; `mon help sandbox serve` is the command's help.
      const topic = words.length === 1 ? topicNamed(words[0]!) : undefined;
      if (topic) output.writeOut('blocks' in topic ? topicText(topic) : optionsText(program));
      else helpTarget(program, words).outputHelp();
    });
}

/**
 * Every subcommand inherits the same behaviour: no process exit, errors through main(). Its
 * help shows its own options and verbs, and the global options as one short block at the end
 * (as gh's "INHERITED FLAGS"): `mon help options` describes them.
 */
function inheritBehaviour(program: Command): void {
  const configure = (command: Command) => {
    for (const sub of command.commands) {
      sub.exitOverride().configureOutput(program.configureOutput()).showSuggestionAfterError(false);
      sub.helpOption('-h, --help', 'show help').helpCommand(false);
      configure(sub);
    }
  };
  configure(program);
  program.addHelpText('afterAll', ({ command }) => (command === program ? '' : globalOptionsBlock(program)));
}

/**
 * -o lists its formats in help and completions; the check is resolveGlobals', so that a wrong
 * format gets the same one-line message as every other value (commander's `choices()` would
 * answer in its own words).
 */
function outputOption(): Option {
  const option = new Option('-o, --output <format>', 'output format').default('table');
  option.argChoices = [...OUTPUT_FORMATS];
  return option;
}

/** The global options' flags, wrapped to the help width under one heading. */
function globalOptionsBlock(program: Command): string {
  return `\nGlobal options (\`mon help options\` describes them):\n${globalFlags(program).join('\n')}`;
}

/** Whether a resource runs a verb of its own when none is named (`mon sandbox`). */
export function hasDefaultVerb(command: Command): boolean {
  const spec = COMMANDS.find((candidate) => candidate.name === command.name());
  return spec !== undefined && isResource(spec) && spec.verbs.some((verb) => verb.isDefault === true);
}

/**
 * Start-up time: every verb costs a handful of commander objects, and a command line uses the
 * verbs of one resource at most. A resource that no word of `argv` names keeps its name,
 * aliases and summary (all the root help and "did you mean" need) but no verbs.
 */
export function commandsFor(argv: readonly string[]): readonly CommandSpec[] {
  const words = new Set(argv);
  const needed = (spec: CommandSpec) =>
    !isResource(spec) || words.has(spec.name) || (spec.aliases ?? []).some((alias) => words.has(alias));
  if (COMMANDS.some((spec) => isResource(spec) && spec.wholeTree === true && needed(spec))) return COMMANDS;
  return COMMANDS.map((spec) => (needed(spec) ? spec : { ...spec, verbs: [] }));
}
