/** JSON text of data from an answer: what mon prints, keeps or compares. */
import { ServerError } from '../errors.js';
import { jsonSafe } from './escape.js';

/**
 * JSON.stringify for data from an answer (what mon prints, and what --changes keeps and
 * compares). It recurses into the value, and an answer can nest deeper than the stack allows (a
 * hostile or broken server sending `[[[[…`, which JSON.parse takes): that is the answer's fault
 * and is said so (exit 7), not a crash (exit 1). What a terminal would act on is escaped as
 * JSON escapes it (jsonSafe): the same value, safe to print.
 */
export function toJson(value: unknown, indent?: number): string {
  try {
    const text = JSON.stringify(value, null, indent) as string | undefined;
    return (text === undefined ? text : jsonSafe(text)) as string;
  } catch (error) {
    if (error instanceof RangeError && /call stack/i.test(error.message)) {
      throw new ServerError(
        'an answer nests objects or arrays too deeply to handle as JSON',
        'the service or a proxy answered wrongly',
      );
    }
    throw error;
  }
}
