import { UsageError } from '../errors.js';

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
 * The plugin result uids of `--from FILE|-`, in order, each once: one uid a line, or one JSON
 * object a line with a `uid` (what `mon alerts -o ndjson` prints), blank lines skipped. Any
 * other line is a UsageError (exit 2) before any request is sent, which describes the line (its
 * number, its length, what is wrong with it) and never quotes it: the wrong file may hold a key.
 * `name` is the input as messages name it (`stdin`, `'uids.txt'`); `maxUids` how many it may name.
 */
export function parseUidLines(text: string, name: string, maxUids = FROM_MAX_UIDS): string[] {
  const uids = new Set<string>();
  const lines = text.split(/\r?\n/);
  lines.forEach((raw, index) => {
    const line = raw.trim();
    if (line === '') return;
    const uid = line.startsWith('{') ? uidOfJson(line) : checked(line, '');
    if (typeof uid !== 'string') {
      const length = `${line.length.toLocaleString('en')} character${line.length === 1 ? '' : 's'}`;
      throw new UsageError(`--from: line ${(index + 1).toLocaleString('en')} of ${name} (${length}) ${uid.why}`, FROM_HINT);
    }
    uids.add(uid);
    if (uids.size > maxUids) {
      throw new UsageError(`--from: ${name} names more than ${maxUids.toLocaleString('en')} plugin results, the most one run takes; stopped at line ${(index + 1).toLocaleString('en')}`, 'split the list and run once per part');
    }
  });
  return [...uids];
}

/** `uid` when it is a plugin result uid, else what keeps it from being one, after `say`. */
function checked(uid: string, say: string): string | { why: string } {
  const why = whyNotUid(uid);
  return why === undefined ? uid : { why: `${say}${why}` };
}

/** What keeps `uid` from being a plugin result uid, in words; undefined when it is one. */
function whyNotUid(uid: string): string | undefined {
  if (!uid.startsWith('pr_')) return 'does not start with pr_';
  if (uid.length > UID_MAX) return `is longer than the ${UID_MAX} characters a uid may be`;
  if (!PLUGIN_RESULT_UID.test(uid)) return uid === 'pr_' ? 'has nothing after pr_' : "holds white space, '/', '?' or '#'";
  return undefined;
}

/** The uid of an ndjson line, or why there is none. */
function uidOfJson(line: string): string | { why: string } {
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch {
    return { why: 'starts like JSON but does not parse' };
  }
  // A line that starts with '{' and parses is an object.
  const uid = (value as { uid?: unknown }).uid;
  if (typeof uid === 'string') return checked(uid, 'is a JSON object whose "uid" ');
  return { why: uid === undefined ? 'is a JSON object without a "uid"' : 'is a JSON object whose "uid" is not a string' };
}
