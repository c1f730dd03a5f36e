export const REDACTED = '[REDACTED]';

/**
 * The shortest piece of a key that is taken for the key: any run of this many characters of it,
 * anywhere in a text, is replaced. A message that quotes the start of a line holding the key, or
 * a key cut by a width, gives nothing away (README, Security).
 */
export const FRAGMENT_MIN = 8;

/** Every FRAGMENT_MIN-character piece of each key seen, made once per key. */
const piecesOf = new Map<string, Set<string>>();

function pieces(secret: string): Set<string> {
  let set = piecesOf.get(secret);
  if (!set) {
    set = new Set();
    for (let i = 0; i + FRAGMENT_MIN <= secret.length; i++) set.add(secret.slice(i, i + FRAGMENT_MIN));
    piecesOf.set(secret, set);
  }
  return set;
}

/** `text` with every run made of FRAGMENT_MIN-character pieces of `secret` replaced by one REDACTED. */
function redactPieces(text: string, secret: string): string {
  const set = pieces(secret);
  let out = '';
  // Where the text not yet copied starts, and where the run being covered ends.
  let copied = 0;
  let coveredTo = -1;
  let runStart = -1;
  for (let i = 0; i + FRAGMENT_MIN <= text.length; i++) {
    if (!set.has(text.slice(i, i + FRAGMENT_MIN))) continue;
    if (i > coveredTo) {
      if (runStart !== -1) {
        out += text.slice(copied, runStart) + REDACTED;
        copied = coveredTo;
      }
      runStart = i;
    }
    coveredTo = i + FRAGMENT_MIN;
  }
  if (runStart === -1) return text;
  return out + text.slice(copied, runStart) + REDACTED + text.slice(coveredTo);
}

/**
 * Removes the API key from any text that may reach a person: URLs, form bodies, error messages
 * (undici's errors can carry the URL). The raw key and its URL-encoded forms are replaced, and so
 * is any part of them of FRAGMENT_MIN characters or more, and any api_key parameter whatever its value.
 */
export function redact(text: string, apiKey?: string): string {
  // The value ends where a URL, a form or a sentence around it would end it.
  let out = text.replace(/(api_key=)[^&\s"';,)]*/g, `$1${REDACTED}`);
  if (apiKey) {
    for (const form of new Set([apiKey, encodeURIComponent(apiKey), new URLSearchParams({ k: apiKey }).toString().slice(2)])) {
      if (form.length >= FRAGMENT_MIN) out = redactPieces(out, form);
      else if (form.length > 0) out = out.split(form).join(REDACTED);
    }
  }
  return out;
}
