import { COMMANDS } from '../../src/commands/index.js';
import { isResource, type VerbSpec } from '../../src/spec/spec.js';

/**
 * Every example of every verb's help, as the command line a test can run: for the tests that
 * walk every command (--dry-run sends nothing; no raw control character reaches a terminal).
 */

/** The words of an example as a shell splits them (quotes, no expansions). */
function shellWords(line: string): string[] {
  const words: string[] = [];
  let word: string | undefined;
  let quote: string | undefined;
  for (const char of line) {
    if (quote) {
      if (char === quote) quote = undefined;
      else word = (word ?? '') + char;
    } else if (char === "'" || char === '"') {
      quote = char;
      word ??= '';
    } else if (/\s/.test(char)) {
      if (word !== undefined) words.push(word);
      word = undefined;
    } else word = (word ?? '') + char;
  }
  if (word !== undefined) words.push(word);
  return words;
}

/** Every example of every verb, as a command line: the part before a pipe or redirect. */
export const EXAMPLES: [string, string[]][] = COMMANDS.flatMap((command) => {
  const verbs: VerbSpec[] = isResource(command) ? [...command.verbs] : [command];
  return verbs.flatMap((verb) =>
    (verb.examples ?? [])
      .map((example) => example.split(/\s[|>]|\s2>|\s<|\$\(/)[0]!.trim())
      .filter((example) => example.startsWith('mon ') && !/\$|`/.test(example))
      .map((example): [string, string[]] => [example, shellWords(example).slice(1)]),
  );
});
