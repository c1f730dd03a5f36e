import { Command, Option } from 'commander';
import { COMMANDS } from './commands/index.js';
import { defineCommands, type VerbRunner } from './commands/define.js';
import { isResource, type CommandSpec } from './spec/spec.js';
import { OUTPUT_FORMATS } from './output/types.js';
import { VERSION } from './version.js';

/** Columns that help text is wrapped to. */
const HELP_WIDTH = 80;

/** What the root command writes help and errors through; main() supplies it. */
export interface ProgramOutput {
  writeOut(text: string): void;
  writeErr(text: string): void;
}

/**
 * The root command: global options of cli-contract.md and every command spec. Commander never
 * exits the process (exitOverride): main() turns its errors into exit codes. Given the command
 * line, only the resources it names get their verbs (see {@link commandsFor}); without it, the
 * whole tree (completions).
 */
export function buildProgram(output: ProgramOutput, runVerb: VerbRunner, argv?: readonly string[]): Command {
  const program = new Command('mon')
    .description('Administer the Endpoint Monitoring Service (API v2.5) from the command line.')
    .version(VERSION, '-V, --version', 'print the version')
    .helpOption('-h, --help', 'show help')
    .addHelpCommand('help [command]', 'show help for a command')
    .option('-p, --profile <name>', 'saved profile to use (env MON_PROFILE; default: the one set with `profile use`)')
    .option('--base-url <url>', "override the profile's https://<subdomain>.<service-domain> (env MON_BASE_URL)")
    .option('--sandbox', 'run against a local sandbox with demo data, started in this process')
    .addOption(new Option('-o, --output <format>', 'output format').choices(OUTPUT_FORMATS).default('table'))
    .option('--json', 'short for -o json')
    .option('--jq <expression>', 'filter JSON output with jq, built in (implies -o json; per item with -o ndjson)')
    .option('--fields <keys>', 'comma-separated keys: columns of table/csv/tsv, keys kept in json/ndjson')
    .option('--no-header', 'table/csv/tsv without the header row')
    .option('--expand <key>', 'expand a uid into its object, sent as expand[]=KEY (repeatable, dotted keys allowed)', (value: string, previous: string[] = []) => [...previous, value])
    .option('--timeout <seconds>', 'per-request timeout in seconds (env MON_TIMEOUT; default 30)')
    .option('--retries <n>', 'retries for 429 and transient failures, 0..10 (env MON_RETRIES; default 5)')
    .option('--dry-run', 'print the request that would be sent (key redacted) and send nothing')
    .option('-y, --yes', 'confirm deletes; without a terminal a delete without --yes is refused')
    .option('-q, --quiet', 'only data on stdout, no notices on stderr')
    .option('-v, --verbose', 'each request and its status on stderr (key redacted)')
    .option('--no-color', 'no colour (also NO_COLOR; colour is only ever used on a terminal)')
    .showSuggestionAfterError(true)
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
    })
    .configureHelp({ showGlobalOptions: true, sortSubcommands: false });

  program.addHelpText(
    'after',
    `
Examples:
  $ mon --sandbox computers list --status missing
  $ mon profile add acme --subdomain acme --domain monitoring.example.com
  $ mon plugin mute pr_4f2a --timed 2h
  $ mon computers list --all -o ndjson | jq .computer_name
  $ mon alerts --group "Acme Design"
  $ mon status --check

Exit codes: 0 ok, 2 usage, 3 auth, 4 not found, 5 rejected, 6 rate limited, 7 server, 8 network, 130 interrupted.
status --check exits as a Nagios plugin does: 0 OK, 1 WARNING, 2 CRITICAL, 3 UNKNOWN.`,
  );

  defineCommands(program, argv ? commandsFor(argv) : COMMANDS, runVerb);
  // Every subcommand inherits the same behaviour: no process exit, errors through main().
  const configure = (command: Command) => {
    for (const sub of command.commands) {
      sub.exitOverride().configureOutput(program.configureOutput()).showSuggestionAfterError(true);
      sub.configureHelp({ showGlobalOptions: true }).helpOption('-h, --help', 'show help');
      configure(sub);
    }
  };
  configure(program);
  return program;
}

/**
 * Start-up time: every verb costs a handful of commander objects, and a command line uses the
 * verbs of one resource at most. A resource that no word of `argv` names keeps its name,
 * aliases and summary (all the root help and "did you mean" need) but no verbs.
 */
export function commandsFor(argv: readonly string[]): readonly CommandSpec[] {
  const words = new Set(argv);
  const needed = (spec: CommandSpec) => !isResource(spec) || words.has(spec.name) || (spec.aliases ?? []).some((alias) => words.has(alias));
  if (COMMANDS.some((spec) => isResource(spec) && spec.wholeTree === true && needed(spec))) return COMMANDS;
  return COMMANDS.map((spec) => (needed(spec) ? spec : { ...spec, verbs: [] }));
}
