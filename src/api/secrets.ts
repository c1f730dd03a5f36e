import { MIN_SECRET, redact } from './redact.js';

/**
 * Secrets seen during this run (every saved key read, the key a client was made with), so that
 * even an unexpected error cannot print them. Emptied as a run begins (runtime.ts, beginRun).
 */
export const knownSecrets = new Set<string>();

/**
 * No line on stderr may carry a key, nor any piece of one of 8 characters or more (redact.ts),
 * whatever raised it: every error line, notice and --verbose line goes through here.
 */
export function scrub(text: string, deps: { env: Record<string, string | undefined> }): string {
  const secrets = [...knownSecrets, deps.env.MON_API_KEY].filter(
    (s): s is string => typeof s === 'string' && s.length >= MIN_SECRET,
  );
  return secrets.reduce((out, secret) => redact(out, secret), redact(text));
}
