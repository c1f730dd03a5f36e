export const REDACTED = '[REDACTED]';

/**
 * Removes the API key from any text that may reach a person: URLs, form bodies, error messages
 * (undici's errors can carry the URL). Both the raw key and its URL-encoded form are replaced,
 * and so is any api_key parameter whatever its value.
 */
export function redact(text: string, apiKey?: string): string {
  // The value ends where a URL, a form or a sentence around it would end it.
  let out = text.replace(/(api_key=)[^&\s"';,)]*/g, `$1${REDACTED}`);
  if (apiKey) {
    for (const form of new Set([apiKey, encodeURIComponent(apiKey), new URLSearchParams({ k: apiKey }).toString().slice(2)])) {
      if (form.length > 0) out = out.split(form).join(REDACTED);
    }
  }
  return out;
}
