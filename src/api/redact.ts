export const REDACTED = '[REDACTED]';

/**
 * What is wrong with a key mon is given, if anything: empty, or holding white space or a control
 * character, which no account's key does (a key pasted with a line break, a CR from an env file
 * saved on Windows). Refused rather than sent, also because a message that squeezes white space
 * would split such a key where redaction could no longer find it.
 */
export function keyFlaw(key: string): string | undefined {
  if (key === '') return 'is empty';
  if (/[\s\x00-\x1f\x7f]/.test(key)) return 'contains white space or a control character';
  return undefined;
}

/**
 * The shortest piece of a key that is taken for the key: any run of this many characters of it,
 * anywhere in a text, is replaced. A message that quotes the start of a line holding the key, or
 * a key cut by a width, gives nothing away (README, Security).
 */
export const FRAGMENT_MIN = 8;

/** The shortest key looked for in texts at all; scrub (src/api/secrets.ts) passes no shorter one. */
export const MIN_SECRET = 4;

/** Every FRAGMENT_MIN-character piece of a form of a key (a shorter form whole), made once per form. */
const piecesOf = new Map<string, Set<string>>();

function pieces(form: string): Set<string> {
  let set = piecesOf.get(form);
  if (!set) {
    const size = Math.min(FRAGMENT_MIN, form.length);
    set = new Set();
    for (let i = 0; i + size <= form.length; i++) set.add(form.slice(i, i + size));
    piecesOf.set(form, set);
  }
  return set;
}

/**
 * `text` with every run of characters covered by pieces of any of `forms` replaced by one
 * REDACTED. The pieces are all looked for in the text as given, so that one form's replacement
 * cannot hide the rest of another (a key echoed in lower-case hex shares its digits with the
 * upper-case form).
 */
function redactPieces(text: string, forms: readonly string[]): string {
  const covered = new Uint8Array(text.length);
  let any = false;
  for (const form of forms) {
    const set = pieces(form);
    const size = Math.min(FRAGMENT_MIN, form.length);
    for (let i = 0; i + size <= text.length; i++) {
      if (!set.has(text.slice(i, i + size))) continue;
      covered.fill(1, i, i + size);
      any = true;
    }
  }
  if (!any) return text;
  let out = '';
  for (let i = 0; i < text.length; ) {
    let j = i;
    while (j < text.length && covered[j] === covered[i]) j++;
    out += covered[i] ? REDACTED : text.slice(i, j);
    i = j;
  }
  return out;
}

const HTML_ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/** The forms a server may echo a key in, made once per key (`forms`). */
const formsOf = new Map<string, string[]>();

/**
 * The key as it is, URL-encoded (upper- and lower-case hex, `%20` or `+` for a space),
 * HTML-escaped, and in base64 and base64url: a server's error text may quote it in any of them.
 */
function forms(secret: string): string[] {
  let list = formsOf.get(secret);
  if (!list) {
    const encoded = [encodeURIComponent(secret), new URLSearchParams({ k: secret }).toString().slice(2)];
    const base64 = Buffer.from(secret, 'utf8').toString('base64');
    list = [
      ...new Set([
        secret,
        ...encoded,
        ...encoded.map((form) => form.replace(/%[0-9A-F]{2}/g, (escape) => escape.toLowerCase())),
        secret.replace(/[&<>"']/g, (c) => HTML_ESCAPES[c]!),
        base64.replace(/=+$/, ''),
        base64.replace(/=+$/, '').replace(/\+/g, '-').replace(/\//g, '_'),
      ]),
    ].filter((form) => form.length > 0);
    formsOf.set(secret, list);
  }
  return list;
}

/**
 * Removes the API key from any text that may reach a person: URLs, form bodies, error messages
 * (undici's errors can carry the URL). Every form of the key a server may echo (`forms`) is
 * replaced, and so is any part of one of FRAGMENT_MIN characters or more, and any api_key
 * parameter whatever its value. A text is cleaned before it is cut to a length, never after.
 */
export function redact(text: string, apiKey?: string): string {
  // The value ends where a URL, a form or a sentence around it would end it.
  const out = text.replace(/(api_key=)[^&\s"';,)]*/g, `$1${REDACTED}`);
  // A key of 1 to 3 characters is no secret worth a message cut to pieces ('api_[REDACTED]ey').
  return apiKey && apiKey.length >= MIN_SECRET ? redactPieces(out, forms(apiKey)) : out;
}
