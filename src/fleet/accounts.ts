/**
 * One read across many accounts (`--profiles a,b`, `--all-profiles`, MON_PROFILES): the same
 * verb runs once per account, each with a Context of its own (its profile, hence its own key,
 * base URL and rate budget: src/api/budget.ts keeps one per key, as the API counts them), at
 * most --parallel at once. Their output meets here: each account's Context.output hands over
 * the objects, and one real renderer prints them in the user's format, with a
 * leading PROFILE column or a `profile` key. Accounts appear in the order given, each one's
 * items together and in the API's order: the first account streams live, the next ones are held
 * until their turn. An account that fails does not stop the others.
 */
import type { AccountList, AccountOutcome, AnswerView, Context, Io, Output } from '../context.js';
import { AccountsFailedError, InterruptedError, UsageError, type MonError } from '../errors.js';
import type { FirstKey, ListRenderer, RenderOptions } from '../output/types.js';
import { createContext, type MainDeps } from '../runtime.js';
import type { Invocation, ParsedInput, VerbOutcome, VerbSpec } from '../spec/spec.js';
import type { Command } from 'commander';
import { systemClock } from '../clock.js';
import { routeOf } from '../api/endpoints.js';
import { fanOut } from './fan-out.js';
import { quoted } from '../text/escape.js';

type Row = Record<string, unknown>;

/** The key and column every item gains (docs/design/cli-contract.md, Fleet commands). */
export const PROFILE_KEY = 'profile';

export interface AccountsRun {
  verb: VerbSpec;
  /** The command line, checked once for every account (names are resolved per account). */
  invocation: Invocation;
  /** The command's own context: its io is the real stdout (or --jq's sink). */
  ctx: Context;
  deps: MainDeps;
  cleanups: (() => Promise<void> | void)[];
  program: Command;
  /** One account's run: resolve names against that account, then run the verb. */
  run(ctx: Context): Promise<VerbOutcome>;
  /** main()'s one line for an error, prefixed with the profile; returns its exit code. */
  report(error: unknown, profile: string): number;
}

/**
 * Runs the verb across the accounts. Everything the user can get wrong (a write, an unknown
 * profile, none saved) is refused before any request. Returns how the command ends, after the
 * accounts that answered were printed whole: the exit code of its answer (`status --check`
 * across accounts), or of the failure every account met alike (each already said why), or the
 * failure still to report (some accounts failed: exit 9); and whether any account answered
 * (when none did, nothing was printed).
 */
export async function runAccounts(
  run: AccountsRun,
): Promise<{ code: number; failure?: MonError; answered: boolean; allFailed?: true }> {
  const { verb, invocation, ctx, deps } = run;
  refuseUnlessRead(verb, invocation, ctx.globals.accounts!);
  const profiles = await accountNames(ctx);
  const merged = new MergedOutput(profiles);
  const outcomes: AccountOutcome[] = profiles.map((profile) => ({ profile }));
  const codes: number[] = [];
  const startedAt = (deps.clock ?? systemClock).now();
  // No progress line per account: several would overwrite each other on one terminal.
  const io: Io = {
    stdout: deps.io.stdout,
    stderr: { write: (text) => deps.io.stderr.write(text) },
    get stdin() {
      return deps.io.stdin;
    },
  };
  const runOne = async (index: number): Promise<void> => {
    const profile = profiles[index]!;
    const output = merged.account(index, outcomes[index]!);
    const accountCtx = createContext(
      { ...deps, io },
      {
        globals: { ...ctx.globals, accounts: undefined },
        cleanups: run.cleanups,
        program: run.program,
        argv: ctx.argv,
        // Each account is its saved profile alone (src/target.ts).
        choice: { savedProfile: profile },
        account: { profile, output, footnote: (message) => ctx.delivery.footnote(message), startedAt },
      },
    );
    try {
      // An answer drawn whole (Output.answer) says its exit code once, with the others'.
      await run.run(accountCtx);
    } catch (error) {
      if (ctx.signal.aborted) throw error;
      outcomes[index]!.error = error;
      // A mistake in the command line itself is found by every account alike: said once, below.
      if (!(error instanceof UsageError)) codes[index] = run.report(error, profile);
    } finally {
      merged.finish(index);
    }
  };
  // --dry-run prints each account's requests: one account after another, in order.
  await fanOut(profiles, ctx.dryRun.on ? 1 : ctx.globals.parallel, ctx.signal, (_, index) => runOne(index));
  if (ctx.signal.aborted) throw InterruptedError.of(ctx.signal);
  // When no account answered, nothing is printed: not even the `[]` of an empty list.
  const answered = outcomes.some((outcome) => outcome.error === undefined);
  await merged.end(answered);
  const refused = outcomes.filter((outcome) => outcome.error instanceof UsageError);
  // Options a verb checks itself (thresholds without --check): one line, as for one account.
  if (
    refused.length === profiles.length &&
    new Set(refused.map((outcome) => (outcome.error as UsageError).message)).size === 1
  )
    throw refused[0]!.error;
  refused.forEach((outcome) => (codes[outcomes.indexOf(outcome)] = run.report(outcome.error, outcome.profile)));
  // What the accounts handed to Output.answer, drawn together (`status`: a block per account and the total).
  const answerCode = merged.view ? await merged.view.together(outcomes, ctx) : undefined;
  // The Nagios line names each failed account in its own state: its code is the command's.
  if (answerCode !== undefined) return { code: answerCode, answered };
  return { ...endOf(outcomes, codes), answered };
}

/** A verb that changes things, or reads no account, is refused across accounts before any request. */
function refuseUnlessRead(verb: VerbSpec, invocation: Invocation, list: AccountList): void {
  if (isRead(verb, invocation)) return;
  // A verb with an endpoint (or `api`) writes; the tools (profile, completion, sandbox) read no account.
  const what = verb.route !== undefined || typeof verb.reads === 'function' ? 'changes things' : 'reads no account';
  throw new UsageError(
    `${list.source}: reads across accounts, and \`mon ${invocation.command}\` ${what}`,
    'run it once per account with -p NAME',
  );
}

/**
 * How the command ends from its accounts' failures (`codes`: the exit code each failed one
 * said): 0 when none failed; the code every account failed with alike; else exit 9, to report.
 */
function endOf(
  outcomes: readonly AccountOutcome[],
  codes: readonly number[],
): { code: number; failure?: MonError; allFailed?: true } {
  const failed = outcomes.filter((outcome) => outcome.error !== undefined);
  if (failed.length === 0) return { code: 0 };
  const failedCodes = new Set(codes.filter((code) => code !== undefined));
  // Every account failed the same way: that is the command's failure (docs/design/cli-contract.md, Exit codes).
  if (failed.length === outcomes.length && failedCodes.size === 1)
    return { code: [...failedCodes][0]!, allFailed: true };
  const failure = new AccountsFailedError(
    `${failed.length} of ${outcomes.length} accounts failed: ${failed.map((outcome) => outcome.profile).join(', ')}`,
    failed.length === outcomes.length
      ? 'each said why above'
      : "each said why above; the others' data was printed whole",
  );
  return { code: failure.exitCode, failure };
}

/** Whether a verb may span accounts: it says so, or its route is a GET. */
function isRead(verb: VerbSpec, input: ParsedInput): boolean {
  if (typeof verb.reads === 'function') return verb.reads(input);
  if (verb.reads !== undefined) return verb.reads;
  return verb.route !== undefined && routeOf(verb.route).method === 'GET';
}

/**
 * The profiles named, checked against the saved ones before any request; --all-profiles: every
 * saved profile, in the order `profile list` shows them.
 */
export async function accountNames(ctx: Context): Promise<string[]> {
  const list = ctx.globals.accounts!;
  const store = await ctx.profiles();
  const saved = Object.keys(store.list());
  const add = 'add one with `mon profile add <name> --subdomain <subdomain> --domain <service-domain>`';
  if (list.all) {
    if (saved.length === 0) throw new UsageError(`${list.source}: no profiles saved yet`, add);
    return saved;
  }
  const unknown = list.names.filter((name) => store.get(name) === undefined);
  if (unknown.length > 0) {
    throw new UsageError(
      `${list.source}: no profile named ${unknown.map((name) => quoted(name)).join(', ')} (${saved.length ? `saved: ${saved.join(', ')}` : 'none saved yet'})`,
      saved.length ? 'see `mon profile list`' : add,
    );
  }
  return list.names;
}

/** One account's share: its pages in order, held until its turn, printed with its profile first. */
interface Slot {
  firstKey: FirstKey;
  pages: (readonly Row[])[];
  done: boolean;
}

/**
 * The one real renderer and the order of the accounts. Made by the first account that renders
 * (every account renders the same verb the same way); its writes are chained, since a table's
 * renderer loads its kit asynchronously while the accounts hand over pages synchronously.
 */
class MergedOutput {
  private readonly slots: Slot[];
  private turn = 0;
  private real: Promise<ListRenderer> | undefined;
  private writes: Promise<void> = Promise.resolve();
  /** The first write that failed (a --jq filter's error): thrown by end(). */
  private failure: { error: unknown } | undefined;

  constructor(profiles: readonly string[]) {
    this.slots = profiles.map((profile) => ({
      firstKey: { key: PROFILE_KEY, value: profile },
      pages: [],
      done: false,
    }));
  }

  /** How the answers handed to Output.answer are drawn together: the first account's (every account runs the same verb alike). */
  view: AnswerView<unknown> | undefined;

  /** The Output of the account at `index`. */
  account(index: number, outcome: AccountOutcome): Output {
    const list = (opts: RenderOptions): ListRenderer => {
      if (!this.real) {
        this.real = this.open(opts);
        // Awaited by the writes and by end(); not an unhandled rejection in between.
        this.real.catch(() => undefined);
      }
      return {
        push: (items) => {
          if (items.length === 0) return;
          this.slots[index]!.pages.push(items);
          this.flush();
        },
        // An account's end is its run's end (finish), which also comes when it fails.
        end: () => undefined,
      };
    };
    return {
      list: async (opts) => list(opts),
      object: async (obj, opts) => {
        // Across accounts an object is one item per account: a row of one table, an item of one array.
        const columns =
          opts.columns.length > 0 || opts.fields ? opts.columns : Object.keys(obj).map((key) => ({ key }));
        list({ ...opts, columns }).push([obj]);
      },
      // --count: the count is an object of one key, a row of the accounts' table.
      count: async (total, opts) =>
        list({ ...opts, columns: [{ key: 'count' }], fields: undefined }).push([{ count: total }]),
      // Held until every account has finished: drawn together by the view.
      answer: async (value, view) => {
        outcome.held = value;
        this.view ??= view as AnswerView<unknown>;
      },
      addedKeys: [PROFILE_KEY],
      progress: false,
      ownStdout: false,
      // Every item gains a `profile` key: one JSON array of every account's, or ndjson lines.
      raw: async (data, opts) => {
        const items = (Array.isArray(data) ? data : [data]).map((item) =>
          item && typeof item === 'object' && !Array.isArray(item) ? (item as Row) : { value: item },
        );
        const merged = list({
          format: opts.format,
          columns: [],
          fields: opts.fields,
          header: true,
          compact: opts.compact,
          color: false,
          tty: false,
          now: opts.now,
          out: opts.out,
        });
        merged.push(items);
        merged.end();
      },
    };
  }

  /** The account at `index` has finished, well or not: the next one's turn may come. */
  finish(index: number): void {
    this.slots[index]!.done = true;
    this.flush();
  }

  /**
   * Every account has finished: the renderer ends its output (a table is printed now), when
   * `print`; otherwise what it holds is dropped (no account answered: no `[]` either).
   */
  async end(print: boolean): Promise<void> {
    this.flush();
    await this.writes;
    if (this.failure) throw this.failure.error;
    if (this.real && print) {
      const real = await this.real;
      real.end();
    }
  }

  /** Hands over what the account whose turn it is has, and moves the turn past finished accounts. */
  private flush(): void {
    while (this.turn < this.slots.length) {
      const slot = this.slots[this.turn]!;
      const pages = slot.pages.splice(0);
      if (pages.length > 0) this.write(pages, slot.firstKey);
      if (!slot.done) return;
      this.turn++;
    }
  }

  private write(pages: (readonly Row[])[], firstKey: FirstKey): void {
    const real = this.real!;
    this.writes = this.writes
      .then(async () => {
        const renderer = await real;
        // A page at a time: never one account's lines in the middle of another's page.
        for (const page of pages) renderer.push(page, firstKey);
      })
      .catch((error: unknown) => {
        this.failure ??= { error };
      });
  }

  /** The user's format, with the profile first: a PROFILE column, a `profile` key. */
  private async open(opts: RenderOptions): Promise<ListRenderer> {
    const { createListRenderer } = await import('../output/render.js');
    return createListRenderer({
      ...opts,
      columns: [{ key: PROFILE_KEY }, ...opts.columns.filter((column) => column.key !== PROFILE_KEY)],
      // --fields that name `profile` place it themselves.
      fields: opts.fields && !opts.fields.includes(PROFILE_KEY) ? [PROFILE_KEY, ...opts.fields] : opts.fields,
    });
  }
}
