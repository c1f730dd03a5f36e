import type { Attributes } from '../api/encode.js';
import type { RouteName } from '../api/endpoints.js';
import type { Context } from '../context.js';

/**
 * Commands are declared as data (house-style, "Declare, then generate"): each resource lists
 * its verbs, each verb its arguments, options, rules and examples. define.ts turns the specs
 * into the commander tree; help, completions and the README reference come from that tree.
 */

/** A check on one value, run before any request (src/validate/rules.ts). */
export type Rule =
  | { type: 'text'; max: number; nonEmpty?: boolean }
  | { type: 'email'; max: number }
  /** YYYY-MM-DD; with `epoch`, sent as epoch seconds of that UTC day's first or last second. */
  | { type: 'date'; epoch?: 'start' | 'end' }
  | { type: 'uid'; prefix: string; max?: number }
  | { type: 'int'; min: number; max?: number }
  | { type: 'url'; max?: number }
  | { type: 'when' }
  /** A time in the past: a duration back from now (2h, 7d), an ISO 8601 time or epoch seconds. */
  | { type: 'since' }
  /** A length of time (30d, 2w, 12h), in seconds. */
  | { type: 'duration' }
  /** A threshold range of the Nagios plugin guidelines (10, 10:, ~:10, 10:20, @10:20). */
  | { type: 'range' }
  /** A name of the given form; `says` describes the form in the error. */
  | { type: 'name'; pattern: RegExp; says: string }
  /** A request rate N/S: N requests per S seconds (`mon sandbox --rate-limit 4000/60`). */
  | { type: 'rate' };

/**
 * What an option or argument names, resolved before the verb runs (src/resolve): a computer
 * by client id or c_ uid, sent as its uid ('computer') or its client id ('client-id'); a
 * group, expiration manufacturer or product by uid, slug or exact name, sent as its uid.
 */
export type ResolveKind = 'computer' | 'client-id' | 'group' | 'manufacturer' | 'product';

/** The uid prefix of each kind (api-v2.5, uid prefixes): a value with it is taken for a uid. */
export const KIND_PREFIX: Record<ResolveKind, string> = {
  computer: 'c_',
  'client-id': 'c_',
  group: 'g_',
  manufacturer: 'em_',
  product: 'ep_',
};

export interface OptionSpec {
  /** commander syntax: '-s, --status <status>', '--all', '--platform <platform>' */
  flags: string;
  description: string;
  choices?: readonly string[];
  rule?: Rule;
  /** May be given more than once; the value is an array. Any other option with a value given twice is refused (exit 2). */
  repeatable?: boolean;
  /** The hint when an option that is not repeatable is given twice: where several are taken. */
  once?: string;
  /** Adds --no-<name> beside a boolean flag; the value is true, false or undefined. */
  negatable?: boolean;
  /** Shown in help as the default; the value itself is applied by the handler. */
  defaultText?: string;
  /** The option's value may be left out ('--timed [when]'). */
  optionalValue?: boolean;
  /** Names a computer, group, manufacturer or product: looked up into what the API needs. */
  resolve?: ResolveKind;
  /**
   * Names an item of this kind that the verb looks up itself (the fleet selectors, src/fleet):
   * as with `resolve`, a uid of another kind ('c_1' for a group) is exit 2 when the input is checked.
   */
  names?: ResolveKind;
  /**
   * The API parameter the value is sent as: a query key of a read ('group_id') or an attribute
   * of a write's resource body ('custom_name' of computer[custom_name]). Options without one
   * are mon's own. apiParams() (src/spec/params.ts) builds the query or attributes from these.
   */
  param?: string;
}

export interface ArgSpec {
  name: string;
  description: string;
  rule?: Rule;
  optional?: boolean;
  /** Takes the rest of the words (`api -F` takes none; kept for completeness). */
  variadic?: boolean;
  /**
   * May be left out (`mon api /groups` is a GET): with a word fewer than the arguments, and the
   * word in its place not one it could be (`accepts`), it takes `value` and the words move along.
   */
  omittable?: { value: string; accepts: RegExp };
  /** Names a computer, group, manufacturer or product (see OptionSpec.resolve). */
  resolve?: ResolveKind;
}

/** Option keys (commander's camelCase names) that must appear together or alone. */
export interface Constraints {
  /** Exactly one of these must be given. */
  exactlyOne?: readonly (readonly string[])[];
  /** At most one of these may be given. */
  atMostOne?: readonly (readonly string[])[];
  /** Either all or none of these. */
  together?: readonly (readonly string[])[];
  /** When both are given, the first must not be after the second (a start and an end). */
  ordered?: readonly (readonly [string, string])[];
}

export interface Invocation<Opts = Record<string, unknown>> {
  /** The command as typed without `mon` and aliases resolved: 'expirations update'. */
  command: string;
  args: Record<string, string | undefined>;
  /** Option values by commander's camelCase key, converted by their rules (see {@link OptionValues}). */
  opts: Opts;
  /**
   * Every option that declares an API parameter, by that parameter, in the order the options
   * are declared; undefined where not given (src/spec/params.ts).
   */
  params: Attributes;
  /** Extra words after the declared arguments (only with a variadic arg). */
  rest: string[];
}

/**
 * How a verb's run ends when it has printed its whole answer: nothing (exit 0), or the exit code
 * its answer carries without being a failure (`status --check`: 1 WARNING, 2 CRITICAL). A
 * failure is thrown, and main() maps it to its exit code.
 */
export type VerbOutcome = number | void;

/** A command line as commander parsed it, before its values are checked and its parameters built. */
export type ParsedInput = Omit<Invocation, 'params'>;

export interface VerbSpec {
  name: string;
  aliases?: readonly string[];
  /** One line, shown in lists of commands. */
  summary: string;
  /** Further paragraphs for --help. */
  description?: string;
  args?: readonly ArgSpec[];
  options?: readonly OptionSpec[];
  constraints?: Constraints;
  /** Changes only the attributes given: without any option, 'nothing to update' (exit 2) before anything is sent. */
  partial?: boolean;
  /** The endpoint this verb stands for (docs/design/cli-contract.md: every endpoint has exactly one command). */
  route?: RouteName;
  /** Adds --page, --per-page, --offset, --all, --limit and --count, and --changes with --reset. */
  list?: boolean;
  /** Keys that --fields accepts for this verb's output. */
  fields?: readonly string[];
  /** Full command lines, each shown as `$ mon …` in help. At least one. */
  examples: readonly string[];
  /** Runs when the resource is named without a verb (`mon sandbox`). */
  isDefault?: boolean;
  /** False for a verb that prints no JSON whatever -o says (a delete, `profile add`): --jq is refused. */
  jsonOutput?: false;
  /** Prints one JSON object per line as things happen, whatever -o json|ndjson says: --jq runs on each. */
  jsonLines?: true;
  /** The verb prints `-o openmetrics` (`status`); every other verb refuses it. */
  openMetrics?: true;
  /**
   * Whether the verb only reads, so that it may span accounts (--profiles, --all-profiles):
   * by default, when its route is a GET; a verb without a route says so itself.
   */
  reads?: boolean | ((input: ParsedInput) => boolean);
  /** Left out of help and completions (`mon __complete`, which completion scripts run). */
  hidden?: boolean;
  /** Runs until it is stopped (`sandbox serve`, a server in the foreground): MON_DEADLINE does not end it. */
  untilStopped?: true;
  /**
   * Writes --output-file itself (`events listen`: each event appended and synced before its
   * delivery is answered, and the file read back on start), instead of stdout going there.
   */
  writesOutputFile?: true;
  /** Reads the accounts of --profiles/--all-profiles itself, in one run (`metrics serve`), instead of once per account. */
  spansAccounts?: true;
  run(input: Invocation, ctx: Context): Promise<VerbOutcome>;
}

export interface ResourceSpec {
  name: string;
  /** Its verbs read the whole command tree (the completion scripts): a command line naming it gets every verb. */
  wholeTree?: boolean;
  examples?: readonly string[];
  aliases?: readonly string[];
  summary: string;
  verbs: readonly VerbSpec[];
}

/** The pagination options every list shares (docs/design/cli-contract.md, Global options). */
export const PAGING_OPTIONS = [
  { flags: '--page <n>', description: 'page to fetch (default 1)', rule: { type: 'int', min: 1 } },
  {
    flags: '--per-page <n>',
    description: 'items per page, 1..100 (default 50; 100 with --all)',
    rule: { type: 'int', min: 1, max: 100 },
  },
  {
    flags: '--offset <n>',
    description: 'skip this many records (offset 5 starts at record 6)',
    rule: { type: 'int', min: 0 },
  },
  { flags: '--all', description: 'follow the pagination headers to the last page' },
  {
    flags: '--limit <n>',
    description: 'print at most n items, fetching further pages as needed',
    rule: { type: 'int', min: 1 },
  },
  { flags: '--count', description: 'print only the total number of records (x-total)' },
] as const satisfies readonly OptionSpec[];

/**
 * `--all` and `--count` of a list that mon reads whole itself (alerts, plugin list, profile
 * list, changes list), so that they take what every paged list takes.
 */
export const WHOLE_LIST_OPTIONS = [
  { flags: '--all', description: 'every item (this list is always read whole)' },
  { flags: '--count', description: 'print only the number of items' },
] as const satisfies readonly OptionSpec[];

/**
 * `--changes NAME` and its `--reset`, on every list and on `mon alerts` (docs/design/cli-contract.md, Fleet
 * commands): only what is new, gone or changed since the last good run with NAME (src/changes).
 */
export const CHANGES_OPTIONS = [
  {
    flags: '--changes <name>',
    description:
      'print only what is new, gone or changed since the last run with this NAME (the first run records a baseline and prints nothing); reads every page',
    rule: { type: 'text', max: 64, nonEmpty: true },
  },
  { flags: '--reset', description: 'with --changes: forget the saved state of NAME and record a new baseline' },
] as const satisfies readonly OptionSpec[];

/** Paging options that contradict each other, refused before sending (exit 2) with the reason. */
export const PAGING_CONFLICTS: readonly { keys: readonly [string, string]; hint: string }[] = [
  { keys: ['all', 'page'], hint: '--all reads every page from the first; drop --page (or start later with --offset)' },
  { keys: ['all', 'limit'], hint: '--all prints every record, --limit at most n; keep one' },
  { keys: ['page', 'offset'], hint: 'both say where the list starts; keep one' },
  ...(['all', 'page', 'offset', 'limit'] as const).map((key) => ({
    keys: ['count', key] as const,
    hint: `--count prints only the number of records; drop --${key}`,
  })),
  // The differences need the whole list: --changes reads every page, as --all does.
  ...(['page', 'offset', 'limit', 'count'] as const).map((key) => ({
    keys: ['changes', key] as const,
    hint: `--changes compares the whole list, every page; drop --${key}`,
  })),
];

/** The options a verb really has: its own, then the paging ones and --changes for lists. */
export function optionsOf(verb: VerbSpec): readonly OptionSpec[] {
  return verb.list ? [...(verb.options ?? []), ...PAGING_OPTIONS, ...CHANGES_OPTIONS] : (verb.options ?? []);
}

/** Whether a verb has anything for src/validate to check: rules, choices or constraints. */
export function hasChecks(verb: VerbSpec): boolean {
  return (
    verb.constraints !== undefined ||
    verb.partial === true ||
    (verb.args ?? []).some((arg) => arg.rule !== undefined || arg.resolve !== undefined) ||
    optionsOf(verb).some(
      (option) =>
        option.rule !== undefined ||
        option.choices !== undefined ||
        option.resolve !== undefined ||
        option.names !== undefined,
    )
  );
}

/** Whether a verb names a computer, group, manufacturer or product that src/resolve looks up. */
export function needsResolving(verb: VerbSpec): boolean {
  return [...(verb.args ?? []), ...(verb.options ?? [])].some((item) => item.resolve !== undefined);
}

/** A top-level entry: a resource with verbs, or a command of its own (`api`, `completion`). */
export type CommandSpec = ResourceSpec | VerbSpec;

export function isResource(spec: CommandSpec): spec is ResourceSpec {
  return 'verbs' in spec;
}

/** The long flag of an option, as users type it: '--custom-name'. */
export function optionLabel(spec: OptionSpec): string {
  return /--[\w-]+/.exec(spec.flags)?.[0] ?? spec.flags;
}

/** The key commander stores an option under: '--custom-name' -> 'customName'. */
export function optionKey(spec: OptionSpec): string {
  return optionLabel(spec)
    .slice(2)
    .replace(/-(\w)/g, (_, c: string) => c.toUpperCase());
}

/*
 * Typed option values, read from the declarations themselves: '--created-after <date>' is
 * `createdAfter?: string`, an int rule or a date sent as epoch makes it a number, a repeatable
 * option an array, a flag without a value a boolean. Handlers declared with {@link verb} get
 * them, so no handler casts what commander parsed.
 */

/** 'created-after' of '-c, --created-after <date>'. */
type LongName<F extends string> = F extends `${string}--${infer Rest}`
  ? Rest extends `${infer Name} ${string}`
    ? Name
    : Rest
  : never;
/** 'created-after' -> 'createdAfter', as commander names the key. */
type Camel<S extends string> = S extends `${infer Head}-${infer Tail}` ? `${Head}${Capitalize<Camel<Tail>>}` : S;
/** A threshold range as the `range` rule reads it (src/validate/range.ts). */
export interface Range {
  /** The text as given: perfdata repeats it. */
  text: string;
  start: number;
  end: number;
  /** `@`: alert inside the range instead of outside. */
  inside: boolean;
}

/** A request rate as the `rate` rule reads it. */
export interface Rate {
  requests: number;
  windowMs: number;
}

/** What a rule turns the typed text into (src/validate/rules.ts). */
type Checked<R> = R extends { type: 'int' | 'when' | 'since' | 'duration' }
  ? number
  : R extends { type: 'date'; epoch: 'start' | 'end' }
    ? number
    : R extends { type: 'range' }
      ? Range
      : R extends { type: 'rate' }
        ? Rate
        : string;
type ValueOf<O extends OptionSpec> = O['flags'] extends `${string}[${string}]`
  ? Checked<O['rule']> | true
  : O['flags'] extends `${string}<${string}>`
    ? O extends { repeatable: true }
      ? Checked<O['rule']>[]
      : Checked<O['rule']>
    : boolean;

/** The parsed values of a list of option specs, by commander's key; each may be absent. */
export type OptionValues<O extends readonly OptionSpec[]> = {
  [S in O[number] as Camel<LongName<S['flags']>>]?: ValueOf<S>;
};

/** The values of {@link CHANGES_OPTIONS}. */
export type ChangesValues = OptionValues<typeof CHANGES_OPTIONS>;

/** The values of {@link PAGING_OPTIONS} and {@link CHANGES_OPTIONS}, which every list verb has. */
export type PagingValues = OptionValues<typeof PAGING_OPTIONS> & ChangesValues;

/** A verb as written in a resource file: its handler sees the values of its own options, typed. */
export interface VerbDefinition<O extends readonly OptionSpec[], L extends boolean>
  extends Omit<VerbSpec, 'options' | 'list' | 'run'> {
  options?: O;
  list?: L;
  run(
    input: Invocation<OptionValues<O> & (L extends true ? PagingValues : unknown)>,
    ctx: Context,
  ): Promise<VerbOutcome>;
}

/** Declares a verb with typed option values (the spec itself is returned unchanged). */
export function verb<const O extends readonly OptionSpec[] = readonly [], const L extends boolean = false>(
  definition: VerbDefinition<O, L>,
): VerbSpec {
  // The runner hands in what checkInput made of exactly these options: the type is the declarations'.
  return definition as unknown as VerbSpec;
}
