// The esbuild options of dist/: shared by scripts/build.mjs and by the tests that check what
// the start-up chunk contains (test/perf), so both always see the same bundle.

/** Packages only some commands need: never in the chunk every run loads. */
export const LAZY_PACKAGES = ['undici', 'zod', 'conf', 'cli-table3', 'chalk'];

/**
 * commander requires node:child_process at load time (≈4 ms: it pulls in net, dgram…) for
 * executable subcommands, which mon does not have. This hands it an object that loads the real
 * module on first use instead.
 */
const lazyChildProcess = {
  name: 'lazy-child-process',
  setup(build) {
    build.onResolve({ filter: /^(node:)?child_process$/ }, (args) =>
      /[\\/]node_modules[\\/]commander[\\/]/.test(args.importer) ? { path: 'child_process', namespace: 'lazy-builtin' } : undefined,
    );
    build.onLoad({ filter: /.*/, namespace: 'lazy-builtin' }, () => ({
      loader: 'js',
      contents: `let real;
module.exports = new Proxy({}, { get: (_, key) => (real ??= require('node:child_process'))[key] });`,
    }));
  },
};

/** Bundled CommonJS packages (commander, cli-table3, undici) call require() for Node built-ins. */
export const REQUIRE_BANNER = "import { createRequire as __monRequire } from 'node:module'; const require = __monRequire(import.meta.url);";

/** Options for one build of src/main.ts into `outdir`. */
export function buildOptions({ outdir, version }) {
  return {
    entryPoints: { mon: 'src/main.ts' },
    outdir,
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    minify: true,
    chunkNames: 'chunks/[name]-[hash]',
    define: { __MON_VERSION__: JSON.stringify(version) },
    banner: { js: REQUIRE_BANNER },
    plugins: [lazyChildProcess],
    logLevel: 'warning',
  };
}
