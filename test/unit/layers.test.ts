import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

/**
 * Imports point down: the command specs and their checks sit below the commands, runtime and
 * config below the commands, and the completion generators read a program they are handed.
 * Read from the sources as text (static, dynamic and type-only imports alike).
 */
const SRC = fileURLToPath(new URL('../../src/', import.meta.url));

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    return entry.isDirectory() ? sources(path) : entry.name.endsWith('.ts') ? [path] : [];
  });
}

/** Every relative import of each file, as paths from src/ ('commands/index.ts'). */
const graph = new Map<string, string[]>(
  sources(SRC).map((file) => {
    const text = readFileSync(file, 'utf8');
    const targets = [...text.matchAll(/(?:from|import\()\s*'(\.{1,2}\/[^']+)\.js'/g)].map((match) =>
      relative(SRC, resolve(dirname(file), `${match[1]}.ts`)),
    );
    return [relative(SRC, file), targets];
  }),
);

describe('imports point down', () => {
  it('reads the source tree', () => {
    expect(graph.get('main.ts')).toContain('program.ts');
  });

  it.each([
    'spec/',
    'validate/',
    'config/',
    'api/',
    'output/',
    'server/',
    'events/',
    'runtime.ts',
    'globals.ts',
    'target.ts',
    'context.ts',
    'completion/bash.ts',
    'completion/tree.ts',
    'completion/scripts.ts',
  ])('%s imports neither the commands nor the program', (prefix) => {
    const wrong = [...graph]
      .filter(([file]) => file.startsWith(prefix))
      .flatMap(([file, targets]) =>
        targets
          .filter((target) => target.startsWith('commands/') || target === 'program.ts')
          .map((target) => `${file} -> ${target}`),
      );
    expect(wrong).toEqual([]);
  });

  it('spec/ imports nothing of what reads the specs (validate/, resolve/, completion/)', () => {
    const wrong = [...graph]
      .filter(([file]) => file.startsWith('spec/'))
      .flatMap(([file, targets]) =>
        targets
          .filter((target) => /^(validate|resolve|completion)\//.test(target))
          .map((target) => `${file} -> ${target}`),
      );
    expect(wrong).toEqual([]);
  });

  it('sandbox/ imports nothing of api/: a wrong path or form in the client fails a test instead of being mirrored', () => {
    const wrong = [...graph]
      .filter(([file]) => file.startsWith('sandbox/'))
      .flatMap(([file, targets]) =>
        targets.filter((target) => target.startsWith('api/')).map((target) => `${file} -> ${target}`),
      );
    expect(wrong).toEqual([]);
  });

  it.each([
    // What renders and what it renders: output/ draws the data the fleet counts, never the counting.
    ['output/', /^(fleet|report|changes|resolve|completion|commands)\//],
    // The files mon keeps and the rules for them sit below the API client and everything that uses it.
    ['config/', /^(api|fleet|output|report|sandbox|changes|resolve|completion|commands)\//],
    // The client knows no command, fleet or sandbox.
    ['api/', /^(fleet|report|sandbox|changes|resolve|completion|commands|events|server)\//],
    // The servers' layer knows only the errors: every server mon runs sits above it.
    ['server/', /^(api|config|output|fleet|report|sandbox|changes|resolve|completion|commands|events)\//],
    // The receiver of webhooks reads no fleet and no command.
    ['events/', /^(fleet|report|sandbox|changes|resolve|completion|commands)\//],
  ])('%s imports nothing above it (every kind of import)', (prefix, above) => {
    const wrong = [...graph]
      .filter(([file]) => file.startsWith(prefix))
      .flatMap(([file, targets]) =>
        targets.filter((target) => above.test(target)).map((target) => `${file} -> ${target}`),
      );
    expect(wrong).toEqual([]);
  });

  /**
   * Every top-level file or folder of src/ on one ladder, lowest first. An import may go down the
   * ladder or along a rung, never up; a unit that is on no rung fails the test until it is placed.
   */
  const LADDER: string[][] = [
    ['errors.ts', 'clock.ts', 'version.ts', 'tiering.ts', 'types'],
    // Shared helpers that know nothing of requests or rendering.
    ['text', 'time', 'model'],
    ['config', 'server'],
    // The client and the renderers: peers that never import each other (checked below).
    ['api', 'output'],
    // The context's shape, and the one choice of account and endpoint it is made with.
    ['context.ts', 'target.ts', 'dry-run.ts'],
    // The command line's checks: the global options among them.
    ['spec', 'validate', 'io', 'once-only.ts', 'globals.ts'],
    // sandbox-start.ts starts --sandbox from outside sandbox/, so that the build leaves the sandbox to a file of its own.
    ['resolve', 'sandbox', 'sandbox-start.ts', 'completion'],
    ['runtime.ts', 'changes'],
    ['fleet', 'events'],
    ['history', 'metrics'],
    ['report'],
    ['commands', 'help.ts', 'usage.ts'],
    ['program.ts', 'pipeline.ts'],
    ['main.ts'],
  ];
  const unitOf = (file: string): string => (file.includes('/') ? file.slice(0, file.indexOf('/')) : file);
  const rung = (unit: string): number => LADDER.findIndex((units) => units.includes(unit));

  it('places every unit of src/ on the ladder', () => {
    const unplaced = [...new Set([...graph.keys()].map(unitOf))].filter((unit) => rung(unit) < 0);
    expect(unplaced).toEqual([]);
  });

  it('has no import that points up the ladder', () => {
    const up = [...graph].flatMap(([file, targets]) =>
      targets.filter((target) => rung(unitOf(target)) > rung(unitOf(file))).map((target) => `${file} -> ${target}`),
    );
    expect(up).toEqual([]);
  });

  it('keeps api/ and output/ apart: the client renders nothing, the renderers request nothing', () => {
    const wrong = [...graph]
      .filter(([file]) => /^(api|output)\//.test(file))
      .flatMap(([file, targets]) =>
        targets
          .filter((target) => unitOf(target) !== unitOf(file) && /^(api|output)\//.test(target))
          .map((target) => `${file} -> ${target}`),
      );
    expect(wrong).toEqual([]);
  });

  it('has no import cycle', () => {
    const cycles: string[] = [];
    const state = new Map<string, 'open' | 'done'>();
    const visit = (file: string, path: string[]): void => {
      if (state.get(file) === 'done') return;
      if (state.get(file) === 'open') {
        cycles.push([...path.slice(path.indexOf(file)), file].join(' -> '));
        return;
      }
      state.set(file, 'open');
      for (const target of graph.get(file) ?? []) visit(target, [...path, file]);
      state.set(file, 'done');
    };
    for (const file of graph.keys()) visit(file, []);
    expect(cycles).toEqual([]);
  });
});
