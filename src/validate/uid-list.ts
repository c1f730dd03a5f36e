import { UsageError } from '../errors.js';
import type { MuteState } from '../model/plugin-result.js';

/** A plugin result uid as a path takes it: pr_ and something, no spaces or URL delimiters (api-v2.5, uid prefixes). */
const PLUGIN_RESULT_UID = /^pr_[^\s/?#]+$/;

/** The longest uid a line may name: the API's longest string column (api-v2.5, Limits). */
export const UID_MAX = 255;
/** The most uids one --from may name: a list beyond that is not a selection anyone checked. */
export const FROM_MAX_UIDS = 1_000_000;
/** The longest --from line, in bytes: an ndjson line of `mon alerts` is a few KiB. */
export const FROM_MAX_LINE_BYTES = 1 << 20;
/** The most --from reads, in bytes: a million ndjson lines of about 64 bytes. */
export const FROM_MAX_BYTES = 64 << 20;
/** The hint of every refusal of a --from line. */
export const FROM_HINT = 'give one plugin result uid (pr_…) a line, or the lines of `mon alerts -o ndjson`';

/**
 * One row of a bulk mute's output (`plugin mute … -o ndjson`): what that run did to a result
 * (`outcome`), the mute it found (`previous`, null for none) and the mute it set (`mute`).
 * `plugin unmute --from` of these rows takes back exactly that run's mutes.
 */
export interface MuteRow {
  outcome: string;
  previous: MuteState | null;
  mute: MuteState | null;
}

/** What `--from` names: the uids, and the rows of a bulk mute when the lines are those. */
export interface FromLines {
  uids: string[];
  /** By uid, when every line is a row of a bulk mute's output (it has an `outcome`). */
  rows?: Map<string, MuteRow>;
}

/**
 * The plugin result uids of `--from FILE|-`, in order, each once: one uid a line, or one JSON
 * object a line with a `uid` (what `mon alerts -o ndjson` prints), blank lines skipped. Any
 * other line is a UsageError (exit 2) before any request is sent, which describes the line (its
 * number, its length, what is wrong with it) and never quotes it: the wrong file may hold a key.
 * `name` is the input as messages name it (`stdin`, `'uids.txt'`); `maxUids` how many it may name.
 */
export function parseUidLines(text: string, name: string, maxUids = FROM_MAX_UIDS): string[] {
  return parseFromLines(text, name, maxUids).uids;
}

/**
 * parseUidLines, and the rows of a bulk mute's output when the lines are those: a line with an
 * `outcome` makes every line one (a uid alone among them, or a row without its `previous` and
 * `mute`, is exit 2; a uid on two rows takes the later).
 */
export function parseFromLines(text: string, name: string, maxUids = FROM_MAX_UIDS): FromLines {
  const uids = new Set<string>();
  const rows = new Map<string, MuteRow>();
  let plain: number | undefined;
  const lines = text.split(/\r?\n/);
  const refuse = (index: number, line: string, why: string, hint = FROM_HINT): never => {
    const length = `${line.length.toLocaleString('en')} character${line.length === 1 ? '' : 's'}`;
    throw new UsageError(`--from: line ${(index + 1).toLocaleString('en')} of ${name} (${length}) ${why}`, hint);
  };
  lines.forEach((raw, index) => {
    const line = raw.trim();
    if (line === '') return;
    const found = line.startsWith('{') ? uidOfJson(line) : checked(line, '');
    if ('why' in found) return refuse(index, line, found.why);
    const { uid, object } = found;
    if (object !== undefined && 'outcome' in object) {
      if (plain !== undefined)
        return refuse(
          index,
          line,
          `is a row of a mute's output, but line ${(plain + 1).toLocaleString('en')} is not`,
          MIXED_HINT,
        );
      const row = muteRowOf(object);
      if (typeof row === 'string') return refuse(index, line, `is a row of a mute's output whose ${row}`, MIXED_HINT);
      rows.set(uid, row);
    } else {
      plain ??= index;
      if (rows.size > 0)
        return refuse(index, line, "is not a row of a mute's output, as the lines before it are", MIXED_HINT);
    }
    uids.add(uid);
    if (uids.size > maxUids) {
      throw new UsageError(
        `--from: ${name} names more than ${maxUids.toLocaleString('en')} plugin results, the most one run takes; stopped at line ${(index + 1).toLocaleString('en')}`,
        'split the list and run once per part',
      );
    }
  });
  return rows.size > 0 ? { uids: [...uids], rows } : { uids: [...uids] };
}

const MIXED_HINT = 'give the lines a bulk mute printed with -o ndjson, unchanged, or plugin result uids alone';

/** A row of a bulk mute's output, or which of its keys is wrong. */
function muteRowOf(object: Record<string, unknown>): MuteRow | string {
  const { outcome, previous, mute } = object;
  if (typeof outcome !== 'string') return '"outcome" is not a string';
  const before = muteStateOf(previous);
  if (before === undefined) return '"previous" is not a mute (null, or an object with a "mute_type")';
  const after = muteStateOf(mute);
  if (after === undefined) return '"mute" is not a mute (null, or an object with a "mute_type")';
  return { outcome, previous: before, mute: after };
}

/** A mute state as a row holds it, or undefined when it is not one. */
function muteStateOf(value: unknown): MuteState | null | undefined {
  if (value === null) return null;
  if (typeof value !== 'object' || Array.isArray(value) || value === undefined) return undefined;
  const { mute_type, mute_until, ticket_number, ticket_url } = value as Record<string, unknown>;
  if (typeof mute_type !== 'string' || mute_type === '') return undefined;
  if (mute_until !== undefined && !(typeof mute_until === 'number' && Number.isSafeInteger(mute_until)))
    return undefined;
  if (ticket_number !== undefined && typeof ticket_number !== 'string') return undefined;
  if (ticket_url !== undefined && typeof ticket_url !== 'string') return undefined;
  return {
    mute_type,
    ...(mute_until === undefined ? {} : { mute_until }),
    ...(ticket_number === undefined ? {} : { ticket_number }),
    ...(ticket_url === undefined ? {} : { ticket_url }),
  };
}

/** `uid` when it is a plugin result uid, else what keeps it from being one, after `say`. */
function checked(
  uid: string,
  say: string,
  object?: Record<string, unknown>,
): { uid: string; object?: Record<string, unknown> } | { why: string } {
  const why = whyNotUid(uid);
  return why === undefined ? { uid, object } : { why: `${say}${why}` };
}

/** What keeps `uid` from being a plugin result uid, in words; undefined when it is one. */
function whyNotUid(uid: string): string | undefined {
  if (!uid.startsWith('pr_')) return 'does not start with pr_';
  if (uid.length > UID_MAX) return `is longer than the ${UID_MAX} characters a uid may be`;
  if (!PLUGIN_RESULT_UID.test(uid))
    return uid === 'pr_' ? 'has nothing after pr_' : "holds white space, '/', '?' or '#'";
  return undefined;
}

/** The uid of an ndjson line and the line's object, or why there is none. */
function uidOfJson(line: string): { uid: string; object?: Record<string, unknown> } | { why: string } {
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch {
    return { why: 'starts like JSON but does not parse' };
  }
  // A line that starts with '{' and parses is an object.
  const uid = (value as { uid?: unknown }).uid;
  if (typeof uid === 'string') return checked(uid, 'is a JSON object whose "uid" ', value as Record<string, unknown>);
  return {
    why: uid === undefined ? 'is a JSON object without a "uid"' : 'is a JSON object whose "uid" is not a string',
  };
}
