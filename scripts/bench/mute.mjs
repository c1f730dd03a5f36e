// Bulk mutes in `npm run bench`: `plugin mute --from FILE --ignore` and `plugin unmute --from
// FILE` over 1,000 plugin results of a 1,000-computer sandbox, with mon's rate budget raised
// (MON_RATE_LIMIT), against the same 1,000 PUTs sent by undici alone, four in flight as mon
// sends them (scripts/bench/mute-puts.cjs). mon also reads the account first (to send only what
// is not muted yet), which counts in its time. Target: mon's time per mute within 1.2× of the
// bare PUTs'. Alone: `node scripts/bench/mute.mjs [--runs 5]`.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { inTurn, run, stats, timingRow } from './measure.mjs';

export const MUTES = 1_000;
export const MUTE_TARGET = 1.2;
/** mon's own budget, raised: 2,000 PUTs a round are five minutes at the API's 400 a minute. */
const RAISED = { MON_RATE_LIMIT: '100000/60' };

/** `MUTES` plugin results that are visible and not muted, read by the bench itself over HTTP. */
async function pickResults(sandbox) {
  const uids = [];
  for (let page = 1; uids.length < MUTES; page++) {
    const response = await fetch(
      `${sandbox.url}/v2.5/computers?expand[]=plugin_results&per_page=100&page=${page}&api_key=${sandbox.apiKey}`,
    );
    const computers = await response.json();
    if (computers.length === 0) throw new Error(`the sandbox has fewer than ${MUTES} unmuted plugin results`);
    for (const computer of computers) {
      for (const result of computer.plugin_results ?? [])
        if (result.muted !== true && result.visible !== false && uids.length < MUTES) uids.push(result.uid);
    }
  }
  return uids;
}

/** How many plugin results of `uids` are muted now, read over HTTP. */
async function mutedAmong(sandbox, uids) {
  const wanted = new Set(uids);
  let muted = 0;
  for (let page = 1; ; page++) {
    const response = await fetch(
      `${sandbox.url}/v2.5/computers?expand[]=plugin_results&per_page=100&page=${page}&api_key=${sandbox.apiKey}`,
    );
    for (const computer of await response.json())
      for (const result of computer.plugin_results ?? []) if (wanted.has(result.uid) && result.muted === true) muted++;
    if (!response.headers.get('x-next-page')) return muted;
  }
}

/**
 * Checks the answers, then runs, `runs` times after one warm-up round, mon's mute and unmute and
 * the reference's, in turn (each unmute puts the results back as they were).
 */
export async function measureMute({ mon, exec, sandbox, reference, envFor, freshDir, scratch, runs, fail }) {
  const uids = await pickResults(sandbox);
  const file = join(scratch, 'mute-uids.txt');
  writeFileSync(file, `${uids.join('\n')}\n`);
  const monArgs = (verb) => [
    'plugin',
    verb,
    '--from',
    file,
    ...(verb === 'mute' ? ['--ignore'] : []),
    '--yes',
    '-q',
    '-o',
    'ndjson',
  ];
  const monRun = (verb, capture = false) =>
    mon(monArgs(verb), sandbox, { capture, configDir: freshDir(), env: RAISED });
  const referenceRun = (type, capture = false) =>
    exec([reference], envFor(sandbox, freshDir(), { BENCH_UIDS: file, BENCH_MUTE_TYPE: type }), { capture });

  // Right answers first: every result muted, then every one unmuted, by mon and by undici alike.
  for (const [verb, outcome, count] of [
    ['mute', 'muted', MUTES],
    ['unmute', 'unmuted', 0],
  ]) {
    const result = await monRun(verb, true);
    const rows = result.stdout
      .split('\n')
      .filter(Boolean)
      .map((line) => JSON.parse(line));
    const muted = await mutedAmong(sandbox, uids);
    if (result.code !== 0 || rows.length !== MUTES || rows.some((row) => row.outcome !== outcome) || muted !== count) {
      fail(
        `plugin ${verb} --from: exit ${result.code}, ${rows.length} rows, ${muted} of ${MUTES} muted after it ${result.stderr.trim()}`,
      );
    }
  }
  for (const [type, count] of [
    ['ignored', MUTES],
    ['none', 0],
  ]) {
    const result = await referenceRun(type, true);
    if (result.code !== 0 || (await mutedAmong(sandbox, uids)) !== count)
      fail(`undici alone, mute_type ${type}: exit ${result.code} ${result.stdout.trim()}`);
  }

  const samples = await inTurn(
    runs,
    [
      ['mon', 'mon plugin mute', () => monRun('mute')],
      ['mon', 'mon plugin unmute', () => monRun('unmute')],
      ['reference', 'undici alone, mute', () => referenceRun('ignored')],
      ['reference', 'undici alone, unmute', () => referenceRun('none')],
    ],
    fail,
  );
  return { samples };
}

/** Prints the rows and returns the target, as bench.mjs records it. */
export function reportMute({ samples }, say) {
  const reference = stats(samples.reference);
  const mine = stats(samples.mon);
  const ratio = mine.median / reference.median;
  const holds = ratio <= MUTE_TARGET;
  const perMute = (s) => `${((s.median / MUTES) * 1000).toFixed(0)} µs a mute`;
  say(
    `${MUTES.toLocaleString('en')} mutes (and as many unmutes) with --from, budget raised (${RAISED.MON_RATE_LIMIT}); median [min … max] of each command`,
  );
  say(timingRow('reference: the same PUTs with undici alone, 4 in flight', reference, `  ${perMute(reference)}`));
  say(
    timingRow(
      'plugin mute|unmute --from FILE --yes',
      mine,
      `  ${perMute(mine)}, ${ratio.toFixed(2)}× (≤ ${MUTE_TARGET}×: ${holds ? 'holds' : 'MISSED'})`,
    ),
  );
  return { mute: { ...mine, ratio, target: MUTE_TARGET, holds } };
}

// Alone: its own sandbox, reference and bundle as built.
if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const { values } = parseArgs({ options: { runs: { type: 'string', default: '5' } } });
  const { loadSandbox } = await import('./sandbox.mjs');
  const { referenceMon } = await import('./reference.mjs');
  const MON = fileURLToPath(new URL('../../bin/mon', import.meta.url));
  const sandboxes = await loadSandbox();
  const sandbox = await sandboxes.start(1_000);
  const scratch = sandboxes.dir;
  const freshDir = () => mkdtempSync(join(scratch, 'config-'));
  const envFor = (target, configDir, extra = {}) => ({
    PATH: process.env.PATH ?? '',
    HOME: scratch,
    TMPDIR: scratch,
    MON_CONFIG_DIR: configDir,
    MON_BASE_URL: target.url,
    MON_API_KEY: target.apiKey,
    ...extra,
  });
  const exec = (args, env, options = {}) => run(process.execPath, args, { env, scratch, ...options });
  const mon = (args, target, { configDir, env, ...options } = {}) =>
    exec([MON, ...args], envFor(target, configDir, env), options);
  const fail = (message) => {
    process.stderr.write(`bench: ${message}\n`);
    process.exitCode = 1;
  };
  const reference = await referenceMon('mute-puts.cjs', scratch);
  const measured = await measureMute({
    mon,
    exec,
    sandbox,
    reference,
    envFor,
    freshDir,
    scratch,
    runs: Number(values.runs),
    fail,
  });
  await sandboxes.close();
  reportMute(measured, (line = '') => process.stdout.write(`${line}\n`));
}
