import { describe, expect, it } from 'vitest';
import { COMMANDS } from '../../src/commands/index.js';
import { isResource, optionLabel, optionsOf, type VerbSpec } from '../../src/spec/spec.js';
import { bashScript } from '../../src/completion/bash.js';
import { fishScript } from '../../src/completion/fish.js';
import { fullProgram } from '../../scripts/generated-files.js';
import { buildTree, flagsOf, walk, type CommandNode } from '../../src/completion/tree.js';
import { zshScript } from '../../src/completion/zsh.js';

const tree = buildTree(fullProgram());
const byPath = new Map(walk(tree).map((node) => [node.path.join(' '), node]));

/** Every visible verb with the path users type. */
const verbs: [string, VerbSpec][] = COMMANDS.flatMap((spec): [string, VerbSpec][] =>
  isResource(spec)
    ? spec.verbs.filter((verb) => !verb.hidden).map((verb) => [`${spec.name} ${verb.name}`, verb])
    : spec.hidden
      ? []
      : [[spec.name, spec]],
);

/** An option of a node or of one of its ancestors, as completion finds it. */
function findOption(path: string, label: string) {
  for (let parts = path.split(' '); ; parts = parts.slice(0, -1)) {
    const node = byPath.get(parts.join(' '));
    const found = node?.options.find((option) => flagsOf(option).includes(label));
    if (found || parts.length === 0) return found;
  }
}

describe('the completion model read from the commander tree', () => {
  it.each(verbs)('has `mon %s` with its aliases and every option', (path, verb) => {
    const node = byPath.get(path);
    expect(node, path).toBeDefined();
    expect(node!.aliases).toEqual(verb.aliases ?? []);
    for (const spec of optionsOf(verb)) {
      const option = findOption(path, optionLabel(spec));
      expect(option, `${path} ${optionLabel(spec)}`).toBeDefined();
      expect(option!.value).toBe(
        /<[^>]+>/.test(spec.flags) ? 'required' : /\[[^\]]+\]/.test(spec.flags) ? 'optional' : 'none',
      );
      if (spec.choices) expect(option!.source).toEqual({ type: 'choices', values: [...spec.choices] });
    }
  });

  it('leaves hidden commands out and knows the global options, short and long', () => {
    expect(tree.commands.map((node) => node.name)).not.toContain('__complete');
    expect(tree.options.find((option) => option.long === '--profile')).toMatchObject({
      short: '-p',
      value: 'required',
      source: { type: 'profiles' },
    });
    expect(tree.options.find((option) => option.long === '--output')).toMatchObject({
      short: '-o',
      source: { type: 'choices', values: ['table', 'json', 'ndjson', 'csv', 'tsv', 'openmetrics'] },
    });
    expect(tree.options.find((option) => option.long === '--json')).toMatchObject({ value: 'none' });
  });

  it('offers profile names for the <name> of profile use, show, remove and test, not add', () => {
    const sources = (verb: string) => byPath.get(`profile ${verb}`)!.args.map((arg) => arg.source.type);
    expect(['use', 'show', 'remove', 'test'].map(sources)).toEqual([
      ['profiles'],
      ['profiles'],
      ['profiles'],
      ['profiles'],
    ]);
    expect(sources('add')).toEqual(['none']);
  });

  it('lists `help` once, at the root, completing the command names (`mon help computers list` takes the whole path) and the help topics', () => {
    expect(tree.commands.find((sub) => sub.name === 'help')?.args[0]?.source).toEqual({
      type: 'commands',
      topics: ['options', 'environment', 'exit-codes', 'formats', 'fleet', 'events', 'sandbox'],
    });
    for (const node of walk(tree).filter((candidate) => candidate.path.length > 0)) {
      expect(
        node.commands.map((sub) => sub.name),
        node.path.join(' '),
      ).not.toContain('help');
    }
  });

  it('knows which options mon takes once, and the forms that count as one given', () => {
    expect(findOption('', '--output')!.once).toEqual(['-o', '--output', '--json']);
    expect(findOption('', '--json')!.once).toEqual(['-o', '--output', '--json']);
    expect(findOption('computers list', '--per-page')!.once).toEqual(['--per-page']);
    expect(findOption('groups update', '--show-contact-menu')!.once).toEqual([
      '--show-contact-menu',
      '--no-show-contact-menu',
    ]);
    expect(findOption('groups update', '--no-show-contact-menu')!.once).toEqual([
      '--show-contact-menu',
      '--no-show-contact-menu',
    ]);
    // Repeatable, and lone flags: they may come again.
    for (const [path, label] of [
      ['', '--expand'],
      ['computers list', '--platform'],
      ['alerts', '--group'],
      ['api', '--field'],
      ['computers list', '--all'],
    ]) {
      expect(findOption(path!, label!), `${path} ${label}`).toBeDefined();
      expect(findOption(path!, label!)!.once, `${path} ${label}`).toBeUndefined();
    }
    // zsh offers an option again only where mon takes it again (`*`).
    const zsh = zshScript(tree);
    expect(zsh).toContain(`'(-o --output --json)--json[short for -o json]'`);
    expect(zsh).toMatch(/'\*--expand=\[/);
    expect(zsh).not.toMatch(/'\*--per-page=/);
  });

  it('does not repeat an option a parent already has (every -h, --help)', () => {
    const counts = walk(tree).filter((node: CommandNode) => node.options.some((option) => option.long === '--help'));
    expect(counts.map((node) => node.path.join(' '))).toEqual(['']);
  });
});

describe('the generated scripts', () => {
  it.each([
    ['bash', bashScript],
    ['zsh', zshScript],
    ['fish', fishScript],
  ] as const)('%s: name every command, alias and choice of the tree', (shell, generate) => {
    const script = generate(tree);
    for (const node of walk(tree)) {
      for (const word of [node.name, ...node.aliases]) expect(script).toContain(word);
      for (const option of node.options) {
        for (const flag of flagsOf(option)) expect(script).toContain(flag.replace(/^-+/, ''));
        // zsh's _arguments takes ':' as a separator: choices carry it escaped.
        if (option.source.type === 'choices')
          for (const value of option.source.values)
            expect(script).toContain(shell === 'zsh' ? value.replace(/:/g, '\\:') : value);
      }
    }
    expect(script).not.toContain('undefined');
  });
});
