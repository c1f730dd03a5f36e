// Start-up cost, checked by what a run loads rather than by the clock (timings live in
// `npm run bench`): which packages and built-in modules a command evaluates, the compile cache,
// and that the faster paths print exactly what the full ones do.
import { execFile, spawn } from 'node:child_process';
import {
  chmodSync,
  closeSync,
  copyFileSync,
  mkdirSync,
  mkdtempSync,
  openSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { build, type Metafile, type Plugin } from 'esbuild';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { COMMANDS } from '../../src/commands/index.js';
import { isResource } from '../../src/spec/spec.js';
import { main } from '../../src/main.js';
import { buildProgram, commandsFor } from '../../src/program.js';
import {
  buildOptions,
  JQ_WORKER_NAME,
  LAZY_PACKAGES,
  SEPARATE_FILES,
  separateBuildOptions,
  workerBuildOptions,
  // @ts-expect-error plain ESM script without types
} from '../../scripts/esbuild.config.mjs';
import { computersPage, json, startFakeApi } from '../helpers/fake-api.js';
import { MON_BIN, tempConfigDir, tempDir } from '../helpers/run-mon.js';

const root = fileURLToPath(new URL('../../', import.meta.url));
const run = promisify(execFile);

/** Parts of src/ that only some commands need. */
const LAZY_SOURCES = [
  'src/completion/bash.ts',
  'src/completion/zsh.ts',
  'src/completion/fish.ts',
  'src/sandbox/server.ts',
  'src/config/store.ts',
];

/** The packages whose evaluation the tests watch: those bundled lazily, and conf (a file of its own). */
const WATCHED_PACKAGES = [...(LAZY_PACKAGES as string[]), 'conf'];

/** Which module a file belongs to, as the tests name it: a lazy package or a lazy source file. */
const watchedName = (file: string): string | undefined => {
  const pkg = /node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(file)?.[1];
  if (pkg) return WATCHED_PACKAGES.includes(pkg) ? pkg : undefined;
  const source = file.slice(root.length);
  return LAZY_SOURCES.includes(source) ? source : undefined;
};

/**
 * Appends to each watched file a line that records its evaluation in globalThis.__monEvaluated:
 * the bundle is otherwise the one the build makes.
 */
const recordEvaluation: Plugin = {
  name: 'record-evaluation',
  setup(pluginBuild) {
    pluginBuild.onLoad({ filter: /\.(c?js|mjs|ts)$/ }, (args) => {
      const name = watchedName(args.path);
      if (!name) return undefined;
      const text = readFileSync(args.path, 'utf8');
      return {
        contents: `${text}\n;globalThis.__monEvaluated?.add(${JSON.stringify(name)});\n`,
        loader: args.path.endsWith('.ts') ? 'ts' : 'js',
        resolveDir: dirname(args.path),
      };
    });
  },
};

/**
 * Runs main() of `bundle` in a child process; what it evaluated, which built-in modules it loaded
 * and which packages left out of the bundle (EXTERNAL_PACKAGES) it required.
 */
async function probe(
  bundle: string,
  argv: string[],
  env: Record<string, string> = {},
): Promise<{ code: number; evaluated: string[]; builtins: string[]; external: string[] }> {
  const script = `
    globalThis.__monEvaluated = new Set();
    const sink = { write: () => true };
    require(${JSON.stringify(bundle)}).main(${JSON.stringify(argv)}, { io: { stdout: sink, stderr: sink, stdin: process.stdin }, env: process.env }).then((code) => {
      const builtins = process.moduleLoadList.filter((m) => m.startsWith('NativeModule ')).map((m) => m.slice('NativeModule '.length));
      const external = [...new Set(Object.keys(require.cache).filter((f) => f.includes('/node_modules/')).map((f) => f.split('/node_modules/').at(-1).split('/')[0]))];
      process.stdout.write(JSON.stringify({ code, evaluated: [...globalThis.__monEvaluated], builtins, external }));
      process.exit(0);
    });`;
  // NODE_PATH: the test's bundle is not beside node_modules, where bin/mon finds the external packages.
  const { stdout } = await run(process.execPath, ['-e', script], {
    env: {
      PATH: process.env.PATH ?? '',
      HOME: tempConfigDir(),
      MON_CONFIG_DIR: tempConfigDir(),
      NODE_PATH: join(root, 'node_modules'),
      ...env,
    },
  });
  return JSON.parse(stdout) as { code: number; evaluated: string[]; builtins: string[]; external: string[] };
}

describe('the bundle', () => {
  let outdir: string;
  let bundle: string;
  let meta: Metafile;

  beforeAll(async () => {
    outdir = mkdtempSync(join(tmpdir(), 'mon-perf-'));
    bundle = join(outdir, 'mon.cjs');
    const options = buildOptions({ outfile: bundle, version: '0.0.0-test' });
    const result = await build({
      ...options,
      plugins: [...options.plugins, recordEvaluation],
      absWorkingDir: root,
      metafile: true,
      logLevel: 'silent',
    });
    meta = result.metafile!;
    await build({
      ...workerBuildOptions({ outfile: join(outdir, JQ_WORKER_NAME as string) }),
      absWorkingDir: root,
      logLevel: 'silent',
    });
    for (const { file, entry } of SEPARATE_FILES as { file: string; entry: string }[]) {
      const separate = separateBuildOptions({ entry, outfile: join(outdir, file) });
      await build({ ...separate, plugins: [recordEvaluation], absWorkingDir: root, logLevel: 'silent' });
    }
  });
  afterAll(() => rmSync(outdir, { recursive: true, force: true }));

  it('holds the heavy packages, and no import() (each would start Node’s ES module loader)', () => {
    const inputs = Object.keys(meta.inputs);
    for (const name of LAZY_PACKAGES as string[])
      expect(
        inputs.some((file) => watchedName(join(root, file)) === name),
        name,
      ).toBe(true);
    expect(readFileSync(bundle, 'utf8')).not.toMatch(/\bimport\(/);
  });

  it('leaves the sandbox and conf (with its validator) to files of their own, which a plain request never reads', async () => {
    const inputs = Object.keys(meta.inputs);
    expect(inputs.filter((file) => /^src\/sandbox\/|node_modules\/(conf|ajv|ajv-formats|semver)\//.test(file))).toEqual(
      [],
    );
    for (const { file } of SEPARATE_FILES as { file: string }[])
      expect(readFileSync(bundle, 'utf8')).toContain(`require("./${file}")`);
    const api = await startFakeApi(computersPage(5));
    try {
      const { code, external, evaluated } = await probe(bundle, ['computers', 'list', '--json'], {
        MON_BASE_URL: api.url,
        MON_API_KEY: 'k_perf',
        MON_CONFIG_DIR: tempDir('mon-perf-config-'),
      });
      expect(code).toBe(0);
      expect(external).toEqual([]);
      expect(evaluated).not.toContain('src/sandbox/server.ts');
    } finally {
      await api.close();
    }
    // --sandbox reads the sandbox's file, and it runs.
    const sandboxRun = await probe(bundle, ['--sandbox', 'groups', 'list', '--count'], {
      MON_CONFIG_DIR: tempDir('mon-perf-config-'),
    });
    expect(sandboxRun.code).toBe(0);
    expect(sandboxRun.evaluated).toContain('src/sandbox/server.ts');
  });

  it('is Latin-1 text, so V8 holds its source in one byte a character', () => {
    // One character past U+00FF (esbuild escapes them in strings but not in regular expressions:
    // write `\u2014`, not '—', in a regex) makes the whole source two bytes a character, which
    // every start then reads, hashes and scans at twice the cost.
    const wide = [...readFileSync(join(root, 'dist', 'mon.cjs'), 'utf8')].filter((ch) => ch.codePointAt(0)! > 0xff);
    expect(wide).toEqual([]);
  });

  it('help evaluates none of the heavy packages and loads no network, crypto or process module', async () => {
    const { code, evaluated, builtins, external } = await probe(bundle, ['computers', '--help']);
    expect(code).toBe(0);
    expect(evaluated).toEqual([]);
    expect(external).toEqual([]);
    // node:fs/promises (with readline's interface) costs a start about 18 M instructions.
    for (const name of ['http', 'http2', 'tls', 'crypto', 'child_process', 'fs/promises'])
      expect(builtins, name).not.toContain(name);
  });

  it('one request evaluates undici and zod only, and no child_process', async () => {
    const api = await startFakeApi(computersPage(50));
    try {
      const dir = tempDir('mon-perf-config-');
      const { code, evaluated, builtins, external } = await probe(bundle, ['computers', 'list', '--json'], {
        MON_BASE_URL: api.url,
        MON_API_KEY: 'k_perf',
        MON_CONFIG_DIR: dir,
      });
      expect(code).toBe(0);
      expect(api.requests).toHaveLength(1);
      expect(evaluated.sort()).toEqual(['undici', 'zod']);
      expect(external).toEqual([]);
      expect(builtins).toContain('net');
      expect(builtins).not.toContain('child_process');
      // undici's HTTP/2 client waits for its first use, and node:http (Node's own HTTP client and
      // server) is not loaded at all; nothing reads globalThis.Headers or fetch, whose first read
      // makes Node compile and run its own internal copy of undici.
      for (const name of ['http', 'http2', 'tls', 'internal/deps/undici/undici', 'fs/promises'])
        expect(builtins, name).not.toContain(name);
      // A table needs cli-table3 as well, --jq jq-wasm: the probe sees what a command loads later on.
      // Text of one-column characters is measured by its length: string-width (and the ICU
      // grapheme rules its load sets up) waits for text that needs it (src/output/width.ts).
      const table = await probe(bundle, ['computers', 'list'], {
        MON_BASE_URL: api.url,
        MON_API_KEY: 'k_perf',
        MON_CONFIG_DIR: dir,
      });
      expect(table.evaluated).toContain('cli-table3');
      expect(table.evaluated).not.toContain('string-width');
      // --jq: jq-wasm is loaded by the worker thread, never by the main one.
      const jq = await probe(bundle, ['computers', 'list', '--jq', 'length'], {
        MON_BASE_URL: api.url,
        MON_API_KEY: 'k_perf',
        MON_CONFIG_DIR: dir,
      });
      expect(jq.code).toBe(0);
      expect(jq.external).toEqual([]);
      expect(jq.builtins).toContain('worker_threads');
    } finally {
      await api.close();
    }
  });

  it('a table loads string-width for text that is not all one-column characters, and only then', async () => {
    let name = 'Zoë’s MacBook – office';
    const api = await startFakeApi((_req, res) => {
      json(res, 200, [{ uid: 'c_1', client_id: 'client-1', computer_name: name, platform: 'mac' }], {
        'x-page': '1',
        'x-per-page': '50',
        'x-total': '1',
        'x-total-pages': '1',
      });
    });
    try {
      const env = { MON_BASE_URL: api.url, MON_API_KEY: 'k_perf', MON_CONFIG_DIR: tempDir('mon-perf-config-') };
      const latin = await probe(bundle, ['computers', 'list'], env);
      expect(latin.code).toBe(0);
      expect(latin.evaluated).not.toContain('string-width');
      name = '東京オフィス';
      const wide = await probe(bundle, ['computers', 'list'], env);
      expect(wide.code).toBe(0);
      expect(wide.evaluated).toContain('string-width');
    } finally {
      await api.close();
    }
  });

  it('bin/mon, loading the bundle and sending a request, loads neither node:module nor node:http', async () => {
    const api = await startFakeApi(computersPage(5));
    const dir = tempDir('mon-perf-config-');
    const record = join(dir, 'builtins.json');
    const preload = join(dir, 'record.cjs');
    writeFileSync(
      preload,
      `process.on('exit', () => require('node:fs').writeFileSync(${JSON.stringify(record)}, JSON.stringify(process.moduleLoadList)));`,
    );
    try {
      const env = {
        PATH: process.env.PATH ?? '',
        HOME: dir,
        TMPDIR: dir,
        MON_CONFIG_DIR: dir,
        MON_BASE_URL: api.url,
        MON_API_KEY: 'k_perf',
      };
      const { stdout } = await run(process.execPath, ['--require', preload, MON_BIN, 'computers', 'list', '--json'], {
        env,
      });
      expect(JSON.parse(stdout)).toHaveLength(5);
      const builtins = (JSON.parse(readFileSync(record, 'utf8')) as string[])
        .filter((m) => m.startsWith('NativeModule '))
        .map((m) => m.slice('NativeModule '.length));
      expect(builtins).toContain('net');
      for (const name of ['module', 'http']) expect(builtins, name).not.toContain(name);
    } finally {
      await api.close();
    }
  });

  it('a command that only reads a saved profile reads config.json without conf; one that saves it loads conf', async () => {
    const api = await startFakeApi(computersPage(5));
    try {
      const dir = tempDir('mon-perf-config-');
      chmodSync(dir, 0o700);
      writeFileSync(
        join(dir, 'config.json'),
        JSON.stringify({ defaultProfile: 'acme', profiles: { acme: { baseUrl: api.url, apiKey: 'k_perf' } } }),
        { mode: 0o600 },
      );
      for (const argv of [
        ['computers', 'list', '--json'],
        ['profile', 'list'],
        ['profile', 'show'],
        ['--profiles', 'acme', 'computers', 'list'],
      ]) {
        const { code, evaluated } = await probe(bundle, argv, { MON_CONFIG_DIR: dir });
        expect(code, argv.join(' ')).toBe(0);
        expect(evaluated, argv.join(' ')).not.toContain('conf');
        expect(evaluated, argv.join(' ')).not.toContain('src/config/store.ts');
      }
      expect(api.requests.length).toBeGreaterThanOrEqual(2);
      expect((await probe(bundle, ['profile', 'use', 'acme'], { MON_CONFIG_DIR: dir })).evaluated).toContain('conf');
    } finally {
      await api.close();
    }
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

/** A copy of bin/ beside package.json, with only the dist/ files named: what a run needs shows. */
function copyOfMon(distFiles: string[]): { bin: string; remove: () => void } {
  const dir = tempDir('mon-bin-');
  mkdirSync(join(dir, 'bin'));
  mkdirSync(join(dir, 'dist'));
  for (const file of readdirSync(join(root, 'bin'))) copyFileSync(join(root, 'bin', file), join(dir, 'bin', file));
  copyFileSync(join(root, 'package.json'), join(dir, 'package.json'));
  for (const file of distFiles) copyFileSync(join(root, 'dist', file), join(dir, 'dist', file));
  return { bin: join(dir, 'bin', 'mon'), remove: () => rmSync(dir, { recursive: true, force: true }) };
}

describe('bin/mon --version and the root help', () => {
  const { version } = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { version: string };
  // A home and config folder of the test's own: the machine's temporary folder may hold another
  // user's .config, which mon rightly refuses.
  const quiet = { env: { PATH: process.env.PATH ?? '', HOME: tempConfigDir(), MON_CONFIG_DIR: tempConfigDir() } };

  it.each(['--version', '-V'])('%s prints the package version without the bundle', async (flag) => {
    const copy = copyOfMon([]);
    try {
      const { stdout } = await run(process.execPath, [copy.bin, flag], quiet);
      expect(stdout).toBe(`${version}\n`);
    } finally {
      copy.remove();
    }
  });

  it('prints what the full program prints for --version (same source: package.json)', async () => {
    let out = '';
    const io = {
      stdout: { write: (s: string) => ((out += s), true) },
      stderr: { write: () => true },
      stdin: process.stdin,
    };
    const code = await main(['--version'], { io: io as never, env: {} });
    expect(code).toBe(0);
    // From source the bundle's define is absent; the built bundle replaces it with package.json's version.
    expect(out).toMatch(/^\S+\n$/);
    const { stdout } = await run(process.execPath, [MON_BIN, '--version', '--quiet'], quiet);
    expect(stdout).toBe(`${version}\n`);
  });

  it('the help the build saved is what the program prints for --help', async () => {
    let out = '';
    const io = {
      stdout: { write: (s: string) => ((out += s), true) },
      stderr: { write: () => true },
      stdin: process.stdin,
    };
    expect(await main(['--help'], { io: io as never, env: {} })).toBe(0);
    expect(readFileSync(join(root, 'dist', 'help.txt'), 'utf8')).toBe(out);
  });

  it.each([[[]], [['--help']], [['-h']]])(
    'mon %j prints the saved help without the bundle, and the bundle prints the same',
    async (args) => {
      const saved = readFileSync(join(root, 'dist', 'help.txt'), 'utf8');
      const helpOnly = copyOfMon(['help.txt']);
      const bundleOnly = copyOfMon(['mon.cjs']);
      try {
        expect((await run(process.execPath, [helpOnly.bin, ...args], quiet)).stdout).toBe(saved);
        expect((await run(process.execPath, [bundleOnly.bin, ...args], quiet)).stdout).toBe(saved);
      } finally {
        helpOnly.remove();
        bundleOnly.remove();
      }
    },
  );

  it('without a build, a command says how to make one in a line (exit code 1), not a stack', async () => {
    const copy = copyOfMon([]);
    try {
      const error = await run(process.execPath, [copy.bin, 'computers', 'list'], quiet).then(
        () => undefined,
        (failure: { code: number; stderr: string }) => failure,
      );
      expect(error?.code).toBe(1);
      expect(error?.stderr).toMatch(/^mon: \S+dist\/mon\.cjs is missing: run `npm run build` in \S+\n$/);
    } finally {
      copy.remove();
    }
  });

  it.each([[['--help']], [['--sandbox', 'computers', 'list']]])(
    'mon %j on a full disk says so in one line, exit code 1',
    async (args) => {
      const full = openSync('/dev/full', 'w');
      try {
        const child = spawn(process.execPath, [MON_BIN, ...args], { ...quiet, stdio: ['ignore', full, 'pipe'] });
        let stderr = '';
        child.stderr!.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
        const code = await new Promise((resolve) => child.on('close', resolve));
        expect(code).toBe(1);
        expect(stderr).toMatch(/^mon: could not write to standard output: ENOSPC[^\n]*\n$/);
      } finally {
        closeSync(full);
      }
    },
  );
});
