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
  /** YYYY-MM-DD; with epoch, also a day that 32-bit epoch seconds hold (1970-01-01..2038-01-19). */
  | { type: 'date'; epoch?: boolean }
  | { type: 'uid'; prefix: string; max?: number }
  | { type: 'int'; min: number; max?: number }
  | { type: 'url'; max?: number }
  | { type: 'when' }
  /** A time in the past: a duration back from now (2h, 7d), an ISO 8601 time or epoch seconds. */
  | { type: 'since' }
  /** A length of time (30d, 2w, 12h), in seconds. */
  | { type: 'duration' }
  /** A threshold range of the Nagios plugin guidelines (10, 10:, ~:10, 10:20, @10:20). */
  | { type: 'range' };

/**
 * What an option or argument names, resolved before the verb runs (src/resolve): a computer
 * by client id or c_ uid, sent as its uid ('computer') or its client id ('client-id'); a
 * group, expiration manufacturer or product by uid, slug or exact name, sent as its uid.
 */
export type ResolveKind = 'computer' | 'client-id' | 'group' | 'manufacturer' | 'product';

export interface OptionSpec {
  /** commander syntax: '-s, --status <status>', '--all', '--platform <platform>' */
  flags: string;
  description: string;
  choices?: readonly string[];
  rule?: Rule;
  /** May be given more than once; the value is an array. */
  repeatable?: boolean;
  /** Adds --no-<name> beside a boolean flag; the value is true, false or undefined. */
  negatable?: boolean;
  /** Shown in help as the default; the value itself is applied by the handler. */
  defaultText?: string;
  /** The option's value may be left out ('--timed [when]'). */
  optionalValue?: boolean;
  /** Names a computer, group, manufacturer or product: looked up into what the API needs. */
  resolve?: ResolveKind;
}

export interface ArgSpec {
  name: string;
  description: string;
  rule?: Rule;
  optional?: boolean;
  /** Takes the rest of the words (`api -F` takes none; kept for completeness). */
  variadic?: boolean;
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
}

export interface Invocation {
  args: Record<string, string | undefined>;
  /** Option values by commander's camelCase key; repeatable options are arrays. */
  opts: Record<string, unknown>;
  /** Extra words after the declared arguments (only with a variadic arg). */
  rest: string[];
}

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
  /** The endpoint this verb stands for (cli-contract.md: every endpoint has exactly one command). */
  route?: RouteName;
  /** Adds --page, --per-page, --offset, --all, --limit and --count. */
  list?: boolean;
  /** Keys that --fields accepts for this verb's output. */
  fields?: readonly string[];
  /** Full command lines, each shown as `$ mon …` in help. At least one. */
  examples: readonly string[];
  /** Runs when the resource is named without a verb (`mon sandbox`). */
  isDefault?: boolean;
  /** Left out of help and completions (`mon __complete`, which completion scripts run). */
  hidden?: boolean;
  run(input: Invocation, ctx: Context): Promise<void>;
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

/** The pagination options every list shares (cli-contract.md, Global options). */
export const PAGING_OPTIONS: readonly OptionSpec[] = [
  { flags: '--page <n>', description: 'page to fetch (default 1)', rule: { type: 'int', min: 1 } },
  { flags: '--per-page <n>', description: 'items per page, 1..100 (default 50; 100 with --all)', rule: { type: 'int', min: 1, max: 100 } },
  { flags: '--offset <n>', description: 'skip this many records (offset 5 starts at record 6)', rule: { type: 'int', min: 0 } },
  { flags: '--all', description: 'follow the pagination headers to the last page' },
  { flags: '--limit <n>', description: 'print at most n items, fetching further pages as needed', rule: { type: 'int', min: 1 } },
  { flags: '--count', description: 'print only the total number of records (x-total)' },
];

/** The options a verb really has: its own, then the paging ones for lists. */
export function optionsOf(verb: VerbSpec): readonly OptionSpec[] {
  return verb.list ? [...(verb.options ?? []), ...PAGING_OPTIONS] : (verb.options ?? []);
}

/** Whether a verb has anything for src/validate to check: rules, choices or constraints. */
export function hasChecks(verb: VerbSpec): boolean {
  return (
    verb.constraints !== undefined ||
    (verb.args ?? []).some((arg) => arg.rule !== undefined) ||
    optionsOf(verb).some((option) => option.rule !== undefined || option.choices !== undefined)
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
