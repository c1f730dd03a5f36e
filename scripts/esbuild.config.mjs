// The esbuild options of dist/: shared by scripts/build.mjs and by the tests that check what
// start-up loads (test/perf), so both always see the same bundle.
import { createHash } from 'node:crypto';
import { createRequire } from 'node:module';
import { dirname } from 'node:path';
/** Packages only some commands need: bundled, but evaluated only when a command imports them. */
export const LAZY_PACKAGES = ['undici', 'zod', 'cli-table3', 'string-width', 'chalk'];

/**
 * Parts only a few commands need, each built into a file of its own in dist/ and required from
 * the bundle when first imported, so that a plain request neither reads nor caches their code:
 * the sandbox (`mon sandbox`, `--sandbox`), and conf with its JSON-schema validator (ajv, about
 * 180 KB), which only a command that saves a profile loads. Neither holds state the bundle
 * shares: the sandbox keeps its own copies of the few modules of src/config/ it uses.
 */
export const SEPARATE_FILES = [
  { file: 'sandbox.cjs', entry: 'src/sandbox/index.ts', imported: /(^|\/)sandbox\/index\.js$/ },
  { file: 'conf.cjs', entry: 'conf', imported: /^conf$/ },
];

/**
 * Packages left out of the bundle and required from node_modules when a command needs them:
 * jq-wasm (--jq) reads its jq.wasm beside its own files, and its 130 KB of loader would
 * otherwise be read by every command.
 */
export const EXTERNAL_PACKAGES = ['jq-wasm'];

/** The one file bin/mon loads, in dist/. */
export const BUNDLE_NAME = 'mon.cjs';

/** The --jq engine's worker thread (src/output/jq-worker.ts), in dist/ beside the bundle. */
export const JQ_WORKER_NAME = 'jq-worker.cjs';

/** What starts that worker (src/output/jq-engine.ts), on its own for bin/mon: it starts it before loading the bundle. */
export const JQ_ENGINE_NAME = 'jq-engine.cjs';

/** The root help saved by the build, in dist/: bin/mon prints it without loading the bundle. */
export const HELP_NAME = 'help.txt';

/**
 * The bundle's text with its first line naming it by the hash of the rest: bin/load-bundle.cjs
 * keys its code cache by it (and caches only a bundle so named).
 */
export function stamped(text) {
  return `// mon build ${createHash('sha256').update(text).digest('hex').slice(0, 32)}\n${text}`;
}

/**
 * commander requires node:child_process at load time (≈4 ms: it pulls in net, dgram…) for
 * executable subcommands, which mon does not have. This hands it an object that loads the real
 * module on first use instead.
 */
const lazyChildProcess = {
  name: 'lazy-child-process',
  setup(build) {
    build.onResolve({ filter: /^(node:)?child_process$/ }, (args) =>
      /[\\/]node_modules[\\/]commander[\\/]/.test(args.importer)
        ? { path: 'child_process', namespace: 'lazy-builtin' }
        : undefined,
    );
    build.onLoad({ filter: /.*/, namespace: 'lazy-builtin' }, () => ({
      loader: 'js',
      contents: `let real;
module.exports = new Proxy({}, { get: (_, key) => (real ??= require('node:child_process'))[key] });`,
    }));
  },
};

/**
 * A plugin that hands undici, where it requires the built-in module `builtin`, a stand-in module
 * whose source is `contents` (its namespace, `lazy-<builtin>`, names it in the build's inputs).
 */
function undiciStandIn(builtin, contents) {
  const namespace = `lazy-${builtin}`;
  return {
    name: namespace,
    setup(build) {
      build.onResolve({ filter: new RegExp(`^(node:)?${builtin}$`) }, (args) =>
        /[\\/]node_modules[\\/]undici[\\/]/.test(args.importer) ? { path: builtin, namespace } : undefined,
      );
      build.onLoad({ filter: /.*/, namespace }, () => ({ loader: 'js', contents }));
    },
  };
}

/**
 * undici checks its invariants with `assert(value)` from node:assert, which costs a request about
 * 19 M instructions to load (Node 22: node:assert and six internal modules of its own) although
 * no assertion fails. Here undici gets a function that loads node:assert only when one does.
 * undici calls assert as a plain function only: test/api/undici-layout.test.ts fails otherwise.
 */
const lazyAssert = undiciStandIn(
  'assert',
  `module.exports = function assert(value, message) { if (!value) require('node:assert')(value, message); };`,
);

/** Node's default --max-http-header-size (16 KiB on Node 20, 22 and 24): test/api/undici-layout.test.ts checks it. */
export const NODE_MAX_HEADER_SIZE = 16_384;

/**
 * undici requires node:http when it loads, and with it Node's HTTP client and server: nine
 * built-in modules, about 7 M instructions of every request, for two values a request of mon's
 * never needs from there:
 * - lib/core/util.js compares a body's constructor with IncomingMessage before destroying it (a
 *   request a Node server received, piped on by a proxy); mon's bodies are strings, never that;
 * - lib/dispatcher/client.js reads http.maxHeaderSize when it loads, the default of its
 *   maxHeaderSize option: Node's --max-http-header-size, 16 KiB unless that option is given.
 * Here undici gets a stand-in: an IncomingMessage no object is made by, and that size, read from
 * node:http only when the option is given (command line or NODE_OPTIONS). undici's own layout:
 * test/api/undici-layout.test.ts checks the two files and what they read.
 */
const lazyHttp = undiciStandIn(
  'http',
  `const given = [...process.execArgv, ...(process.env.NODE_OPTIONS ?? '').split(/\\s+/)].some((arg) => arg.startsWith('--max-http-header-size'));
module.exports = {
  IncomingMessage: class NotAnIncomingMessage {},
  get maxHeaderSize() { return given ? require('node:http').maxHeaderSize : ${NODE_MAX_HEADER_SIZE}; },
};`,
);

/** The imports of SEPARATE_FILES, left to a require() of their file in dist/ (beside the bundle). */
const separateFiles = {
  name: 'separate-files',
  setup(build) {
    for (const { file, imported } of SEPARATE_FILES) {
      build.onResolve({ filter: imported }, (args) =>
        /[\\/]src[\\/]sandbox[\\/]/.test(args.importer) ? undefined : { path: `./${file}`, external: true },
      );
    }
  },
};

/** What every file of dist/ is: one minified CommonJS file each, the external packages left out. */
const COMMON = {
  bundle: true,
  format: 'cjs',
  platform: 'node',
  target: 'node20',
  minify: true,
  external: EXTERNAL_PACKAGES,
  logLevel: 'warning',
};

/**
 * undici's HTTP/1.1 client requires its HTTP/2 client when it loads, and with it node:http2
 * (6–9 ms). mon never asks for HTTP/2 (no `allowH2`), so the HTTP/2 client is evaluated on first
 * use instead. undici's own layout: test/api/undici-layout.test.ts checks the file and the call.
 */
const lazyHttp2Client = {
  name: 'lazy-http2-client',
  setup(build) {
    build.onResolve({ filter: /^\.\/client-h2\.js$/ }, (args) =>
      /[\\/]undici[\\/]lib[\\/]dispatcher[\\/]client\.js$/.test(args.importer)
        ? { path: `${dirname(args.importer)}/client-h2.js`, namespace: 'lazy-h2' }
        : undefined,
    );
    build.onLoad({ filter: /.*/, namespace: 'lazy-h2' }, (args) => ({
      loader: 'js',
      resolveDir: dirname(args.path),
      contents: `module.exports = (...args) => require('./client-h2.js')(...args);`,
    }));
  },
};

/**
 * Options for the build of src/main.ts into one CommonJS file. One file, not ES module chunks:
 * CommonJS starts faster (no ES module linking, no facades for built-in modules); Node's compile
 * cache keeps its compiled code between runs (bin/mon turns it on). Dynamic
 * imports in src/ stay lazy: esbuild evaluates those modules when the import runs.
 */
export function buildOptions({ outfile, version }) {
  return {
    ...COMMON,
    entryPoints: ['src/main.ts'],
    outfile,
    // import() of a built-in becomes require(): an import() would start Node's ES module loader.
    supported: { 'dynamic-import': false },
    // __MON_DIST__: the bundle's folder, where src/output/jq.ts finds the worker.
    define: { __MON_VERSION__: JSON.stringify(version), __MON_DIST__: '__dirname' },
    plugins: [lazyChildProcess, lazyHttp2Client, lazyAssert, lazyHttp, separateFiles],
    // src/output/jq.ts finds the worker through import.meta.url only when the sources run.
    logOverride: { 'empty-import-meta': 'silent' },
  };
}

/**
 * Options for the build of the --jq worker (src/output/jq-worker.ts), written beside the bundle.
 * jq-wasm's loader is bundled in: the file is stamped and loaded with a code cache, as the
 * bundle is (bin/jq-worker.cjs); jq.wasm is read from the package, where it is.
 */
export function workerBuildOptions({ outfile }) {
  return {
    ...COMMON,
    // Its names kept: the worker finds the system calls it wraps by their function names.
    minify: false,
    minifyWhitespace: true,
    external: ['jq-wasm/jq.wasm'],
    plugins: [jqWasmCommonJs],
    entryPoints: ['src/output/jq-worker.ts'],
    outfile,
  };
}

/**
 * jq-wasm's CommonJS build, the file Node requires: its ES module build finds itself through
 * import.meta.url, which a CommonJS bundle has not.
 */
const jqWasmCommonJs = {
  name: 'jq-wasm-commonjs',
  setup(build) {
    build.onResolve({ filter: /^jq-wasm$/ }, () => ({ path: createRequire(import.meta.url).resolve('jq-wasm') }));
  },
};

/** Options for the build of one of SEPARATE_FILES into `outfile`. */
export function separateBuildOptions({ entry, outfile }) {
  return entry.startsWith('src/')
    ? { ...COMMON, entryPoints: [entry], outfile }
    : // A package of one default export (conf's class): module.exports is it, as the bundle, which
      // requires externals as Node does, takes a default import.
      {
        ...COMMON,
        stdin: { contents: `module.exports = require('${entry}').default;`, resolveDir: '.', loader: 'js' },
        outfile,
      };
}

/** Options for the build of what starts the --jq worker (src/output/jq-engine.ts), for bin/mon. */
export function engineBuildOptions({ outfile }) {
  return { ...COMMON, entryPoints: ['src/output/jq-engine.ts'], outfile };
}
