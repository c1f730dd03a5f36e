import { Argument, Command, Option } from 'commander';
import { UsageError } from '../errors.js';
import { onceOnly } from '../once-only.js';
import {
  isResource,
  optionKey,
  optionsOf,
  type ArgSpec,
  type CommandSpec,
  type OptionSpec,
  type ParsedInput,
  type VerbSpec,
} from '../spec/spec.js';

/** Runs a verb once commander has parsed its words (program.ts supplies it). */
export type VerbRunner = (verb: VerbSpec, input: ParsedInput, command: Command) => Promise<void>;

/** The words commander parsed, with the value of each argument left out put in its place. */
function withOmitted(
  declared: readonly ArgSpec[],
  parsed: readonly (string | string[] | undefined)[],
): (string | string[] | undefined)[] {
  const words = [...parsed];
  const given = words.filter((word) => word !== undefined).length;
  declared.forEach((arg, index) => {
    const word = words[index];
    if (!arg.omittable || given >= declared.length || (typeof word === 'string' && arg.omittable.accepts.test(word)))
      return;
    words.splice(index, 0, arg.omittable.value);
    words.length = declared.length;
  });
  return words;
}

function commandPath(command: Command): string[] {
  return command.parent ? [...commandPath(command.parent), command.name()] : [command.name()];
}

/** Turns the command specs into commander commands under `parent`. The only code that knows commander's builder API. */
export function defineCommands(parent: Command, specs: readonly CommandSpec[], runVerb: VerbRunner): void {
  for (const spec of specs) {
    if (!isResource(spec)) {
      parent.addCommand(verbCommand(spec, runVerb), {
        isDefault: spec.isDefault === true,
        hidden: spec.hidden === true,
      });
      continue;
    }
    const resource = new Command(spec.name).description(spec.summary);
    if (spec.aliases) resource.aliases([...spec.aliases]);
    // A resource without examples of its own shows the first example of each of its verbs.
    const examples =
      spec.examples ?? spec.verbs.filter((verb) => !verb.hidden).flatMap((verb) => verb.examples.slice(0, 1));
    if (examples.length) resource.addHelpText('after', () => examplesText(examples));
    for (const verb of spec.verbs) {
      resource.addCommand(verbCommand(verb, runVerb), {
        isDefault: verb.isDefault === true,
        hidden: verb.hidden === true,
      });
    }
    parent.addCommand(resource);
  }
}

function verbCommand(verb: VerbSpec, runVerb: VerbRunner): Command {
  const command = new Command(verb.name).description(
    verb.description ? `${verb.summary}\n\n${verb.description}` : verb.summary,
  );
  command.summary(verb.summary);
  if (verb.aliases) command.aliases([...verb.aliases]);
  const declared = verb.args ?? [];
  for (const [index, arg] of declared.entries()) {
    const word = `${arg.name}${arg.variadic ? '...' : ''}`;
    // After an argument that may be left out, commander takes the rest as optional; the action
    // moves the words along and names what is still missing.
    const optional = arg.optional || declared.slice(0, index + 1).some((one) => one.omittable);
    command.addArgument(new Argument(optional ? `[${word}]` : `<${word}>`, arg.description));
  }
  if (declared.some((arg) => arg.omittable))
    command.usage(
      `[options] ${declared.map((arg) => (arg.optional || arg.omittable ? `[${arg.name}]` : `<${arg.name}>`)).join(' ')}`,
    );
  for (const spec of optionsOf(verb)) {
    const forms = commanderOptions(spec);
    for (const option of forms) command.addOption(option);
    if (!spec.repeatable) onceOnly(command, forms, spec.once);
  }
  // Written when help is shown, not for every command that only runs.
  command.addHelpText('after', () => examplesText(verb.examples));
  command.action(async (...words: unknown[]) => {
    const self = words.at(-1) as Command;
    const args: Record<string, string | undefined> = {};
    const rest: string[] = [];
    const given = withOmitted(declared, self.processedArgs as (string | string[] | undefined)[]);
    declared.forEach((arg, index) => {
      const value = given[index];
      if (Array.isArray(value)) {
        args[arg.name] = value[0];
        rest.push(...value.slice(1));
      } else {
        args[arg.name] = value;
      }
    });
    const missing = declared.find((arg) => !arg.optional && args[arg.name] === undefined);
    if (missing)
      throw new UsageError(
        `missing <${missing.name}>`,
        `usage: ${[...commandPath(self), self.usage().replace(/\[options\]\s*/, '')].join(' ')}`,
      );
    // A verb option named like a global one (profile add --base-url) is parsed by the root
    // command wherever it stands, so take its value from there.
    const withGlobals = self.optsWithGlobals();
    const opts = { ...self.opts() };
    for (const spec of optionsOf(verb)) {
      const key = optionKey(spec);
      if (opts[key] === undefined && withGlobals[key] !== undefined) opts[key] = withGlobals[key];
    }
    const command = self.parent?.parent ? `${self.parent.name()} ${self.name()}` : self.name();
    await runVerb(verb, { command, args, opts, rest }, self);
  });
  return command;
}

function commanderOptions(spec: OptionSpec): Option[] {
  const { rule } = spec;
  // Help names every limit and default. Commander prints a default only when it applies one
  // itself; ours are applied by the handlers, so the text goes into the description.
  const notes = [
    rule && rule.type !== 'int' && 'max' in rule && rule.max !== undefined ? `max ${rule.max} characters` : undefined,
    rule?.type === 'int' && rule.max !== undefined && !spec.description.includes(`${rule.min}..${rule.max}`)
      ? `${rule.min}..${rule.max}`
      : undefined,
    spec.defaultText ? `default: ${spec.defaultText}` : undefined,
  ].filter((note) => note !== undefined);
  const description = notes.length ? `${spec.description} (${notes.join(', ')})` : spec.description;
  const option = new Option(spec.flags, description);
  // Choices are listed in help and completions; the check itself is ours (src/validate), so
  // that every bad value gets the same kind of message and repeatable options work.
  if (spec.choices) option.argChoices = [...spec.choices];
  if (spec.repeatable)
    option.argParser((value: string, previous: unknown) => [...((previous as string[] | undefined) ?? []), value]);
  if (!spec.negatable) return [option];
  const negative = new Option(
    `--no-${option.attributeName().replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}`,
    `do not ${spec.description.replace(/^(\w)/, (c) => c.toLowerCase())}`,
  );
  return [option, negative];
}

function examplesText(examples: readonly string[]): string {
  return `\nExamples:\n${examples.map((line) => fitExample(line)).join('\n')}`;
}

/** Help's width (program.ts): an example longer than that goes on as the shell continues a line. */
const EXAMPLE_WIDTH = 80;

/** `  $ mon …`, broken between words (never inside quotes) with ` \` where it would pass the width. */
function fitExample(example: string): string {
  const words = example.match(/(?:"[^"]*"|'[^']*'|\S)+/g) ?? [];
  const lines = [`  $ ${words.shift() ?? ''}`];
  for (const word of words) {
    const last = lines[lines.length - 1]!;
    if (last.length + 1 + word.length + 2 <= EXAMPLE_WIDTH) lines[lines.length - 1] = `${last} ${word}`;
    else lines.push(`      ${word}`);
  }
  return lines.join(' \\\n');
}
