/**
 * The one place that makes untrusted text (a server's names and error titles, a value the user
 * typed) safe for a terminal: control characters (C0, DEL, C1: escape sequences that set a
 * window title, clear the screen or move the cursor), line and paragraph separators and the
 * bidirectional overrides that can make text read other than it is are shown as visible
 * escapes (`\e`, `\r`, `\n`, `\t`, `\x07`, `\u202e`), so one line stays one line and nothing
 * is acted on. A backslash is left as it is. JSON output keeps exactly what the API sent, with
 * JSON's own escapes, those of C1 and the separators too (jsonSafe): the same value.
 */

import { utf8Bytes } from './utf8.js';

// Keep in sync with the escapes below: C0, DEL, C1, U+2028/2029, bidi embeddings/overrides/isolates.
const UNSAFE = /[\u0000-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;

const NAMED: Record<string, string> = { '\n': '\\n', '\r': '\\r', '\t': '\\t', '\u001b': '\\e' };

function escapeOne(char: string): string {
  const named = NAMED[char];
  if (named) return named;
  const code = char.charCodeAt(0);
  return code < 0x100 ? `\\x${code.toString(16).padStart(2, '0')}` : `\\u${code.toString(16).padStart(4, '0')}`;
}

/**
 * `text` with every character that a terminal would act on shown escaped. `keep` names
 * characters the caller handles itself (a table cell folds its line breaks; csv quotes them).
 */
export function terminalSafe(text: string, keep = ''): string {
  return text.replace(UNSAFE, (char) => (keep.includes(char) ? char : escapeOne(char)));
}

/** What JSON.stringify leaves raw of UNSAFE (it escapes C0 itself): DEL, C1, separators, bidi. */
const UNSAFE_IN_JSON = /[\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;

/**
 * JSON text with the characters of UNSAFE that JSON.stringify leaves raw written as `\uXXXX`
 * escapes: the same JSON value, and nothing a terminal acts on when it is printed (a C1 CSI,
 * 0x9b, is an escape sequence to some terminals). Only strings can hold them, so this is exact.
 */
export function jsonSafe(json: string): string {
  return holdsUnsafe(json)
    ? json.replace(UNSAFE_IN_JSON, (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`)
    : json;
}

/** JSON at least this long is looked through as UTF-8 bytes (see holdsUnsafe). */
const BYTES_FROM = 16 * 1024;
/** How many lead bytes C2 and E2 holdsUnsafe looks behind before it leaves the answer to the regex. */
const LEADS_AT_MOST = 256;

/**
 * Whether `json` holds a character of UNSAFE_IN_JSON. The regex costs about 16 instructions a
 * character (a page of 50 computers, 145 KB: over 2 M on Node 22 and 24). Long text is
 * looked at as its UTF-8 bytes instead (utf8Bytes), where each of those characters starts with a
 * byte that memchr finds at once: DEL is 7F, C1 is C2 80..9F, U+2028..202E are E2 80 A8..AE and
 * U+2066..2069 are E2 81 A6..A9. Only the C2 and E2 found are looked behind (other characters
 * start so: ©, ’, €); past LEADS_AT_MOST of them, or for text transcode refuses, the regex answers.
 */
function holdsUnsafe(json: string): boolean {
  const bytes = json.length >= BYTES_FROM ? utf8Bytes(json) : undefined;
  if (bytes === undefined) return regexFinds(json);
  if (bytes.includes(0x7f)) return true;
  let leads = 0;
  for (let at = bytes.indexOf(0xc2); at !== -1; at = bytes.indexOf(0xc2, at + 1)) {
    if (++leads > LEADS_AT_MOST) return regexFinds(json);
    if (bytes[at + 1]! <= 0x9f) return true;
  }
  for (let at = bytes.indexOf(0xe2); at !== -1; at = bytes.indexOf(0xe2, at + 1)) {
    if (++leads > LEADS_AT_MOST) return regexFinds(json);
    const second = bytes[at + 1]!;
    const third = bytes[at + 2]!;
    if ((second === 0x80 && third >= 0xa8 && third <= 0xae) || (second === 0x81 && third >= 0xa6 && third <= 0xa9))
      return true;
  }
  return false;
}

function regexFinds(json: string): boolean {
  UNSAFE_IN_JSON.lastIndex = 0;
  return UNSAFE_IN_JSON.test(json);
}

/** The most characters of a value a message quotes whole; a longer one is cut (see {@link quoted}). */
export const QUOTE_MAX = 80;
/** How many characters of a cut value a message keeps. */
const QUOTE_HEAD = 32;

/** The first characters of a value that is cut, never half a surrogate pair. */
function head(value: string): string {
  return value.slice(0, /[\uD800-\uDBFF]/.test(value[QUOTE_HEAD - 1]!) ? QUOTE_HEAD - 1 : QUOTE_HEAD);
}

/** How a cut value ends: its whole length. */
function length(value: string): string {
  return `(${value.length.toLocaleString('en')} characters)`;
}

/**
 * A value as a message quotes it: `'acme'`, or, when it is longer than `max` characters, its
 * first characters and its length (`'pr_aaaaaaaa…' (60,000,000 characters)`), so that a 60 MB
 * token or a server's page of text never comes back whole on one line. Every error and notice
 * that echoes what the user typed or a server sent quotes it with this.
 */
export function quoted(value: string, max = QUOTE_MAX): string {
  return value.length <= max ? `'${value}'` : `'${head(value)}…' ${length(value)}`;
}

/**
 * {@link quoted} without the quotes: for a value a message shows bare (a server's error title).
 * `clean` (the key's redaction) runs before the cut, never after it: a cut could leave a piece of
 * a key too short to be known. It runs over the part that is kept and a margin, so a 1 MB title
 * costs what a short one does.
 */
export function shortened(value: string, max = QUOTE_MAX, clean: (text: string) => string = (text) => text): string {
  return value.length <= max ? clean(value) : `${head(clean(value.slice(0, QUOTE_HEAD + max)))}… ${length(value)}`;
}

/** The longest run without white space a line on stderr shows whole (a URL with its query fits). */
const RUN_MAX = 400;

/**
 * `line` with every run of more than RUN_MAX characters without white space cut as
 * {@link shortened} cuts it: the last guard of the lines mon writes to stderr, for a value that
 * reached a message without {@link quoted} (a library's own message quoting what it was given).
 */
export function longRunsCut(line: string): string {
  return line.length <= RUN_MAX
    ? line
    : line.replace(new RegExp(`\\S{${RUN_MAX + 1},}`, 'g'), (run) => shortened(run, RUN_MAX));
}
