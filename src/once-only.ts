/**
 * Options that mon takes once. Commander keeps the last of an option given twice in silence;
 * mon refuses it instead, and the completion scripts (src/completion/tree.ts) offer such an
 * option only until it, or another form of it, is on the command line. Used for the global
 * options (src/program.ts) and for every verb option that is not repeatable (src/commands/define.ts).
 */
import type { Command, Option } from 'commander';
import { UsageError } from './errors.js';

/** The forms onceOnly() holds to one use, by command. */
const heldOnce = new WeakMap<Command, (readonly Option[])[]>();

/**
 * Refuses an option given twice where commander would keep the last in silence: one with a
 * value (`--group A --group B`), or a flag with its negation (`--private --no-private`). One
 * line naming the option and both values, exit 2, nothing sent. `options` are the forms of one
 * option (a flag and its --no- form, or -o with --json); a lone flag may come twice, as it says
 * the same thing twice.
 */
export function onceOnly(command: Command, options: readonly Option[], hint?: string): void {
  const valued = options.some((option) => option.required || option.optional);
  if (!valued && options.length < 2) return;
  let held = heldOnce.get(command);
  if (!held) heldOnce.set(command, (held = []));
  held.push(options);
  const label = options[0]!.long ?? options[0]!.flags;
  let first: { flag: string; value: unknown } | undefined;
  for (const option of options) {
    const flag = option.long ?? option.flags;
    command.on(`option:${option.name()}`, (value: unknown) => {
      // The same flag twice says the same thing twice: nothing is lost.
      if (first && (valued || first.flag !== flag)) {
        if (!valued)
          throw new UsageError(
            `${label}: given as ${first.flag} and as ${flag}`,
            `keep one of ${first.flag} and ${flag}`,
          );
        const shown = (given: { flag: string; value: unknown }) =>
          typeof given.value === 'string' ? `'${given.value}'` : given.flag;
        throw new UsageError(
          `${label}: given twice (${shown(first)}, then ${shown({ flag, value })}); it takes one value`,
          hint ?? `give ${label} once, or run the command once per value`,
        );
      }
      first ??= { flag, value };
    });
  }
}

/** The forms that count as `option` given when onceOnly() holds it to one use on `command`. */
export function formsHeldOnce(command: Command, option: Option): readonly Option[] | undefined {
  return heldOnce.get(command)?.find((forms) => forms.includes(option));
}
