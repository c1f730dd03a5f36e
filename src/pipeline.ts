import type { Command } from 'commander';
import type { Context, GlobalOptions } from './context.js';
import { DryRun } from './dry-run.js';
import { UsageError } from './errors.js';
import { runAccounts } from './fleet/accounts.js';
import { resolveGlobals } from './globals.js';
import { flushed } from './output/drain.js';
import type { JqSink } from './output/jq.js';
import type { OutputFile } from './output/output-file.js';
import { resolveInput } from './resolve/index.js';
import { createContext, type MainDeps } from './runtime.js';
import { apiParams } from './spec/params.js';
import {
  hasChecks,
  needsResolving,
  optionsOf,
  type ParsedInput,
  type VerbOutcome,
  type VerbSpec,
} from './spec/spec.js';
import { deadlineFromEnv, deadlineLine } from './time/deadline.js';
import { scrub } from './api/secrets.js';
import { optionTakenAsValue } from './usage.js';

/**
 * The verb pipeline: what happens to one verb once commander has parsed its words, in named
 * steps —
 *
 *   parse → check input → resolve → dry run or confirm → send → render
 *
 * `runVerb` reads as those steps. The last three are the verb's handler, through its context:
 * it prepares its request and hands it to `ctx.dryRun` (shown and stopped under --dry-run,
 * else confirmed when the verb asks, then sent: src/dry-run.ts), and renders the answer
 * through `ctx.output`. Across accounts (--profiles) the steps after the check run once per
 * account (src/fleet/accounts.ts). main.ts sets the pipeline up, maps what it throws to an
 * exit code, and closes what it opened.
 */
export class VerbPipeline {
  /** The global options, once parsed and checked: main() reads --verbose from them. */
  globals: GlobalOptions | undefined;
  /** --jq's sink, once the command line asked for it: its refusal is the first thing said. */
  filter: JqSink | undefined;
  /** --output-file's file, once the command line asked for it. */
  outputFile: OutputFile | undefined;
  /** The exit code the command's answer carries (status --check), when it ran to its end. */
  answerCode = 0;
  /** The command said its answer is whole though it fails. */
  whole = false;
  /** Every account failed alike: the code is a failure's, not an answer's (--output-file keeps PATH). */
  answerFailed = false;

  constructor(
    private readonly deps: MainDeps,
    private readonly run: {
      program: Command;
      argv: readonly string[];
      /** What main() closes when the command ends, last first. */
      cleanups: (() => Promise<void> | void)[];
      /** Says one account's failure (main.ts, where errors become lines and exit codes). */
      reportAccount(error: unknown, profile: string): number;
    },
  ) {}

  /** The verb's action (program.ts's VerbRunner): the steps, in order. */
  async runVerb(verb: VerbSpec, input: ParsedInput, command: Command): Promise<void> {
    const globals = this.parse(verb, input.command, command);
    // The context the rest runs in, its output (--output-file's file, --jq's filter) set up first.
    const { program, argv, cleanups } = this.run;
    const runDeps = await this.outputDeps(verb, input.command, globals);
    const ctx = createContext(runDeps, { globals, cleanups, program, argv });
    const checked = await checkInput(verb, input, ctx);
    // Resolve → dry run or confirm → send → render: once, or once per account.
    if (!globals.accounts || verb.spansAccounts) await this.forOneAccount(verb, checked, ctx);
    else await this.acrossAccounts(verb, checked, ctx, runDeps);
  }

  /** Parse: the global options read (flag > env > default) and checked against the verb. */
  private parse(verb: VerbSpec, name: string, command: Command): GlobalOptions {
    const { deps, run } = this;
    const taken = optionTakenAsValue(run.program, run.argv);
    if (taken) throw taken;
    const raw = command.optsWithGlobals();
    // -o as typed: commander's default would hide that it was not given (--jq implies json).
    if (command.getOptionValueSourceWithGlobals('output') === 'default') delete raw.output;
    const globals = resolveGlobals(raw, deps.env);
    this.globals = globals;
    guardDeadline(verb, deps);
    onlyWhereOpenMetrics(verb, name, globals);
    return globals;
  }

  /** Resolve → dry run or confirm → send → render, for the one account of the command line. */
  private async forOneAccount(verb: VerbSpec, checked: ParsedInput, ctx: Context): Promise<void> {
    this.answerCode = (await againstAccount(verb, checked, ctx)) ?? 0;
    await this.shownFilter(ctx)?.end();
    ctx.delivery.printFootnotes();
  }

  /** --profiles, --all-profiles, MON_PROFILES: the same steps once per account (src/fleet/accounts.ts). */
  private async acrossAccounts(verb: VerbSpec, checked: ParsedInput, ctx: Context, deps: MainDeps): Promise<void> {
    const { failure, code, answered, allFailed } = await runAccounts({
      verb,
      invocation: { ...checked, params: apiParams(optionsOf(verb), checked.opts) },
      ctx,
      deps,
      cleanups: this.run.cleanups,
      program: this.run.program,
      run: (runCtx: Context) => againstAccount(verb, checked, runCtx),
      report: (error, profile) => this.run.reportAccount(error, profile),
    });
    // The accounts that answered are printed whole, --jq's output too, before the failure is
    // reported; when none answered, nothing is printed, as for one account that fails.
    if (answered) {
      await this.shownFilter(ctx)?.end();
      ctx.delivery.printFootnotes();
    }
    if (failure) throw failure;
    this.answerCode = code;
    this.answerFailed = allFailed === true;
  }

  /** --jq's filter when the output goes through it (with --dry-run the request is shown as it is). */
  private shownFilter(ctx: Context): JqSink | undefined {
    return ctx.dryRun.on ? undefined : this.filter;
  }

  /** Where the verb's output goes: --output-file's file, and --jq's filter in front of it. */
  private async outputDeps(verb: VerbSpec, name: string, globals: GlobalOptions): Promise<MainDeps> {
    const { deps } = this;
    const dryRun = DryRun.asked(globals);
    // --output-file: stdout is the file (a dry run changes nothing, so it prints as ever).
    // output-file.ts names its temporary with node:crypto, which a plain command never loads.
    if (globals.outputFile !== undefined && !dryRun && !verb.writesOutputFile)
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
      ...(file ? { io: withStdout(deps.io, file.stream) } : {}),
    };
    this.filter = await jqOutput(verb, name, globals, base, this.run.cleanups);
    const jq = dryRun ? undefined : this.filter;
    if (!jq) return base;
    // With --jq, stdout is the filter, and the first request waits for its syntax check.
    return {
      ...base,
      io: withStdout(deps.io, jq),
      beforeSending: jq.ready,
      delivered: async () => {
        await jq.end();
        await flushed(base.io.stdout);
      },
    };
  }
}

/** Check input: the verb's rules (lengths, dates, ranges, uids), before any request. */
async function checkInput(verb: VerbSpec, input: ParsedInput, ctx: Context): Promise<ParsedInput> {
  // Most verbs have rules to check; the few that have none (`__complete`) skip loading zod.
  if (!hasChecks(verb)) return input;
  return (await import('./validate/input.js')).checkInput(verb, input, ctx.now());
}

/**
 * Resolve, then the verb's handler (dry run or confirm → send → render, through ctx.dryRun and
 * ctx.output), against the account of `ctx`.
 */
async function againstAccount(verb: VerbSpec, checked: ParsedInput, ctx: Context): Promise<VerbOutcome> {
  const resolved = await resolve(verb, checked, ctx);
  if (resolved === undefined) return;
  return verb.run({ ...resolved, params: apiParams(optionsOf(verb), resolved.opts) }, ctx);
}

/**
 * Resolve: names, slugs and the other id of a computer become what the request needs. With
 * --dry-run a lookup is shown as the first request and the run ends there (undefined).
 */
async function resolve(verb: VerbSpec, checked: ParsedInput, ctx: Context): Promise<ParsedInput | undefined> {
  if (!needsResolving(verb)) return checked;
  const lookedUp = await resolveInput(verb, checked, ctx);
  if ('input' in lookedUp) return lookedUp.input;
  const { prepared, what } = lookedUp.wouldLookUp;
  await ctx.dryRun.shows(prepared, `the request that would look up ${what}; what follows depends on its answer`);
  return undefined;
}

/** main()'s streams with stdout replaced (--output-file's file, --jq's filter). */
function withStdout(io: MainDeps['io'], stdout: MainDeps['io']['stdout']): MainDeps['io'] {
  return {
    stdout,
    stderr: io.stderr,
    get stdin() {
      return io.stdin;
    },
  };
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
  if (DryRun.asked(globals)) await sink.ready;
  return sink;
}
