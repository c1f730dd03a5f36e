'use strict';
// Loads dist/mon.cjs with its compiled code kept between runs, so that a command does not parse
// and compile the whole bundle again at every start (a cron job may run mon thousands of times
// a day). This is V8's code cache through vm.Script, as Node's own compile cache uses it, with
// one difference that pays: Node's (module.enableCompileCache, 22.1+) keeps what was compiled
// when the module loaded; this one is written at the end of the first few runs and so also
// holds what the commands compiled on the way. `computers list` on Node 22: about 84 ms against
// 110 ms with Node's. One file per bundle and Node version, in a folder only this user can
// write; NODE_COMPILE_CACHE (the folder) and NODE_DISABLE_COMPILE_CACHE=1 are honoured.
// Nothing here may fail a command: without a usable cache the bundle is compiled as usual.
const fs = require('node:fs');
const path = require('node:path');

/**
 * undici parses HTTP with a WebAssembly build of llhttp, compiled anew in every process; V8's
 * optimising tier compiles it again in the background and the process waits for that at exit.
 * The baseline compiler is plenty for a command line. Set here, before anything is compiled,
 * and nowhere else (V8 also takes a code cache only under the flags it was made with).
 */
const BUNDLE_V8_FLAGS = ['--liftoff-only'];

/** How many runs add what they compiled to a new cache before it is left as it is. */
const RUNS_PER_CACHE = 5;

/** Writes the code cache once the command is done; see saveCompileCache(). */
let saveWhenDone;

/**
 * Call when the command is done: a cache made then also holds the functions the run compiled
 * on the way (the command line parser, the HTTP client…), not only the bundle's top.
 */
exports.saveCompileCache = function saveCompileCache() {
  saveWhenDone?.();
  saveWhenDone = undefined;
};

/** The bundle's exports. */
exports.loadBundle = function loadBundle(file, env = process.env) {
  const v8 = require('node:v8');
  for (const flag of BUNDLE_V8_FLAGS) v8.setFlagsFromString(flag);
  const source = fs.readFileSync(file, 'utf8');
  const cacheFile = cacheFileFor(file, source, env);
  // The file: one byte that counts the runs it holds the work of, then V8's data.
  const saved = cacheFile && readQuietly(cacheFile);
  const runs = saved && saved.length > 1 ? saved[0] : 0;
  const vm = require('node:vm');
  const script = new vm.Script(`(function (exports, require, module, __filename, __dirname) {${source}\n})`, {
    filename: file,
    cachedData: runs > 0 ? saved.subarray(1) : undefined,
  });
  const bundle = { exports: {} };
  script.runInThisContext().call(bundle.exports, bundle.exports, require, bundle, file, path.dirname(file));
  // A cache holds what the runs that made it compiled: the first run's alone would leave a
  // later command compiling its own part every time (a first `profile add` knows no HTTP
  // client). So the first few runs each save it again, adding theirs (≈10 ms each, once).
  const taken = runs > 0 && !script.cachedDataRejected;
  if (cacheFile && (!taken || runs < RUNS_PER_CACHE)) {
    saveWhenDone = () => {
      writeQuietly(cacheFile, Buffer.concat([Buffer.of(taken ? runs + 1 : 1), script.createCachedData()]));
      pruneQuietly(path.dirname(cacheFile), cacheFile);
    };
  }
  return bundle.exports;
}

/**
 * `<folder>/mon-<node version>-<arch>-<bundle>.cache`, or undefined when caching is off or the
 * folder is not this user's alone (another user could plant code there). The bundle is named by
 * the stamp the build puts on its first line (`// mon build <hash of the rest>`), else by its
 * size and time: V8 checks a cache only against the length of the source, and a new release
 * can be as long as the last (a version bump), installed with the same file times.
 */
function cacheFileFor(file, source, env) {
  if (env.NODE_DISABLE_COMPILE_CACHE) return undefined;
  try {
    const uid = typeof process.getuid === 'function' ? process.getuid() : undefined;
    const dir = env.NODE_COMPILE_CACHE || path.join(require('node:os').tmpdir(), `mon-compile-cache${uid === undefined ? '' : `-${uid}`}`);
    fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
    const folder = fs.lstatSync(dir);
    if (!folder.isDirectory() || (uid !== undefined && (folder.uid !== uid || (folder.mode & 0o022) !== 0))) return undefined;
    const stamp = /^\/\/ mon build ([0-9a-f]{16})\n/.exec(source.slice(0, 64))?.[1];
    const stat = stamp ? undefined : fs.statSync(file);
    const bundle = stamp ?? `${stat.size}-${Math.trunc(stat.mtimeMs)}`;
    return path.join(dir, `mon-${process.version}-${process.arch}-${bundle}.cache`);
  } catch {
    return undefined;
  }
}

function readQuietly(file) {
  try {
    return fs.readFileSync(file);
  } catch {
    return undefined;
  }
}

/** Caches of earlier bundles or Node versions, a week after they were made. */
function pruneQuietly(dir, kept) {
  const weekAgo = Date.now() - 7 * 24 * 3600 * 1000;
  try {
    for (const name of fs.readdirSync(dir)) {
      const file = path.join(dir, name);
      if (!name.startsWith('mon-') || file === kept) continue;
      if (fs.lstatSync(file).mtimeMs < weekAgo) fs.rmSync(file, { force: true });
    }
  } catch {
    // another run pruned it first, or the folder went away
  }
}

/** Written whole under another name and renamed, so a run started meanwhile never reads half. */
function writeQuietly(file, data) {
  const partial = `${file}.${process.pid}.partial`;
  try {
    fs.writeFileSync(partial, data, { mode: 0o600 });
    fs.renameSync(partial, file);
  } catch {
    fs.rmSync(partial, { force: true });
  }
}
