'use strict';
// Loads dist/mon.cjs with its compiled code kept between runs, so that a command does not parse
// and compile the whole bundle again at every start (a cron job may run mon thousands of times
// a day). Node 22.1+ does this itself (module.enableCompileCache). Node 20 has no such switch,
// so there V8's code cache is used through vm.Script, the way Node's own cache works: one file
// per bundle and Node version, in a folder only this user can write. NODE_COMPILE_CACHE (the
// folder) and NODE_DISABLE_COMPILE_CACHE=1 are honoured on every version.
// Nothing here may fail a command: without a usable cache the bundle is compiled as usual.
const fs = require('node:fs');
const path = require('node:path');
const Module = require('node:module');

/** The bundle's exports. */
exports.loadBundle = function loadBundle(file, env = process.env) {
  if (typeof Module.enableCompileCache === 'function') {
    Module.enableCompileCache();
    return require(file);
  }
  return loadWithCodeCache(file, env);
};

/** Node 20's way, exported for the tests, which run it on every Node version. */
exports.loadWithCodeCache = loadWithCodeCache;

function loadWithCodeCache(file, env) {
  const source = fs.readFileSync(file, 'utf8');
  const cacheFile = cacheFileFor(file, env);
  const cachedData = cacheFile && readQuietly(cacheFile);
  const vm = require('node:vm');
  const script = new vm.Script(`(function (exports, require, module, __filename, __dirname) {${source}\n})`, {
    filename: file,
    cachedData,
  });
  const bundle = { exports: {} };
  script.runInThisContext().call(bundle.exports, bundle.exports, require, bundle, file, path.dirname(file));
  // Made right after loading, before a command changes V8 flags: V8 refuses a cache made under
  // other flags (undici's client turns on --liftoff-only).
  if (cacheFile && (!cachedData || script.cachedDataRejected)) writeQuietly(cacheFile, script.createCachedData());
  return bundle.exports;
}

/**
 * `<folder>/mon-<node version>-<arch>-<bundle size>-<bundle mtime>.cache`, or undefined when
 * caching is off or the folder is not this user's alone (another user could plant code there).
 */
function cacheFileFor(file, env) {
  if (env.NODE_DISABLE_COMPILE_CACHE) return undefined;
  try {
    const uid = typeof process.getuid === 'function' ? process.getuid() : undefined;
    const dir = env.NODE_COMPILE_CACHE || path.join(require('node:os').tmpdir(), `mon-compile-cache${uid === undefined ? '' : `-${uid}`}`);
    fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
    const folder = fs.lstatSync(dir);
    if (!folder.isDirectory() || (uid !== undefined && (folder.uid !== uid || (folder.mode & 0o022) !== 0))) return undefined;
    const bundle = fs.statSync(file);
    return path.join(dir, `mon-${process.version}-${process.arch}-${bundle.size}-${Math.trunc(bundle.mtimeMs)}.cache`);
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
