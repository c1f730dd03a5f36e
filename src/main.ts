import { CommanderError, type Command } from 'commander';
import { longRunsCut, terminalSafe } from './text/escape.js';
import { deadlineFromEnv, deadlineLine } from './time/deadline.js';
import { DeadlineError, InterruptedError, MonError, UsageError } from './errors.js';
import { heldBack } from './output/drain.js';
import type { Context, GlobalOptions } from './context.js';
import type { JqSink } from './output/jq.js';
import type { OutputFile } from './output/output-file.js';
import { buildProgram, hasDefaultVerb } from './program.js';
import { apiParams } from './spec/params.js';
import {
  hasChecks,
  needsResolving,
  optionsOf,
  type ParsedInput,
  type VerbOutcome,
  type VerbSpec,
} from './spec/spec.js';
import { explain, missingVerb, optionTakenAsValue } from './usage.js';
import { beginRun, createContext, type MainDeps } from './runtime.js';
import { resolveGlobals } from './globals.js';
import { scrub } from './api/secrets.js';

export type { MainDeps } from './runtime.js';

/**
 * Runs one command line and returns its exit code. The only place that maps errors to exit
 * codes (docs/design/cli-contract.md, Exit codes); nothing below it exits the process, so tests can call
 * it in-process.
 */
export async function main(argv: readonly string[], deps: MainDeps): Promise<number> {
  beginRun();
  const run = new CommandRun(argv, deps);
  try {
    return await run.parseAndRun();
  } catch (error) {
    return await run.fail(error);
  } finally {
    await run.cleanUp();
  }
}

/** One command line's run: its steps, and what they learn that the ending needs. */
class CommandRun {
  /** An engine started for --jq that the command line turns out not to use ends with the run. */
  private readonly cleanups: (() => Promise<void> | void)[];
  private readonly program: Command;
  /** The global options, once the command line has been parsed and checked. */
  private parsedGlobals: GlobalOptions | undefined;
  /** --jq's sink, once the command line asked for it. */
  private filter: JqSink | undefined;
  /** The exit code the command's answer carries (status --check), when it ran to its end. */
  private answerCode = 0;
  /** --output-file's file, once the command line asked for it. */
  private outputFile: OutputFile | undefined;
  /** The command said its answer is whole though it fails. */
  private whole = false;
  /** Every account failed alike: the code is a failure's, not an answer's (--output-file keeps PATH). */
  private answerFailed = false;

  constructor(
    private readonly argv: readonly string[],
    private readonly deps: MainDeps,
  ) {
    this.cleanups = deps.jqEngine ? [() => void deps.jqEngine!.worker.terminate()] : [];
    const { io } = deps;
    this.program = buildProgram(
      { writeOut: (text) => io.stdout.write(text), writeErr: (text) => io.stderr.write(text) },
      (verb, input, command) => this.runVerb(verb, input, command),
      argv,
    );
  }

  /** Help for no words, else the command line parsed and its verb run; its exit code. */
  async parseAndRun(): Promise<number> {
    const { program, argv } = this;
    if (argv.length === 0) {
      // outputHelp, not helpInformation: the examples are added after the generated help.
      program.outputHelp();
      return 0;
    }
    // `mon notes`: one line naming the verbs, not the resource's help on stderr.
    const missing = missingVerb(program, argv, hasDefaultVerb);
    if (missing) throw missing;
    await program.parseAsync([...argv], { from: 'user' });
    await this.outputFile?.settle(!this.answerFailed || this.whole);
    return this.answerCode;
  }

  /** The verb's action: its options checked, its output set up, then run for one account or many. */
  private async runVerb(verb: VerbSpec, input: ParsedInput, command: Command): Promise<void> {
    const { deps, program, argv } = this;
    const taken = optionTakenAsValue(program, argv);
    if (taken) throw taken;
    const raw = command.optsWithGlobals();
    // -o as typed: commander's default would hide that it was not given (--jq implies json).
    if (command.getOptionValueSourceWithGlobals('output') === 'default') delete raw.output;
    const globals = resolveGlobals(raw, deps.env);
    this.parsedGlobals = globals;
    guardDeadline(verb, deps);
    onlyWhereOpenMetrics(verb, input.command, globals);
    const runDeps = await this.outputDeps(verb, input.command, globals);
    const jq = globals.dryRun ? undefined : this.filter;
    const ctx = createContext(runDeps, { globals, cleanups: this.cleanups, program, argv });
    // Most verbs have rules to check; the few that have none (`__complete`) skip loading zod.
    const checked = hasChecks(verb) ? (await import('./validate/input.js')).checkInput(verb, input, ctx.now()) : input;
    const runOnce = (runCtx: Context) => againstAccount(verb, checked, runCtx);
    if (!globals.accounts || verb.spansAccounts) {
      this.answerCode = (await runOnce(ctx)) ?? 0;
      await jq?.end();
      ctx.printFootnotes();
      return;
    }
    // --profiles, --all-profiles, MON_PROFILES: the same verb once per account (src/fleet/accounts.ts).
    const { runAccounts } = await import('./fleet/accounts.js');
    const { failure, code, answered, allFailed } = await runAccounts({
      verb,
      invocation: { ...checked, params: apiParams(optionsOf(verb), checked.opts) },
      ctx,
      deps: runDeps,
      cleanups: this.cleanups,
      program,
      run: runOnce,
      report: (error, profile) => report(error, deps, globals.verbose, profile),
    });
    // The accounts that answered are printed whole, --jq's output too, before the failure is
    // reported; when none answered, nothing is printed, as for one account that fails.
    if (answered) {
      await jq?.end();
      ctx.printFootnotes();
    }
    if (failure) throw failure;
    this.answerCode = code;
    this.answerFailed = allFailed === true;
  }

  /** Where the verb's output goes: --output-file's file, and --jq's filter in front of it. */
  private async outputDeps(verb: VerbSpec, name: string, globals: GlobalOptions): Promise<MainDeps> {
    const { deps } = this;
    const { io } = deps;
    // --output-file: stdout is the file (a dry run changes nothing, so it prints as ever).
    if (globals.outputFile !== undefined && !globals.dryRun && !verb.writesOutputFile)
      this.outputFile = (await import('./output/output-file.js')).openOutputFile(
        globals.outputFile,
        verb.untilStopped === true,
      );
    const file = this.outputFile;
    const base: MainDeps = {
      ...deps,
      answerWhole: () => {
        this.whole = true;
      },
      ...(file
        ? {
            io: {
              stdout: file.stream,
              stderr: io.stderr,
              get stdin() {
                return io.stdin;
              },
            },
          }
        : {}),
    };
    this.filter = await jqOutput(verb, name, globals, base, this.cleanups);
    const jq = globals.dryRun ? undefined : this.filter;
    if (!jq) return base;
    // With --jq, stdout is the filter, and the first request waits for its syntax check.
    return {
      ...base,
      io: {
        stdout: jq,
        stderr: io.stderr,
        get stdin() {
          return io.stdin;
        },
      },
      beforeSending: jq.ready,
      delivered: async () => {
        await jq.end();
        await (await import('./output/drain.js')).flushed(base.io.stdout);
      },
    };
  }

  /** Says the failure in one line and returns the exit code (`status --check`: Nagios's UNKNOWN). */
  async fail(error: unknown): Promise<number> {
    const { deps, program, argv } = this;
    // After Ctrl-C or SIGTERM whatever broke is a consequence of the interrupt: say so, exit 130/143.
    const aborted = deps.signal?.aborted === true && !(error instanceof InterruptedError);
    // Every usage error is one line with what to type next (the house style), whoever raised it.
    // A filter jq refuses is the first thing said, as when it was checked before all else.
    const refused = aborted ? undefined : await this.filter?.refusal();
    const failure = aborted ? InterruptedError.of(deps.signal) : (refused ?? explain(error, program, argv));
    // Before the options are checked, --verbose is what commander has read of the root's.
    const verbose = this.parsedGlobals?.verbose ?? program.opts().verbose === true;
    const code = report(failure, deps, verbose);
    const check = code !== 0 && isStatusCheck(program, argv);
    if (check) {
      // `status --check` follows the Nagios plugin convention instead (docs/design/cli-contract.md, Exit
      // codes): any error is UNKNOWN, exit 3, its reason on the one line a monitor reads.
      const { nagiosText } = await import('./fleet/check.js');
      (this.outputFile?.stream ?? deps.io.stdout).write(
        `MON UNKNOWN - ${nagiosText(scrub(reasonOf(failure), deps))}\n`,
      );
    }
    // --output-file: PATH is replaced only by a whole answer; a failure that was said already
    // (a full disk at the rename) is not said twice.
    await this.outputFile?.settle((this.whole || check) && !aborted).catch((settling: unknown) => {
      if (settling !== error) report(settling, deps, verbose);
    });
    return check ? 3 : code;
  }

  /** Closes what the run opened, last first. */
  async cleanUp(): Promise<void> {
    for (const cleanup of this.cleanups.reverse()) {
      try {
        await cleanup();
      } catch {
        // Closing sockets or a sandbox after the answer was printed must not change the outcome.
      }
    }
  }
}

/** The verb against the account of `ctx`: its names resolved first (or, with --dry-run, the lookup shown). */
async function againstAccount(verb: VerbSpec, checked: ParsedInput, ctx: Context): Promise<VerbOutcome> {
  let resolved = checked;
  if (needsResolving(verb)) {
    // Names, slugs and the other id of a computer become what the request needs; with
    // --dry-run, a lookup is shown as the first request and the run ends there.
    const lookedUp = await (await import('./resolve/index.js')).resolveInput(verb, checked, ctx);
    if ('wouldLookUp' in lookedUp) {
      const { showDryRun } = await import('./commands/actions.js');
      await showDryRun(
        ctx,
        lookedUp.wouldLookUp.prepared,
        `the request that would look up ${lookedUp.wouldLookUp.what}; what follows depends on its answer`,
      );
      return;
    }
    resolved = lookedUp.input;
  }
  return verb.run({ ...resolved, params: apiParams(optionsOf(verb), resolved.opts) }, ctx);
}

/**
 * Whether the command line is `mon [globals] status … --check`, also when it failed before its
 * options were checked: the word after a root option that takes a value is that value.
 */
export function isStatusCheck(program: Command, argv: readonly string[]): boolean {
  if (!argv.includes('--check')) return false;
  const valued = new Set(
    program.options
      .filter((option) => option.required || option.optional)
      .flatMap((option) => [option.short, option.long]),
  );
  for (let i = 0; i < argv.length; i++) {
    const word = argv[i]!;
    if (valued.has(word)) i++;
    else if (!word.startsWith('-')) return word === 'status';
  }
  return false;
}

/** The reason of `MON UNKNOWN - <reason>`, before it is cleaned into one line (src/fleet/check.ts, nagiosText). */
function reasonOf(error: unknown): string {
  return error instanceof CommanderError
    ? error.message.replace(/^error: /, '')
    : error instanceof MonError
      ? `${error.message}${error.hint ? ` — ${error.hint}` : ''}`
      : error instanceof Error
        ? `unexpected error: ${error.message}`
        : String(error);
}

/** -o openmetrics: only a verb that prints metrics takes it (--jq refuses it as it refuses csv). */
function onlyWhereOpenMetrics(verb: VerbSpec, name: string, globals: GlobalOptions): void {
  if (globals.output !== 'openmetrics') return;
  if (!verb.openMetrics)
    throw new UsageError(
      `-o openmetrics: \`mon ${name}\` prints no metrics`,
      'use -o openmetrics with `mon status`; here -o json, ndjson, csv or tsv',
    );
  if (globals.fields !== undefined)
    throw new UsageError(
      '--fields: -o openmetrics prints every metric family',
      'filter the series in the scraper, or use -o json --fields',
    );
}

/**
 * Hands bin/mon MON_DEADLINE's last word (MainDeps.endAtDeadline): whatever holds the process
 * past it, a reader that stopped reading included, it ends with exit 8. Not for a verb that runs
 * until stopped (`sandbox serve`). An unreadable MON_DEADLINE is said by what reads it (the
 * client, --jq), as before.
 */
function guardDeadline(verb: VerbSpec, deps: MainDeps): void {
  if (!deps.endAtDeadline || verb.untilStopped) return;
  let deadlineMs: number;
  try {
    deadlineMs = deadlineFromEnv(deps.env);
  } catch {
    return;
  }
  deps.endAtDeadline(
    deadlineMs,
    (heldBy) => deadlineLine(deadlineMs, heldBy),
    deps.env.MON_DEADLINE?.trim() ? 'set' : 'default',
  );
}

/**
 * --jq: refused by a verb that prints no JSON; otherwise jq starts in its worker at once (its
 * syntax is checked there, before the first request is sent) and what the verb prints goes
 * through it. With --dry-run the filter is checked, and the request shown as it is.
 */
async function jqOutput(
  verb: VerbSpec,
  name: string,
  globals: GlobalOptions,
  deps: MainDeps,
  cleanups: (() => Promise<void> | void)[],
): Promise<JqSink | undefined> {
  if (globals.jq === undefined) return undefined;
  if (verb.jsonOutput === false)
    throw new UsageError(
      `--jq: \`mon ${name}\` prints no JSON to filter`,
      'use --jq with a command that prints JSON: a list, get, create, update or `mon api`',
    );
  const { JqSink } = await import('./output/jq.js');
  const sink = new JqSink(globals.jq, {
    engine: deps.jqEngine,
    mode: globals.output === 'ndjson' || verb.jsonLines === true ? 'ndjson' : 'json',
    out: deps.io.stdout,
    // jq's `debug` and `stderr` lines quote the data, which a server may have filled with the key.
    warn: (text) => deps.io.stderr.write(scrub(text, deps)),
    signal: deps.signal,
    deadlineMs: deadlineFromEnv(deps.env),
  });
  cleanups.push(() => sink.close());
  if (globals.dryRun) await sink.ready;
  return sink;
}

/**
 * Prints one line for the error and returns its exit code. Whatever the message quotes (a
 * server's title, a value the user typed) is shown escaped: always one line, nothing for the
 * terminal to act on.
 */
function report(error: unknown, deps: MainDeps, verbose: boolean, profile?: string): number {
  // One account of many (--profiles): its line names the profile, `mon: acme: …`.
  const write = (line: string) =>
    deps.io.stderr.write(
      `${terminalSafe(longRunsCut(scrub(profile === undefined ? line : line.replace(/^mon: /, `mon: ${profile}: `), deps)))}\n`,
    );
  if (error instanceof CommanderError) {
    if (error.code === 'commander.helpDisplayed' || error.code === 'commander.version') return 0;
    // A missing verb that missingVerb() did not catch: commander printed the resource's help
    // on stderr (exit code 1).
    if (error.code === 'commander.help') return error.exitCode === 0 ? 0 : 2;
    write(
      `mon: ${error.message
        .replace(/^error: /, '')
        .replace(/\n+/g, ' ')
        .trim()}`,
    );
    return 2;
  }
  if (error instanceof InterruptedError) {
    write(`mon: ${error.message}`);
    return error.exitCode;
  }
  // Whichever deadline noticed first (a request's, the filter's, bin/mon's last word), what held
  // the command is said from what is so now: output its reader has not taken.
  if (error instanceof DeadlineError && heldBack(deps.io.stdout)) {
    write(deadlineLine(error.deadlineMs, 'stdout').trimEnd());
    return error.exitCode;
  }
  if (error instanceof MonError) {
    write(`mon: ${error.message}${error.hint ? ` — ${error.hint}` : ''}`);
    return error.exitCode;
  }
  const message = error instanceof Error ? error.message.split('\n')[0] : String(error);
  write(`mon: unexpected error: ${message}${verbose ? '' : ' (run again with --verbose for details)'}`);
  if (verbose && error instanceof Error && error.stack) error.stack.split('\n').forEach(write);
  return 1;
}

/**
 * The line bin/mon prints for an error that escaped main() (an uncaught exception): one line,
 * no stack, no key.
 */
export function crashLine(error: unknown, env: Record<string, string | undefined>): string {
  const message = error instanceof Error ? error.message.split('\n')[0] : String(error).split('\n')[0];
  return `${terminalSafe(scrub(`mon: unexpected error: ${message}`, { env }))}\n`;
}
