import { CommanderError, type Command } from 'commander';
import { longRunsCut, terminalSafe } from './text/escape.js';
import { deadlineLine } from './time/deadline.js';
import { DeadlineError, InterruptedError, MonError } from './errors.js';
import { heldBack } from './output/drain.js';
import { nagiosText } from './fleet/check.js';
import { buildProgram, hasDefaultVerb } from './program.js';
import { VerbPipeline } from './pipeline.js';
import { explain, missingVerb } from './usage.js';
import { beginRun, type MainDeps } from './runtime.js';
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

/**
 * One command line's run: the command tree set up, its verb handed to the verb pipeline
 * (src/pipeline.ts), what fails said in one line with its exit code, what was opened closed.
 */
class CommandRun {
  /** An engine started for --jq that the command line turns out not to use ends with the run. */
  private readonly cleanups: (() => Promise<void> | void)[];
  private readonly program: Command;
  /** The verb's steps, and what they learn that the ending needs. */
  private readonly pipeline: VerbPipeline;

  constructor(
    private readonly argv: readonly string[],
    private readonly deps: MainDeps,
  ) {
    this.cleanups = deps.jqEngine ? [() => void deps.jqEngine!.worker.terminate()] : [];
    const { io } = deps;
    this.program = buildProgram(
      { writeOut: (text) => io.stdout.write(text), writeErr: (text) => io.stderr.write(text) },
      (verb, input, command) => this.pipeline.runVerb(verb, input, command),
      argv,
    );
    this.pipeline = new VerbPipeline(deps, {
      program: this.program,
      argv,
      cleanups: this.cleanups,
      reportAccount: (error, profile) => report(error, deps, this.pipeline.globals?.verbose === true, profile),
    });
  }

  /** Help for no words, else the command line parsed and its verb run; its exit code. */
  async parseAndRun(): Promise<number> {
    const { program, argv, pipeline } = this;
    if (argv.length === 0) {
      // outputHelp, not helpInformation: the examples are added after the generated help.
      program.outputHelp();
      return 0;
    }
    // `mon notes`: one line naming the verbs, not the resource's help on stderr.
    const missing = missingVerb(program, argv, hasDefaultVerb);
    if (missing) throw missing;
    await program.parseAsync([...argv], { from: 'user' });
    await pipeline.outputFile?.settle(!pipeline.answerFailed || pipeline.whole);
    return pipeline.answerCode;
  }

  /** Says the failure in one line and returns the exit code (`status --check`: Nagios's UNKNOWN). */
  async fail(error: unknown): Promise<number> {
    const { deps, program, argv, pipeline } = this;
    // After Ctrl-C or SIGTERM whatever broke is a consequence of the interrupt: say so, exit 130/143.
    const aborted = deps.signal?.aborted === true && !(error instanceof InterruptedError);
    // Every usage error is one line with what to type next (the house style), whoever raised it.
    // A filter jq refuses is the first thing said, as when it was checked before all else.
    const refused = aborted ? undefined : await pipeline.filter?.refusal();
    const failure = aborted ? InterruptedError.of(deps.signal) : (refused ?? explain(error, program, argv));
    // Before the options are checked, --verbose is what commander has read of the root's.
    const verbose = pipeline.globals?.verbose ?? program.opts().verbose === true;
    const code = report(failure, deps, verbose);
    const check = code !== 0 && isStatusCheck(program, argv);
    if (check) {
      // `status --check` follows the Nagios plugin convention instead (docs/design/cli-contract.md, Exit
      // codes): any error is UNKNOWN, exit 3, its reason on the one line a monitor reads.
      (pipeline.outputFile?.stream ?? deps.io.stdout).write(
        `MON UNKNOWN - ${nagiosText(scrub(reasonOf(failure), deps))}\n`,
      );
    }
    // --output-file: PATH is replaced only by a whole answer; a failure that was said already
    // (a full disk at the rename) is not said twice.
    await pipeline.outputFile?.settle((pipeline.whole || check) && !aborted).catch((settling: unknown) => {
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
