// `npm run bench`: start-up and `--all` figures of mon, measured against a loopback sandbox
// holding 10,000 computers. A benchmark, not a test: it prints figures and whether each target
// holds, and exits 1 only when mon gives a wrong answer. Nothing beyond node and this repo.
//
//   npm run bench [-- --runs 40 --all-runs 7 --no-build]
//
// Timings are wall times from spawn to exit of `node bin/mon …` (stdout to /dev/null), each
// command run in turn within a round so that load from other processes hits all alike; figures
// are medians [min … max]; ratios are of medians measured in this run.
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import { cpus, loadavg } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { build } from 'esbuild';
import { loadSandbox } from './bench/sandbox.mjs';
import { buildOptions } from './esbuild.config.mjs';
import { MEMORY_METHOD, run, stats } from './bench/measure.mjs';
import { measureFleet, reportFleet } from './bench/fleet.mjs';

const root = fileURLToPath(new URL('../', import.meta.url));
const MON = join(root, 'bin/mon');
const { values: flags } = parseArgs({
  options: {
    runs: { type: 'string', default: '40' },
    'all-runs': { type: 'string', default: '7' },
    'no-build': { type: 'boolean', default: false },
  },
});
const RUNS = Number(flags.runs);
const ALL_RUNS = Number(flags['all-runs']);
const BIG = 10_000;
const SMALL = 1_000;
const PER_PAGE = 100;

const TARGETS = { version: 1.3, help: 1.3, list: 2, all: 1.5, memoryMb: 10, jq: 1.3 };

const say = (line = '') => process.stdout.write(`${line}\n`);
const fail = (message) => {
  process.stderr.write(`bench: ${message}\n`);
  process.exitCode = 1;
};

// 1. A fresh bundle: figures of a stale dist/ would mislead.
if (!flags['no-build']) {
  const built = spawnSync(process.execPath, [join(root, 'scripts/build.mjs')], { cwd: root, stdio: 'inherit' });
  if (built.status !== 0) throw new Error('build failed');
}
const { version } = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));

// 2. Sandboxes in this process: 10,000 and 1,000 computers.
const sandboxes = await loadSandbox();
const big = await sandboxes.start(BIG);
const small = await sandboxes.start(SMALL);
const scratch = sandboxes.dir;
let dirs = 0;
const freshDir = () => mkdtempSync(join(scratch, `config-${dirs++}-`));

/**
 * The environment of one mon run: a clean one, like cron's. MON_CONFIG_DIR holds mon's rate
 * ledger (400 requests a minute, the API's budget): each `--all` run gets a fresh one, or the
 * runs of the benchmark would rightly wait for each other.
 */
const envFor = (sandbox, configDir) => ({
  PATH: process.env.PATH ?? '',
  HOME: scratch,
  MON_CONFIG_DIR: configDir,
  MON_BASE_URL: sandbox.url,
  MON_API_KEY: sandbox.apiKey,
});
const startupDir = freshDir();

const mon = (args, sandbox, options = {}) =>
  run(process.execPath, [MON, ...args], { env: envFor(sandbox, options.configDir ?? startupDir), scratch, ...options });

/** GETs the 100 pages one after another on one keep-alive connection: the sandbox's own time. */
async function serveAll(sandbox, total, { collect = false } = {}) {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  const uids = [];
  const started = process.hrtime.bigint();
  for (let page = 1; page <= Math.ceil(total / PER_PAGE); page++) {
    const url = `${sandbox.url}/v2.5/computers?page=${page}&per_page=${PER_PAGE}&api_key=${sandbox.apiKey}`;
    const body = await new Promise((resolve, reject) => {
      http
        .get(url, { agent }, (res) => {
          const chunks = [];
          res.on('data', (chunk) => chunks.push(chunk));
          res.on('end', () => (res.statusCode === 200 ? resolve(chunks) : reject(new Error(`sandbox answered ${res.statusCode}`))));
          res.on('error', reject);
        })
        .on('error', reject);
    });
    if (collect) uids.push(...JSON.parse(Buffer.concat(body).toString('utf8')).map((c) => c.uid));
  }
  const ms = Number(process.hrtime.bigint() - started) / 1e6;
  agent.destroy();
  return { ms, uids };
}

/**
 * A copy of bin/ whose bundle is `entry` (scripts/bench/one-request.cjs, all-pages.cjs): the same
 * work with undici and nothing else, loaded, cached and ended exactly as mon is.
 */
async function referenceMon(entry) {
  const dir = join(scratch, entry.replace(/\W/g, '-'));
  mkdirSync(join(dir, 'bin'), { recursive: true });
  for (const file of readdirSync(join(root, 'bin'))) copyFileSync(join(root, 'bin', file), join(dir, 'bin', file));
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ version }));
  const options = buildOptions({ outfile: join(dir, 'dist', 'mon.cjs'), version });
  await build({ ...options, entryPoints: [join(root, 'scripts/bench', entry)], absWorkingDir: root });
  return join(dir, 'bin', 'mon');
}
const ONE_REQUEST = await referenceMon('one-request.cjs');
const ALL_PAGES = await referenceMon('all-pages.cjs');

// 3. Right answers first: a fast wrong answer is no figure.
async function check() {
  const v = await mon(['--version'], big, { capture: true });
  if (v.code !== 0 || v.stdout !== `${version}\n`) fail(`mon --version printed ${JSON.stringify(v.stdout)} (exit ${v.code})`);
  const h = await mon(['--help'], big, { capture: true });
  if (h.code !== 0 || !h.stdout.startsWith('Usage: mon')) fail(`mon --help: exit ${h.code}`);
  const list = await mon(['computers', 'list', '--json'], big, { capture: true });
  if (list.code !== 0 || JSON.parse(list.stdout).length !== 50) fail(`computers list --json: exit ${list.code}, ${list.stderr.trim()}`);
  const alone = await run(process.execPath, [ONE_REQUEST], { env: envFor(big, startupDir), scratch, capture: true });
  if (alone.code !== 0 || alone.stdout !== list.stdout) fail(`the undici-only request printed other computers than mon: exit ${alone.code} ${alone.stderr.trim()}`);
  const { uids } = await serveAll(big, BIG, { collect: true });
  const nd = await mon(['computers', 'list', '--all', '-o', 'ndjson'], big, { capture: true, configDir: freshDir() });
  const ndUids = nd.stdout.trim().split('\n').map((line) => JSON.parse(line).uid);
  if (nd.code !== 0 || ndUids.join() !== uids.join()) fail(`--all -o ndjson: exit ${nd.code}, ${ndUids.length} computers, in order: ${ndUids.join() === uids.join()} ${nd.stderr.trim()}`);
  const allAlone = await run(process.execPath, [ALL_PAGES], { env: envFor(big, startupDir), scratch, capture: true });
  if (allAlone.code !== 0 || allAlone.stdout !== nd.stdout) fail(`the undici-only --all printed other lines than mon: exit ${allAlone.code} ${allAlone.stderr.trim()}`);
  const js = await mon(['computers', 'list', '--all', '--json'], big, { capture: true, configDir: freshDir() });
  let array = [];
  try {
    array = JSON.parse(js.stdout);
  } catch (error) {
    fail(`--all --json is not one valid JSON document: ${error.message}`);
  }
  if (js.code !== 0 || array.map((c) => c.uid).join() !== uids.join()) fail(`--all --json: exit ${js.code}, ${array.length} computers ${js.stderr.trim()}`);
  const jq = await mon(['computers', 'list', '--all', '--jq', 'length'], big, { capture: true, configDir: freshDir() });
  if (jq.code !== 0 || jq.stdout !== `${uids.length}\n`) fail(`--all --jq length: exit ${jq.code}, printed ${JSON.stringify(jq.stdout)} ${jq.stderr.trim()}`);
  say(`checked: --version, --help, list --json (50), --all ndjson and --json (${uids.length} computers, in page order)`);
}

const load = () => loadavg().map((l) => l.toFixed(2)).join(' ');
say(`mon ${version} benchmark: node ${process.version}, ${process.platform} ${process.arch}, ${cpus().length} CPUs, load ${load()}`);
await check();
if (process.exitCode) {
  await sandboxes.close();
  process.exit();
}

// 4. Start-up: each round runs every command once, starting at a different one each time.
// `node -e 0` is the baseline the targets name; an empty ES module file is shown beside it, as
// it starts a little slower than -e (the ESM loader), which is what bin/mon pays too.
const emptyModule = join(scratch, 'empty.mjs');
writeFileSync(emptyModule, '');
const startup = [
  // The same clean environment as mon's runs: NODE_EXTRA_CA_CERTS and the like change start-up.
  { key: 'node', label: 'node -e 0 (baseline)', go: () => run(process.execPath, ['-e', '0'], { scratch, env: envFor(big, startupDir) }) },
  { key: 'module', label: 'node empty.mjs (reference)', go: () => run(process.execPath, [emptyModule], { scratch, env: envFor(big, startupDir) }) },
  { key: 'version', label: 'mon --version', go: () => mon(['--version'], big) },
  { key: 'help', label: 'mon --help', go: () => mon(['--help'], big) },
  { key: 'list', label: 'mon computers list --json (1 request, 50 computers)', go: () => mon(['computers', 'list', '--json'], big) },
  // The same GET and output with undici and nothing else: how much of a request is undici's.
  { key: 'undici', label: 'the same GET with undici alone (reference)', go: () => run(process.execPath, [ONE_REQUEST], { scratch, env: envFor(big, startupDir) }) },
];
const times = Object.fromEntries(startup.map((s) => [s.key, []]));
for (let round = -3; round < RUNS; round++) {
  for (let i = 0; i < startup.length; i++) {
    const step = startup[(i + Math.max(round, 0)) % startup.length];
    const result = await step.go();
    if (result.code !== 0) fail(`${step.label}: exit ${result.code} ${result.stderr.trim()}`);
    if (round >= 0) times[step.key].push(result.ms);
  }
}

// 5. --all: the sandbox's own time for the 100 pages, then mon over 10,000 and 1,000 computers.
const all = { serve: [], alone: [], ndjson: [], json: [], jq: [], rss: { alone: [], ndjson: { [BIG]: [], [SMALL]: [] }, json: { [BIG]: [], [SMALL]: [] } } };
for (let round = -1; round < ALL_RUNS; round++) {
  const serve = await serveAll(big, BIG);
  const alone = await run(process.execPath, [ALL_PAGES], { env: envFor(big, startupDir), scratch, memory: true });
  if (alone.code !== 0) fail(`the undici-only --all: exit ${alone.code} ${alone.stderr.trim()}`);
  if (round >= 0) {
    all.alone.push(alone.ms);
    all.rss.alone.push(alone.rssMb);
  }
  for (const [format, args] of [['ndjson', ['-o', 'ndjson']], ['json', ['--json']]]) {
    for (const [sandbox, count] of [[big, BIG], [small, SMALL]]) {
      const result = await mon(['computers', 'list', '--all', ...args], sandbox, { memory: true, configDir: freshDir() });
      if (result.code !== 0) fail(`--all ${args.join(' ')} over ${count}: exit ${result.code} ${result.stderr.trim()}`);
      if (round < 0) continue;
      if (count === BIG) all[format].push(result.ms);
      all.rss[format][count].push(result.rssMb);
    }
  }
  // --jq over the whole array: jq (WebAssembly) parses the 24 MB that -o json would print.
  const jq = await mon(['computers', 'list', '--all', '--jq', 'length'], big, { configDir: freshDir() });
  if (jq.code !== 0) fail(`--all --jq length: exit ${jq.code} ${jq.stderr.trim()}`);
  if (round >= 0) all.jq.push(jq.ms);
  if (round >= 0) all.serve.push(serve.ms);
}
// 5b. The fleet commands (alerts, status) against the same sandboxes: scripts/bench/fleet.mjs.
const fleet = await measureFleet({ mon, sizes: [[big, BIG], [small, SMALL]], freshDir, runs: ALL_RUNS, fail });
await sandboxes.close();

// 6. The report.
const ms = (v) => `${v.toFixed(1)} ms`;
const row = (label, s, extra = '') => say(`  ${label.padEnd(54)} ${ms(s.median).padStart(10)}  [${s.min.toFixed(1)} … ${s.max.toFixed(1)}]${extra}`);
const verdict = (ratio, limit) => `${ratio.toFixed(2)}× (target ≤ ${limit}×: ${ratio <= limit ? 'holds' : 'MISSED'})`;
const results = { version, node: process.version, cpus: cpus().length, load: load(), runs: RUNS, allRuns: ALL_RUNS, memoryMethod: MEMORY_METHOD, targets: {} };

say();
say(`Start-up: ${RUNS} runs of each, interleaved; median [min … max]; ratio = median / median of node -e 0`);
const base = stats(times.node);
const reference = stats(times.module);
row(startup[0].label, base);
row(startup[1].label, reference, `  ${(reference.median / base.median).toFixed(2)}×`);
for (const step of startup.slice(2)) {
  const s = stats(times[step.key]);
  if (!TARGETS[step.key]) {
    row(step.label, s, `  ${(s.median / base.median).toFixed(2)}×; mon's list is ${(stats(times.list).median / s.median).toFixed(2)}× this`);
    results.references = { ...results.references, [step.key]: { ...s, ratio: s.median / base.median } };
    continue;
  }
  const ratio = s.median / base.median;
  row(step.label, s, `  ${verdict(ratio, TARGETS[step.key])}; ${(s.median / reference.median).toFixed(2)}× the empty module`);
  results.targets[step.key] = { ...s, ratio, ratioToEmptyModule: s.median / reference.median, target: TARGETS[step.key], holds: ratio <= TARGETS[step.key] };
}

say();
say(`--all over ${BIG.toLocaleString('en')} computers (${BIG / PER_PAGE} pages of ${PER_PAGE}): ${ALL_RUNS} runs; ratio = median / median of the sandbox's own time`);
const serve = stats(all.serve);
row('sandbox: 100 pages back to back, one keep-alive socket', serve);
for (const [key, label, target] of [['ndjson', 'mon computers list --all -o ndjson', TARGETS.all], ['json', 'mon computers list --all --json', undefined]]) {
  const s = stats(all[key]);
  const ratio = s.median / serve.median;
  row(label, s, `  ${target ? verdict(ratio, target) : `${ratio.toFixed(2)}× (no target)`}`);
  results.targets[`all-${key}`] = { ...s, ratio, target, holds: target ? ratio <= target : undefined };
}
const jqRun = stats(all.jq);
const jqRatio = jqRun.median / stats(all.json).median;
row("mon computers list --all --jq 'length'", jqRun, `  ${verdict(jqRatio, TARGETS.jq)} of --all --json`);
results.targets['all-jq'] = { ...jqRun, ratio: jqRatio, target: TARGETS.jq, holds: jqRatio <= TARGETS.jq };
// The same pages with undici alone: what fetching, parsing and printing them costs by itself.
const alone = stats(all.alone);
row('the same with undici alone (reference)', alone, `  ${(alone.median / serve.median).toFixed(2)}×; peak ${stats(all.rss.alone).median.toFixed(1)} MB, not held flat`);
results.references = { ...results.references, allPages: { ...alone, ratio: alone.median / serve.median, rssMb: stats(all.rss.alone) } };

say();
say(`Peak memory of mon --all (${MEMORY_METHOD}); median [min … max] MB`);
for (const key of ['ndjson', 'json']) {
  const at = (count) => stats(all.rss[key][count]);
  const a = at(SMALL);
  const b = at(BIG);
  const growth = b.median - a.median;
  const holds = Number.isFinite(growth) && growth <= TARGETS.memoryMb;
  say(
    `  --all ${key === 'json' ? '--json' : '-o ndjson'}`.padEnd(20) +
      `${SMALL.toLocaleString('en')}: ${a.median.toFixed(1)} [${a.min.toFixed(1)} … ${a.max.toFixed(1)}]   ` +
      `${BIG.toLocaleString('en')}: ${b.median.toFixed(1)} [${b.min.toFixed(1)} … ${b.max.toFixed(1)}]   ` +
      `growth ${growth.toFixed(1)} MB (target ≤ ${TARGETS.memoryMb} MB: ${holds ? 'holds' : 'MISSED'})`,
  );
  results.targets[`memory-${key}`] = { small: a, big: b, growth, target: TARGETS.memoryMb, holds };
}
say();
Object.assign(results.targets, reportFleet(fleet, say));
say();
say(`load at the end: ${load()}`);

results.samples = { startup: times, all, fleet: fleet.samples };
mkdirSync(join(root, '.bench'), { recursive: true });
const file = join(root, '.bench', `bench-${new Date().toISOString().replace(/[:.]/g, '-')}.json`);
writeFileSync(file, `${JSON.stringify(results, null, 2)}\n`);
say(`raw figures: ${file}`);
