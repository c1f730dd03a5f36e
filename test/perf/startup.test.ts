// Start-up cost, checked by structure rather than by the clock (timings live in `npm run bench`):
// what the chunk every run loads may contain, what --help and --version load, and that the
// faster paths print exactly what the full ones do.
import { execFile } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { build, type Metafile } from 'esbuild';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { COMMANDS } from '../../src/commands/index.js';
import { isResource } from '../../src/commands/spec.js';
import { main } from '../../src/main.js';
import { buildProgram, commandsFor } from '../../src/program.js';
// @ts-expect-error plain ESM script without types
import { buildOptions, LAZY_PACKAGES } from '../../scripts/esbuild.config.mjs';
import { MON_BIN } from '../helpers/run-mon.js';

const root = fileURLToPath(new URL('../../', import.meta.url));
const run = promisify(execFile);

describe('the bundle', () => {
  let outdir: string;
  let meta: Metafile;
  let texts: Map<string, string>;

  beforeAll(async () => {
    outdir = mkdtempSync(join(tmpdir(), 'mon-perf-'));
    const result = await build({ ...buildOptions({ outdir, version: '0.0.0-test' }), absWorkingDir: root, write: false, metafile: true, logLevel: 'silent' });
    meta = result.metafile!;
    texts = new Map((result.outputFiles ?? []).map((file) => [file.path, file.text]));
  }, 60_000);
  afterAll(() => rmSync(outdir, { recursive: true, force: true }));

  /** Output files every run loads: the entry and what it imports statically, transitively. */
  const startupOutputs = (): string[] => {
    const entry = Object.keys(meta.outputs).find((file) => file.endsWith('/mon.js') && meta.outputs[file]?.entryPoint);
    expect(entry).toBeDefined();
    const seen = new Set<string>();
    const visit = (file: string) => {
      if (seen.has(file) || !meta.outputs[file]) return;
      seen.add(file);
      for (const imported of meta.outputs[file]!.imports) if (imported.kind === 'import-statement' && !imported.external) visit(imported.path);
    };
    visit(entry!);
    return [...seen];
  };
  const packageOf = (input: string) => /node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(input)?.[1];

  it('the start-up chunks hold none of the heavy packages, which are still in the bundle', () => {
    const startup = startupOutputs();
    const startupPackages = new Set(startup.flatMap((file) => Object.keys(meta.outputs[file]!.inputs).map(packageOf)));
    for (const name of LAZY_PACKAGES as string[]) expect(startupPackages, name).not.toContain(name);
    // Sanity: the test would mean nothing if the packages were not bundled at all.
    const everywhere = new Set(Object.values(meta.outputs).flatMap((output) => Object.keys(output.inputs).map(packageOf)));
    for (const name of LAZY_PACKAGES as string[]) expect(everywhere, name).toContain(name);
    expect(startupPackages).toContain('commander');
  });

  it('the start-up chunks do not load node:child_process when they load', () => {
    for (const file of startupOutputs()) {
      const text = texts.get(join(root, file));
      expect(text, file).toBeDefined();
      // The only use left is inside the lazy getter the build puts in front of it.
      const uses = text!.match(/require\("node:child_process"\)/g) ?? [];
      expect(uses.length <= 1, file).toBe(true);
      if (uses.length === 1) expect(text).toMatch(/new Proxy\(\{\},\{get:[^}]*require\("node:child_process"\)/);
    }
  });

  it('no chunk reads globalThis.Headers (that read loads Node’s built-in undici)', () => {
    for (const [file, text] of texts) expect(text.match(/globalThis\.Headers(?!\s*=)/g) ?? [], file).toEqual([]);
  });
});

describe('commands built for the command line', () => {
  const quiet = { writeOut: () => undefined, writeErr: () => undefined };
  const runVerb = async () => undefined;

  it('the root help is the same with the pruned tree as with the whole one', () => {
    const whole = buildProgram(quiet, runVerb).helpInformation();
    expect(buildProgram(quiet, runVerb, ['--help']).helpInformation()).toBe(whole);
    expect(buildProgram(quiet, runVerb, []).helpInformation()).toBe(whole);
  });

  it('a resource named on the line (or by an alias) keeps its verbs; the others keep only name, aliases and summary', () => {
    const original = (name: string) => COMMANDS.find((spec) => spec.name === name)!;
    for (const spec of commandsFor(['-o', 'json', 'computers', 'list'])) {
      const whole = original(spec.name);
      if (!isResource(spec) || !isResource(whole)) {
        expect(spec).toBe(whole);
        continue;
      }
      expect(spec.verbs, spec.name).toEqual(spec.name === 'computers' ? whole.verbs : []);
      expect([spec.summary, spec.aliases]).toEqual([whole.summary, whole.aliases]);
    }
    for (const spec of COMMANDS.filter(isResource)) {
      for (const word of [spec.name, ...(spec.aliases ?? [])]) {
        const kept = commandsFor([word]).find((c) => c.name === spec.name);
        expect(kept && isResource(kept) ? kept.verbs : undefined, word).toBe(spec.verbs);
      }
    }
  });

  it('each resource’s help is the same as in the whole tree', () => {
    const whole = buildProgram(quiet, runVerb);
    for (const spec of COMMANDS.filter(isResource)) {
      const pruned = buildProgram(quiet, runVerb, [spec.name, '--help']);
      const help = (program: typeof whole) => program.commands.find((c) => c.name() === spec.name)!.helpInformation();
      expect(help(pruned), spec.name).toBe(help(whole));
    }
  });
});

describe('bin/mon --version', () => {
  const { version } = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { version: string };

  it.each(['--version', '-V'])('%s prints the package version without loading the bundle', async (flag) => {
    // A copy of bin/mon beside package.json and no dist/: the answer must not need the bundle.
    const dir = mkdtempSync(join(tmpdir(), 'mon-bin-'));
    try {
      mkdirSync(join(dir, 'bin'));
      copyFileSync(MON_BIN, join(dir, 'bin', 'mon'));
      copyFileSync(join(root, 'package.json'), join(dir, 'package.json'));
      const { stdout } = await run(process.execPath, [join(dir, 'bin', 'mon'), flag]);
      expect(stdout).toBe(`${version}\n`);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('prints what the full program prints for --version (same source: package.json)', async () => {
    let out = '';
    const io = { stdout: { write: (s: string) => ((out += s), true) }, stderr: { write: () => true }, stdin: process.stdin };
    const code = await main(['--version'], { io: io as never, env: {} });
    expect(code).toBe(0);
    // From source the bundle's define is absent; the built bundle replaces it with package.json's version.
    expect(out).toMatch(/^\S+\n$/);
    const { stdout } = await run(process.execPath, [MON_BIN, '--version', '--quiet']);
    expect(stdout).toBe(`${version}\n`);
  });
});
