import { UsageError } from '../errors.js';
import { quoted } from '../text/escape.js';
import { closest } from './suggest.js';

/**
 * The one reading of an enumerated value (a --status, --platform, -o…): any case is accepted
 * and the API's own spelling is returned (`alert` -> `Alert`, `Missing` -> `missing`); anything
 * else is a usage error naming the option, the values it takes and the nearest one. `example`
 * is the hint when nothing is near (default: the first value).
 */
export function parseChoice<T extends string>(
  label: string,
  value: string,
  choices: readonly T[],
  example?: string,
): T {
  const typed = value.toLowerCase();
  const found = choices.find((choice) => choice.toLowerCase() === typed);
  if (found !== undefined) return found;
  const guess = closest(value, choices);
  // An argument (`<method>`) is typed without its label.
  const typing = (choice: string) => (label.startsWith('<') ? choice : `${label.split('/')[0]} ${choice}`);
  throw new UsageError(
    `${label}: ${quoted(value)} is not one of ${choices.join(', ')}`,
    guess ? `did you mean ${typing(guess)}?` : (example ?? `e.g. ${typing(choices[0]!)}`),
  );
}
