// `npm run bench`: start-up, one request and `--all` figures of mon against loopback sandboxes,
// beside reference rows that do the same work without mon. The one-request row's yardstick is a
// plain Node program doing the same GET with node:http alone (scripts/bench/one-request-http.cjs);
// undici alone is shown beside it for information. A benchmark, not a test: it prints figures and
// whether each target holds, rewrites docs/benchmarks.md with them, and exits 1 only when mon
// gives a wrong answer. Nothing beyond Node and this repo (valgrind for --instructions).
//
//   npm run bench [-- --runs 30 --all-runs 5 --no-build --node /path/to/node … --instructions]
//   npm run bench -- --quick      start-up and one request only, 8 runs
//
// Each --node (repeatable; default: the node running this script) is measured in turn, and the
// report puts them side by side. Targets apply to Node 22 and later; older lines are printed
// beside them. Timings are wall times from spawn to exit (stdout to /dev/null), every command run
// in turn within a round so that load from other processes hits all alike; figures are medians
// [min … max]; ratios are of medians measured in the same run on the same Node.
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { loadSandbox } from './bench/sandbox.mjs';
import { referenceMon } from './bench/reference.mjs';
import { MEMORY_METHOD, run, stats } from './bench/measure.mjs';
import { measureFleet, reportFleet } from './bench/fleet.mjs';
import { measureAccounts, reportAccounts, startAccounts } from './bench/accounts.mjs';
import { measureChanges, reportChanges } from './bench/changes.mjs';
import { measureMute, reportMute } from './bench/mute.mjs';
import { measureOutputs, reportOutputs } from './bench/outputs.mjs';
import { measureSandboxWrites, reportSandboxWrites } from './bench/sandbox-writes.mjs';
import { measureExporter, reportExporter } from './bench/exporter.mjs';
import { measureSandboxLive, reportSandboxLive } from './bench/sandbox-live.mjs';

const root = fileURLToPath(new URL('../', import.meta.url));
const MON = join(root, 'bin/mon');
const { values: flags } = parseArgs({
  options: {
    runs: { type: 'string', default: '30' },
    'all-runs': { type: 'string', default: '5' },
    'no-build': { type: 'boolean', default: false },
    node: { type: 'string', multiple: true },
    quick: { type: 'boolean', default: false },
    instructions: { type: 'boolean', default: false },
  },
});
const QUICK = flags.quick;
const RUNS = QUICK && !process.argv.some((arg) => arg.startsWith('--runs')) ? 8 : Number(flags.runs);
const ALL_RUNS = Number(flags['all-runs']);
const NODES = (flags.node ?? [process.execPath]).map((file) => ({
  file,
  version: execFileSync(file, ['--version'], { encoding: 'utf8' }).trim(),
}));
const BIG = 10_000;
const HUGE = 50_000;
const SMALL = 1_000;
/** Callgrind runs of each program with --instructions, of which the median counts. */
const INSTRUCTION_SAMPLES = 5;

/** Ratios the targets allow; `of` names the row the ratio is taken against. */
const TARGETS = {
  version: { of: 'node', limit: 1.3 },
  help: { of: 'node', limit: 1.3 },
  list: { of: 'http', limit: 1.7 },
  listMemory: { of: 'rssHttp', limit: 1.25 },
  all: { of: 'allUndici', limit: 1.3 },
  jq: { of: 'json', limit: 1.3 },
  jqOne: { of: 'jsonOne', limit: 1.3 },
  table: { of: 'csv', limit: 1.5 },
  memory: { limit: 1.25 },
};
const targeted = (version) => Number(/^v(\d+)/.exec(version)?.[1]) >= 22;

/** Everything printed, also kept for docs/benchmarks.md. */
const printed = [];
const say = (line = '') => {
  printed.push(line);
  process.stdout.write(`${line}\n`);
};
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

// 2. Sandboxes in this process: 10,000 and 50,000 computers, 1,000 for the fleet commands, and
// three accounts of 3,000 for --all-profiles.
const sandboxes = await loadSandbox();
const big = await sandboxes.start(BIG);
// --quick needs the 10,000 alone.
const huge = QUICK ? undefined : await sandboxes.start(HUGE);
const small = QUICK ? undefined : await sandboxes.start(SMALL);
// Three accounts of 3,000 computers, each with its own key, for --all-profiles.
const accounts = QUICK ? undefined : await startAccounts(sandboxes);
// Its own account for the mutes, which change plugin results.
const muting = QUICK ? undefined : await sandboxes.start(SMALL);
const scratch = sandboxes.dir;
let dirs = 0;
const freshDir = () => mkdtempSync(join(scratch, `config-${dirs++}-`));

/**
 * The environment of one run: a clean one, like cron's. MON_CONFIG_DIR holds mon's rate ledger
 * (400 requests a minute, the API's budget): each `--all` run gets a fresh one, or the runs of
 * the benchmark would rightly wait for each other. The 500 pages of 50,000 computers are more
 * than a minute's budget: that row raises it (MON_RATE_LIMIT), as it measures memory. TMPDIR
 * keeps Node's compile cache (bin/mon turns it on) inside the benchmark's own folder.
 */
const envFor = (sandbox, configDir = startupDir, extra = {}) => ({
  PATH: process.env.PATH ?? '',
  HOME: scratch,
  TMPDIR: scratch,
  MON_CONFIG_DIR: configDir,
  MON_BASE_URL: sandbox.url,
  MON_API_KEY: sandbox.apiKey,
  ...extra,
});
const startupDir = freshDir();

// The floor of one request: the same GET with node:http alone, a plain script.
const ONE_REQUEST_HTTP = join(root, 'scripts/bench/one-request-http.cjs');
const JQ_ALONE = join(root, 'scripts/bench/jq-alone.cjs');
// The same work with undici and nothing else, loaded, cached and ended exactly as mon is.
const ONE_REQUEST = await referenceMon('one-request.cjs', scratch);
const ALL_PAGES = QUICK ? undefined : await referenceMon('all-pages.cjs', scratch);
const MUTE_PUTS = QUICK ? undefined : await referenceMon('mute-puts.cjs', scratch);

const load = () =>
  loadavg()
    .map((l) => l.toFixed(2))
    .join(' ');
say(
  `mon ${version} benchmark: ${NODES.map((n) => `node ${n.version}`).join(', ')}; ${process.platform} ${process.arch}, ${cpus().length} CPUs, load ${load()}`,
);
say(`${RUNS} start-up runs${QUICK ? '' : ` and ${ALL_RUNS} --all runs`} of each, per Node; medians [min … max]`);

const results = { version, cpus: cpus().length, runs: RUNS, allRuns: ALL_RUNS, memoryMethod: MEMORY_METHOD, nodes: {} };
for (const node of NODES) results.nodes[node.version] = await measure(node);
// The sandbox's store, in this process (its Node): scripts/bench/sandbox-writes.mjs.
const sandboxWrites = QUICK ? undefined : await measureSandboxWrites({ sandboxes, computers: BIG, runs: 30, fail });
// `mon sandbox serve` at fleet size as a process: start times and the living fleet's CPU (scripts/bench/sandbox-live.mjs).
const sandboxLive = QUICK ? undefined : await measureSandboxLive({ computers: BIG, runs: 3, cpuSeconds: 60 });
await sandboxes.close();
// `metrics serve` under scrapes, on the bench's own Node: scripts/bench/exporter.mjs.
const exporter = QUICK ? undefined : await measureExporter({ computers: BIG, scrapes: 10_000, concurrency: 50 });
report();

/** Every row on one Node. */
async function measure(node) {
  const exec = (args, env, options = {}) => run(node.file, args, { env, scratch, ...options });
  const mon = (args, sandbox, { configDir, env, ...options } = {}) =>
    exec([MON, ...args], envFor(sandbox, configDir, env), options);

  // Right answers first: a fast wrong answer is no figure.
  const v = await mon(['--version'], big, { capture: true });
  if (v.code !== 0 || v.stdout !== `${version}\n`)
    fail(`${node.version}: mon --version printed ${JSON.stringify(v.stdout)} (exit ${v.code})`);
  const h = await mon(['--help'], big, { capture: true });
  if (h.code !== 0 || !h.stdout.startsWith('Usage: mon')) fail(`${node.version}: mon --help: exit ${h.code}`);
  const list = await mon(['computers', 'list', '--json'], big, { capture: true });
  const alone = await exec([ONE_REQUEST], envFor(big), { capture: true });
  if (list.code !== 0 || alone.stdout !== list.stdout)
    fail(
      `${node.version}: computers list --json printed other computers than undici alone: exit ${list.code} ${list.stderr.trim()}`,
    );
  const plain = await exec([ONE_REQUEST_HTTP], envFor(big), { capture: true });
  if (plain.stdout !== list.stdout)
    fail(`${node.version}: computers list --json printed other computers than node:http alone`);
  if (QUICK) return process.exitCode ? undefined : { ...(await startupRows(node, exec, mon)), load: load() };
  const nd = await mon(['computers', 'list', '--all', '-o', 'ndjson'], big, { capture: true, configDir: freshDir() });
  const allAlone = await exec([ALL_PAGES], envFor(big), { capture: true });
  const count = nd.stdout.split('\n').length - 1;
  if (nd.code !== 0 || count !== BIG || allAlone.stdout !== nd.stdout)
    fail(
      `${node.version}: --all -o ndjson: exit ${nd.code}, ${count} lines, as undici alone: ${allAlone.stdout === nd.stdout} ${nd.stderr.trim()}`,
    );
  const jq = await mon(['computers', 'list', '--all', '--jq', 'length'], big, { capture: true, configDir: freshDir() });
  if (jq.code !== 0 || jq.stdout !== `${BIG}\n`)
    fail(
      `${node.version}: --all --jq length: exit ${jq.code}, printed ${JSON.stringify(jq.stdout)} ${jq.stderr.trim()}`,
    );
  if (process.exitCode) return undefined;

  const { times, memory, instructions } = await startupRows(node, exec, mon);

  // --all over 10,000 (time and peak memory) and 50,000 computers (peak memory).
  const all = {
    all: [],
    allStreamed: [],
    allUndici: [],
    json: [],
    jq: [],
    rssBig: [],
    rssHuge: [],
    rssUndici: [],
    table: [],
    csv: [],
    jsonOne: [],
    jqOne: [],
    bare: [],
    jqAlone: [],
  };
  for (let round = -1; round < ALL_RUNS; round++) {
    const reference = await exec([ALL_PAGES], envFor(big), { memory: true });
    const ten = await mon(['computers', 'list', '--all', '-o', 'ndjson'], big, { memory: true, configDir: freshDir() });
    // The same read in created order: streamed as it comes, no sort (what the sort costs).
    const streamed = await mon(['computers', 'list', '--all', '--order', 'created_desc', '-o', 'ndjson'], big, {
      configDir: freshDir(),
    });
    // --jq over the whole array: jq (WebAssembly) parses the 24 MB that --json would print.
    const json = await mon(['computers', 'list', '--all', '--json'], big, { configDir: freshDir() });
    const jq = await mon(['computers', 'list', '--all', '--jq', 'length'], big, { configDir: freshDir() });
    const fifty = await mon(['computers', 'list', '--all', '-o', 'ndjson'], huge, {
      memory: true,
      configDir: freshDir(),
      env: { MON_RATE_LIMIT: '100000/60' },
    });
    // A table of 10,000 rows against the same rows as CSV; --jq on one page against --json.
    const table = await mon(['computers', 'list', '--all'], big, { configDir: freshDir() });
    const csv = await mon(['computers', 'list', '--all', '-o', 'csv'], big, { configDir: freshDir() });
    const jsonOne = await mon(['computers', 'list', '--json'], big, { configDir: freshDir() });
    const jqOne = await mon(['computers', 'list', '--jq', 'length'], big, { configDir: freshDir() });
    // What jq-wasm's start costs a fresh node, nothing of mon (scripts/bench/jq-alone.cjs).
    const bare = await exec(['-e', '0'], envFor(big));
    const jqAlone = await exec(['--liftoff-only', JQ_ALONE], envFor(big), { capture: true });
    if (jqAlone.stdout !== '0') fail(`${node.version}: jq-wasm alone printed ${JSON.stringify(jqAlone.stdout)}`);
    for (const [label, result] of [
      ['undici alone --all', reference],
      ['--all 10,000', ten],
      ['--all --order created_desc', streamed],
      ['--all --json', json],
      ['--all --jq', jq],
      ['--all 50,000', fifty],
      ['--all table', table],
      ['--all -o csv', csv],
      ['--json', jsonOne],
      ['--jq length', jqOne],
      ['node -e 0', bare],
      ['jq-wasm alone', jqAlone],
    ]) {
      if (result.code !== 0) fail(`${node.version} ${label}: exit ${result.code} ${result.stderr.trim()}`);
    }
    if (round < 0) continue;
    all.allUndici.push(reference.ms);
    all.rssUndici.push(reference.rssMb);
    all.all.push(ten.ms);
    all.allStreamed.push(streamed.ms);
    all.rssBig.push(ten.rssMb);
    all.rssHuge.push(fifty.rssMb);
    all.json.push(json.ms);
    all.jq.push(jq.ms);
    all.table.push(table.ms);
    all.csv.push(csv.ms);
    all.jsonOne.push(jsonOne.ms);
    all.jqOne.push(jqOne.ms);
    all.bare.push(bare.ms);
    all.jqAlone.push(jqAlone.ms);
  }
  // The fleet commands (alerts, status): scripts/bench/fleet.mjs.
  const fleet = await measureFleet({
    mon,
    sizes: [
      [big, BIG],
      [small, SMALL],
    ],
    freshDir,
    runs: ALL_RUNS,
    fail,
  });
  // Many accounts side by side: scripts/bench/accounts.mjs.
  const many = await measureAccounts({ node: node.file, mon: MON, accounts, freshDir, scratch, runs: ALL_RUNS, fail });
  // --changes NAME against the same list without it: scripts/bench/changes.mjs.
  const changes = await measureChanges({ mon, big, count: BIG, freshDir, runs: ALL_RUNS, fail });
  // 1,000 mutes and unmutes against undici sending the same PUTs: scripts/bench/mute.mjs.
  const mute = await measureMute({
    mon,
    exec,
    sandbox: muting,
    reference: MUTE_PUTS,
    envFor,
    freshDir,
    scratch,
    runs: ALL_RUNS,
    fail,
  });
  // status -o openmetrics and mon report against status -o json: scripts/bench/outputs.mjs.
  const outputs = await measureOutputs({ mon, big, count: BIG, freshDir, runs: ALL_RUNS, fail });
  return { times, memory, instructions, all, fleet, many, changes, mute, outputs, load: load() };
}

/**
 * Start-up and one request on one Node: wall times of each command run in turn (each round starts
 * at a different one), then peak memory of the request and of its floor, and with --instructions
 * their instruction counts (valgrind's callgrind, every thread).
 */
async function startupRows(node, exec, mon) {
  // Start-up: each round runs every command once, starting at a different one each time.
  const startup = [
    ['node', () => exec(['-e', '0'], envFor(big))],
    ['version', () => mon(['--version'], big)],
    ['help', () => mon(['--help'], big)],
    ['list', () => mon(['computers', 'list', '--json'], big)],
    ['undici', () => exec([ONE_REQUEST], envFor(big))],
    ['http', () => exec([ONE_REQUEST_HTTP], envFor(big))],
  ];
  const times = Object.fromEntries(startup.map(([key]) => [key, []]));
  for (let round = -3; round < RUNS; round++) {
    for (let i = 0; i < startup.length; i++) {
      const [key, go] = startup[(i + Math.max(round, 0)) % startup.length];
      const result = await go();
      if (result.code !== 0) fail(`${node.version} ${key}: exit ${result.code} ${result.stderr.trim()}`);
      if (round >= 0) times[key].push(result.ms);
    }
  }
  const memory = { rssList: [], rssHttp: [] };
  for (let round = 0; round < Math.min(RUNS, 5); round++) {
    memory.rssList.push((await mon(['computers', 'list', '--json'], big, { memory: true })).rssMb);
    memory.rssHttp.push((await exec([ONE_REQUEST_HTTP], envFor(big), { memory: true })).rssMb);
  }
  let instructions;
  if (flags.instructions) {
    // Not spawnSync: the sandbox answering the request runs in this process. The median of
    // five: V8 seeds its string hashes at random in every process, and the seed's set-up alone
    // varies by up to 10 M instructions from one run to the next (detail::sprp under
    // HashSeed::InitializeRoots in callgrind's output), in mon and its floor alike.
    const count = async (args) => {
      const samples = [];
      for (let i = 0; i < INSTRUCTION_SAMPLES; i++) {
        const result = await run(
          'valgrind',
          ['--tool=callgrind', '--callgrind-out-file=/dev/null', node.file, ...args],
          { env: envFor(big), scratch },
        );
        samples.push(Number(/Collected : (\d+)/.exec(result.stderr)?.[1]));
      }
      return samples.sort((a, b) => a - b)[Math.floor(samples.length / 2)];
    };
    instructions = {
      list: await count([MON, 'computers', 'list', '--json']),
      http: await count([ONE_REQUEST_HTTP]),
      undici: await count([ONE_REQUEST]),
    };
  }
  return { times, memory, instructions };
}

function report() {
  const versions = Object.keys(results.nodes).filter((v) => results.nodes[v]);
  if (versions.length === 0) return;
  const median = (v, key) => stats(results.nodes[v].times?.[key] ?? results.nodes[v].all[key]).median;
  const cell = (text) => text.padStart(34);
  const header = () => say(`${''.padEnd(50)}${versions.map((v) => cell(`node ${v}`)).join('')}`);
  const row = (label, key, target) => {
    const cells = versions.map((v) => {
      const s = stats(results.nodes[v].times?.[key] ?? results.nodes[v].all[key]);
      const base = target ? median(v, target.of) : undefined;
      const ratio = base ? s.median / base : undefined;
      let text = `${s.median.toFixed(1)} ms [${s.min.toFixed(0)}…${s.max.toFixed(0)}]${ratio ? ` ${ratio.toFixed(2)}×` : ''}`;
      if (target?.limit && targeted(v)) {
        const holds = ratio <= target.limit;
        text += holds ? ' ok' : ' MISS';
        (results.targets ??= []).push({ node: v, row: key, ratio, limit: target.limit, holds });
      }
      return cell(text);
    });
    say(`${label.padEnd(50)}${cells.join('')}`);
  };

  say();
  say('Start-up and one request (ratio: to node -e 0 for start-up, to node:http alone for the request)');
  header();
  row('node -e 0 (baseline)', 'node');
  row(`mon --version (≤ ${TARGETS.version.limit}× node -e 0)`, 'version', TARGETS.version);
  row(`mon --help (≤ ${TARGETS.help.limit}× node -e 0)`, 'help', TARGETS.help);
  row('reference: the same GET with node:http alone', 'http');
  row('information: the same GET with undici alone', 'undici', { of: 'http' });
  row(`mon computers list --json (≤ ${TARGETS.list.limit}× node:http)`, 'list', TARGETS.list);
  const ratioRow = (label, key, values, target, unit) =>
    say(
      `${label.padEnd(50)}${versions
        .map((v) => {
          const [value, base] = values(v);
          if (!Number.isFinite(value) || !Number.isFinite(base)) return cell('-');
          const ratio = value / base;
          let text = `${unit(value)} / ${unit(base)} ${ratio.toFixed(2)}×`;
          if (targeted(v)) {
            const holds = ratio <= target.limit;
            text += holds ? ' ok' : ' MISS';
            (results.targets ??= []).push({ node: v, row: key, ratio, limit: target.limit, holds });
          }
          return cell(text);
        })
        .join('')}`,
    );
  const rss = (v, key) => stats(results.nodes[v].memory[key]).median;
  ratioRow(
    `peak memory, mon / node:http (≤ ${TARGETS.listMemory.limit}×)`,
    'listMemory',
    (v) => [rss(v, 'rssList'), rss(v, 'rssHttp')],
    TARGETS.listMemory,
    (mb) => `${mb.toFixed(1)} MB`,
  );
  if (flags.instructions) {
    const count = (v, key) => results.nodes[v].instructions?.[key];
    ratioRow(
      `instructions, mon / node:http (≤ ${TARGETS.list.limit}×)`,
      'listInstructions',
      (v) => [count(v, 'list'), count(v, 'http')],
      TARGETS.list,
      (n) => `${(n / 1e6).toFixed(0)} M`,
    );
    say(
      `${'instructions, undici alone / node:http'.padEnd(50)}${versions.map((v) => cell(`${(count(v, 'undici') / count(v, 'http')).toFixed(2)}×`)).join('')}`,
    );
  }
  say();
  if (QUICK) return finish();
  say(`--all -o ndjson over ${BIG.toLocaleString('en')} computers (100 pages of 100; ratio to undici alone)`);
  header();
  row('reference: the same pages with undici alone', 'allUndici');
  row(`mon computers list --all -o ndjson (≤ ${TARGETS.all.limit}×)`, 'all', TARGETS.all);
  // The default order is sorted after the whole read (client.ts, STABLE_ORDERS; sorted-read.ts).
  row('information: the same, --order created_desc (no sort)', 'allStreamed', { of: 'allUndici' });
  row('mon computers list --all --json', 'json');
  row(`mon computers list --all --jq length (≤ ${TARGETS.jq.limit}× --json)`, 'jq', TARGETS.jq);
  say();
  say(`A table of ${BIG.toLocaleString('en')} computers against the same rows as CSV; --jq on one page against --json`);
  header();
  row('mon computers list --all -o csv (reference)', 'csv');
  row(`mon computers list --all, a table (≤ ${TARGETS.table.limit}×)`, 'table', TARGETS.table);
  row('mon computers list --json (reference)', 'jsonOne');
  row(`mon computers list --jq length (≤ ${TARGETS.jqOne.limit}×)`, 'jqOne', TARGETS.jqOne);
  // Why that row misses: jq-wasm's own start, in a node that does nothing else, against what the
  // target leaves for all of --jq's work (scripts/bench/jq-alone.cjs).
  say(
    `${'information: jq-wasm alone, less node -e 0'.padEnd(50)}${versions
      .map((v) =>
        cell(
          `${(median(v, 'jqAlone') - median(v, 'bare')).toFixed(1)} ms (the target leaves ${((TARGETS.jqOne.limit - 1) * median(v, 'jsonOne')).toFixed(1)})`,
        ),
      )
      .join('')}`,
  );
  say();
  say(
    `Peak memory of --all -o ndjson (${MEMORY_METHOD}), MB; target: 50,000 within ${TARGETS.memory.limit}× of 10,000`,
  );
  header();
  const mb = (key) => versions.map((v) => stats(results.nodes[v].all[key]));
  const memoryRow = (label, key) =>
    say(
      `${label.padEnd(50)}${mb(key)
        .map((s) => cell(`${s.median.toFixed(1)} [${s.min.toFixed(1)}…${s.max.toFixed(1)}]`))
        .join('')}`,
    );
  memoryRow('reference: undici alone, 10,000', 'rssUndici');
  memoryRow('mon, 10,000 computers', 'rssBig');
  memoryRow('mon, 50,000 computers', 'rssHuge');
  say(
    `${`50,000 / 10,000 (≤ ${TARGETS.memory.limit}×)`.padEnd(50)}${versions
      .map((v) => {
        const ratio = stats(results.nodes[v].all.rssHuge).median / stats(results.nodes[v].all.rssBig).median;
        if (!targeted(v)) return cell(`${ratio.toFixed(2)}×`);
        const holds = ratio <= TARGETS.memory.limit;
        (results.targets ??= []).push({ node: v, row: 'memory', ratio, limit: TARGETS.memory.limit, holds });
        return cell(`${ratio.toFixed(2)}×${holds ? ' ok' : ' MISS'}`);
      })
      .join('')}`,
  );
  for (const v of versions) {
    say();
    say(`node ${v}:`);
    results.fleetTargets = { ...results.fleetTargets, [v]: reportFleet(results.nodes[v].fleet, say) };
    results.accountTargets = { ...results.accountTargets, [v]: reportAccounts(results.nodes[v].many, say) };
    say();
    results.changesTargets = { ...results.changesTargets, [v]: reportChanges(results.nodes[v].changes, say) };
    say();
    results.muteTargets = { ...results.muteTargets, [v]: reportMute(results.nodes[v].mute, say) };
    say();
    results.outputTargets = { ...results.outputTargets, [v]: reportOutputs(results.nodes[v].outputs, say) };
  }
  say();
  say(`node ${process.versions.node} (the bench's own process):`);
  results.sandboxWriteTargets = reportSandboxWrites(sandboxWrites, say);
  say();
  results.exporterTargets = reportExporter(exporter, say);
  say();
  results.sandboxLiveTargets = reportSandboxLive(sandboxLive, say);
  finish();
}

/** The raw figures in .bench/, and docs/benchmarks.md rewritten with what was printed. */
function finish() {
  say(`load at the end: ${load()}`);
  const markdown = [
    '# Benchmarks',
    '',
    '<!-- Generated by `npm run bench` (scripts/bench.mjs): do not edit by hand. -->',
    '',
    `mon ${version}, ${new Date().toISOString().slice(0, 10)}, ${process.platform} ${process.arch}, ${cpus().length} CPUs${QUICK ? ', --quick' : ''}. Wall times are medians [min…max] of runs taken in turn; ratios are of medians of the same run on the same Node. The one-request yardstick is scripts/bench/one-request-http.cjs: the same GET, parse and print with node:http alone. Targets apply to Node 22 and later.`,
    '',
    '| Node | row | ratio | target | |',
    '|---|---|---|---|---|',
    ...(results.targets ?? []).map(
      (t) => `| ${t.node} | ${t.row} | ${t.ratio.toFixed(2)}× | ≤ ${t.limit}× | ${t.holds ? 'ok' : 'MISS'} |`,
    ),
    '',
    '```text',
    ...printed,
    '```',
    '',
  ];
  writeFileSync(join(root, 'docs', 'benchmarks.md'), markdown.join('\n'));
  mkdirSync(join(root, '.bench'), { recursive: true });
  const file = join(root, '.bench', `bench-${new Date().toISOString().replace(/[:.]/g, '-')}.json`);
  writeFileSync(file, `${JSON.stringify(results, null, 2)}\n`);
  say(`raw figures: ${file}; docs/benchmarks.md rewritten`);
}
