'use strict';
// Loads dist/mon.cjs with its compiled code kept between runs, so that a command does not parse
// and compile the bundle again at every start (a cron job may run mon thousands of times a day);
// the --jq worker thread loads dist/jq-worker.cjs the same way (bin/jq-worker.cjs).
// This is V8's code cache through vm.Script, as Node's own compile cache uses it, with one
// difference that pays: Node's (module.enableCompileCache, 22.1+) keeps only what V8 compiled when
// the module loaded; this one is written after a run, so it also holds the functions the command
// compiled on the way (the command line parser, the HTTP client, the output). It works on Node 20
// as well, which has no compile cache of its own. Measured with callgrind, `mon computers list
// --json` against the sandbox on Node 22 / 24: 236 M / 232 M instructions with this cache, 341 M /
// 341 M with Node's compile cache instead, 411 M / 422 M with none. It uses vm.Script's documented
// cachedData, no private layout.
//
// One file per bundle and Node version, in a folder of this user's alone (tmpdir, or
// NODE_COMPILE_CACHE when set); NODE_DISABLE_COMPILE_CACHE=1 turns it off. Nothing here may fail
// a command: without a usable cache the bundle is compiled as usual.
const fs = require('node:fs');
const path = require('node:path');

/** How many runs add what they compiled to a new cache before it is left as it is. */
const RUNS_PER_CACHE = 4;

/** The bundle's first line when the build stamped it: `// mon build <hash of the rest>`. */
const STAMP = /^\/\/ mon build ([0-9a-f]{16,64})\n/;

/** Writes the code cache once the command is done; see saveCodeCache(). */
let saveWhenDone;

/**
 * Call when the command is done, or once a command of many requests has run its work once
 * (bin/mon): a cache made then holds the functions the run compiled, not only the bundle's top
 * level, and not yet what a long run's hot loops tell V8 to tier up early. Only the first call
 * of a run writes. `late`: the run is past that point without having written (a long `--all
 * --jq`, whose worker had V8's flags changed then), so what V8 decided in its hot loops is in
 * what it compiled: such a cache is written only where none was taken (a later one-request run
 * took about 10 M instructions more with one made at the end of `--all --jq`).
 */
exports.saveCodeCache = function saveCodeCache({ late = false } = {}) {
  const save = saveWhenDone;
  saveWhenDone = undefined;
  save?.(late);
};

/** The bundle's exports. */
exports.loadBundle = function loadBundle(file, env = process.env) {
  const source = fs.readFileSync(file, 'utf8');
  const cacheFile = cacheFileFor(source, env);
  // The file: one byte that counts the runs whose work it holds, then V8's data.
  const saved = cacheFile && readOwnFile(cacheFile);
  const runs = saved && saved.length > 1 ? saved[0] : 0;
  const vm = require('node:vm');
  const script = new vm.Script(`(function (exports, require, module, __filename, __dirname) {${source}\n})`, {
    filename: file,
    cachedData: runs > 0 ? saved.subarray(1) : undefined,
  });
  const bundle = { exports: {}, filename: file };
  // What the bundle requires: Node's built-in modules, and its separate files beside it
  // (`./conf.cjs`, `./sandbox.cjs`), found from its folder; a package is found from bin/ as from
  // dist/, in the same node_modules. Not node:module's createRequire(), whose module costs every
  // run about 4 M instructions to load.
  const dir = path.dirname(file);
  const found = (id) => (id.startsWith('./') ? path.join(dir, id) : id);
  const bundleRequire = (id) => require(found(id));
  // The --jq worker finds jq-wasm's jq.wasm with require.resolve().
  bundleRequire.resolve = (id) => require.resolve(found(id));
  script.runInThisContext().call(bundle.exports, bundle.exports, bundleRequire, bundle, file, dir);
  // V8 rejects a cache made by another V8, under other flags, or for another source: it then
  // compiles as usual, and this run writes a new one.
  const taken = runs > 0 && !script.cachedDataRejected;
  if (cacheFile && (!taken || runs < RUNS_PER_CACHE)) {
    saveWhenDone = (late) => {
      if (late && taken) return;
      writeWhole(cacheFile, Buffer.concat([Buffer.of(taken ? runs + 1 : 1), script.createCachedData()]));
      pruneQuietly(path.dirname(cacheFile), cacheFile);
    };
  }
  return bundle.exports;
};

/**
 * The folder of the code cache: NODE_COMPILE_CACHE, else `<tmpdir>/mon-code-cache-<uid>`. Undefined
 * when caching is off, or when the folder is not this user's alone: a cache is code this process
 * runs, so one another user could write is never read.
 */
function cacheDir(env) {
  if (env.NODE_DISABLE_COMPILE_CACHE) return undefined;
  const uid = typeof process.getuid === 'function' ? process.getuid() : undefined;
  const dir =
    env.NODE_COMPILE_CACHE ||
    path.join(require('node:os').tmpdir(), `mon-code-cache${uid === undefined ? '' : `-${uid}`}`);
  try {
    fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
    const stat = fs.lstatSync(dir);
    return stat.isDirectory() && ownedByMe(stat, uid) ? dir : undefined;
  } catch {
    return undefined;
  }
}
exports.cacheDir = cacheDir;

/** Owned by this user and writable by no one else (where the system has owners). */
function ownedByMe(stat, uid) {
  return uid === undefined || (stat.uid === uid && (stat.mode & 0o022) === 0);
}

/**
 * `<folder>/mon-<node version>-<arch>-<bundle hash>.cache`. Only a bundle the build stamped with
 * the hash of its text is cached: V8 checks a cache against the length of the source alone, and
 * a new release can be as long as the last.
 */
function cacheFileFor(source, env) {
  const hash = STAMP.exec(source.slice(0, 96))?.[1];
  const dir = hash && cacheDir(env);
  return dir ? path.join(dir, `mon-${process.version}-${process.arch}-${hash}.cache`) : undefined;
}

/** The file's bytes, when it is a regular file of this user's that no one else may write. */
function readOwnFile(file) {
  let fd;
  try {
    fd = fs.openSync(file, fs.constants.O_RDONLY | (fs.constants.O_NOFOLLOW ?? 0));
    const stat = fs.fstatSync(fd);
    const uid = typeof process.getuid === 'function' ? process.getuid() : undefined;
    if (!stat.isFile() || !ownedByMe(stat, uid)) return undefined;
    return fs.readFileSync(fd);
  } catch {
    return undefined;
  } finally {
    if (fd !== undefined) fs.closeSync(fd);
  }
}

/** Written whole under another name and renamed, so a run started meanwhile never reads half. */
function writeWhole(file, data) {
  const partial = `${file}.${process.pid}.partial`;
  try {
    fs.writeFileSync(partial, data, { mode: 0o600, flag: 'wx' });
    fs.renameSync(partial, file);
  } catch {
    try {
      fs.rmSync(partial, { force: true });
    } catch {
      // nothing to remove
    }
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
