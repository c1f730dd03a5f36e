import { toJson } from '../text/json.js';
import { pickFields } from './columns.js';
import type { RawOptions } from './types.js';
import { writeText } from './write.js';

/** A decoded body as received: pretty JSON, or one compact line per item with ndjson. --fields keeps those keys of objects. */
export function printRaw(data: unknown, opts: RawOptions): void {
  const pick = (value: unknown): unknown =>
    value && typeof value === 'object' && !Array.isArray(value)
      ? pickFields(value as Record<string, unknown>, opts.fields)
      : value;
  if (opts.format === 'ndjson') {
    const items = Array.isArray(data) ? data : [data];
    writeText(opts.out, items.map((item) => `${toJson(pick(item))}\n`).join(''));
    return;
  }
  writeText(opts.out, `${toJson(Array.isArray(data) ? data.map(pick) : pick(data), opts.compact ? undefined : 2)}\n`);
}
