import { UsageError } from '../errors.js';
import {
  KIND_PREFIX,
  PAGING_CONFLICTS,
  optionKey,
  optionLabel,
  optionsOf,
  type OptionSpec,
  type ParsedInput,
  type ResolveKind,
  type Rule,
  type VerbSpec,
} from '../spec/spec.js';
import { UID_KINDS, article, schemaFor } from './rules.js';
import { quoted } from '../text/escape.js';
import { parseChoice } from './choice.js';

/**
 * Checks every argument and option of a verb against its rules, choices and constraints
 * before anything is sent, and returns the values converted for the API (numbers, epoch
 * seconds). The first problem becomes a UsageError naming the option and the rule (exit 2).
 */
export function checkInput(verb: VerbSpec, input: ParsedInput, nowMs: number): ParsedInput {
  const args = { ...input.args };
  const opts: Record<string, unknown> = { ...input.opts };

  for (const arg of verb.args ?? []) {
    const value = args[arg.name];
    if (value !== undefined && arg.rule) args[arg.name] = check(`<${arg.name}>`, value, arg.rule, nowMs) as string;
    if (value !== undefined && arg.resolve) notAnotherKind(arg.resolve, value, `<${arg.name}>`);
  }
  for (const spec of optionsOf(verb)) {
    const key = optionKey(spec);
    const value = opts[key];
    if (value === undefined || typeof value === 'boolean') continue;
    // A repeatable option also takes a comma-separated list (--platform mac,linux), as users type it.
    const values = Array.isArray(value)
      ? value.flatMap((one: string) => (spec.choices ? one.split(',').map((part) => part.trim()) : [one]))
      : undefined;
    opts[key] = values
      ? values.map((one: string) => checkOne(spec, one, nowMs))
      : checkOne(spec, value as string, nowMs);
    const kind = spec.resolve ?? spec.names;
    if (kind) for (const one of values ?? [value as string]) notAnotherKind(kind, one, optionLabel(spec));
  }
  checkConstraints(verb, opts);
  if (verb.partial && optionsOf(verb).every((spec) => opts[optionKey(spec)] === undefined))
    throw nothingToUpdate(verb, input.command);
  return { ...input, args, opts };
}

function checkOne(spec: OptionSpec, value: string, nowMs: number): unknown {
  const label = optionLabel(spec);
  const chosen = spec.choices ? parseChoice(label, value, spec.choices) : value;
  return spec.rule ? check(label, chosen, spec.rule, nowMs) : chosen;
}

function check(label: string, value: string, rule: Rule, nowMs: number): unknown {
  const result = schemaFor(rule, nowMs).safeParse(value);
  if (result.success) return result.data;
  throw new UsageError(`${label}: ${result.error.issues[0]?.message ?? 'invalid value'}`);
}

function checkConstraints(verb: VerbSpec, opts: Record<string, unknown>): void {
  const labelOf = (key: string) => {
    const spec = optionsOf(verb).find((option) => optionKey(option) === key);
    return spec ? optionLabel(spec) : `--${key}`;
  };
  const given = (keys: readonly string[]) => keys.filter((key) => opts[key] !== undefined && opts[key] !== false);
  const names = (keys: readonly string[]) => keys.map(labelOf).join(keys.length === 2 ? ' and ' : ', ');
  const { exactlyOne = [], atMostOne = [], together = [] } = verb.constraints ?? {};
  for (const keys of exactlyOne) {
    const present = given(keys);
    if (present.length === 0) {
      // a one-key group is how a verb marks an option as required
      throw new UsageError(
        keys.length === 1 ? `${names(keys)} is required` : `give one of ${names(keys).replace(' and ', ' or ')}`,
      );
    }
    if (present.length > 1) throw new UsageError(`give only one of ${names(present)}`);
  }
  for (const keys of atMostOne) {
    const present = given(keys);
    if (present.length > 1) throw new UsageError(`${names(present)} cannot be used together`);
  }
  for (const { keys, hint } of verb.list ? PAGING_CONFLICTS : []) {
    if (given(keys).length === 2) throw new UsageError(`${names(keys)} cannot be used together`, hint);
  }
  for (const keys of together) {
    const present = given(keys);
    if (present.length > 0 && present.length < keys.length)
      throw new UsageError(`${names(keys)} go together: give both`);
  }
  for (const [first, second] of verb.constraints?.ordered ?? []) {
    const [a, b] = [opts[first], opts[second]];
    if (a !== undefined && b !== undefined && (a as number) > (b as number))
      throw new UsageError(`${labelOf(first)}: must not be after ${labelOf(second)}`);
  }
}

/** The error of an update given no option: it names them, up to seven; more, and it points to help. */
function nothingToUpdate(verb: VerbSpec, command: string): UsageError {
  const options = optionsOf(verb);
  if (options.length > 7)
    return new UsageError(
      'nothing to update: give at least one attribute option',
      `\`mon ${command} --help\` lists them`,
    );
  const labels = options.map((spec) =>
    spec.negatable ? optionLabel(spec).replace(/^--/, '--[no-]') : optionLabel(spec),
  );
  return new UsageError(`nothing to update: give ${labels.slice(0, -1).join(', ')} or ${labels.at(-1)}`);
}

/**
 * A value with the uid prefix of another kind ('g_1' for a computer, 'c_1' for a group) is a
 * mistake, not a name: exit 2 before anything is sent, in the endpoint commands and the fleet
 * selectors alike.
 */
function notAnotherKind(kind: ResolveKind, value: string, label: string): void {
  // As in a path (src/api/endpoints.ts, fillPath): '.' and '..' would name the folder or its parent.
  if (value === '.' || value === '..') throw new UsageError(`${label}: ${quoted(value)} cannot name an item`);
  const own = KIND_PREFIX[kind];
  // em_ and ep_ both start with e_: the longest prefix that matches is the one meant.
  const prefix = Object.keys(UID_KINDS)
    .filter((p) => value.startsWith(p))
    .sort((x, y) => y.length - x.length)[0];
  const wanted = UID_KINDS[own]!;
  if (prefix === own && /[\s/?#]/.test(value))
    throw new UsageError(`${label}: ${quoted(value)} is not ${article(wanted)} ${wanted} uid (they start with ${own})`);
  if (prefix === undefined || prefix === own) return;
  const ways = own === 'c_' ? 'client id or c_ uid' : `uid (${own}…), slug or name`;
  throw new UsageError(
    `${label}: ${quoted(value)} is ${article(UID_KINDS[prefix]!)} ${UID_KINDS[prefix]} uid, not ${article(wanted)} ${wanted}`,
    `give the ${wanted}'s ${ways}`,
  );
}
