import { UsageError } from '../errors.js';

/** A plugin result uid as a path takes it: pr_ and something, no spaces or URL delimiters (api-v2.5, uid prefixes). */
const PLUGIN_RESULT_UID = /^pr_[^\s/?#]+$/;

/**
 * The plugin result uids of `--from FILE|-`, in order, each once: one uid a line, or one JSON
 * object a line with a `uid` (what `mon alerts -o ndjson` prints), blank lines skipped. Any
 * other line is a UsageError naming its number (exit 2), before any request is sent.
 */
export function parseUidLines(text: string, source: string): string[] {
  const uids = new Set<string>();
  const lines = text.split(/\r?\n/);
  lines.forEach((raw, index) => {
    const line = raw.trim();
    if (line === '') return;
    const uid = line.startsWith('{') ? uidOfJson(line) : line;
    if (uid === undefined || !PLUGIN_RESULT_UID.test(uid)) {
      const shown = line.length > 40 ? `${line.slice(0, 40)}…` : line;
      throw new UsageError(
        `--from ${source}: line ${index + 1} is neither a plugin result uid (pr_…) nor a JSON object with one: '${shown}'`,
        'give one uid a line, or the lines of `mon alerts -o ndjson`',
      );
    }
    uids.add(uid);
  });
  return [...uids];
}

function uidOfJson(line: string): string | undefined {
  try {
    const value: unknown = JSON.parse(line);
    const uid = value && typeof value === 'object' && !Array.isArray(value) ? (value as { uid?: unknown }).uid : undefined;
    return typeof uid === 'string' ? uid : undefined;
  } catch {
    return undefined;
  }
}
