#!/usr/bin/env bash
# npm run test:stress [-- N]: the whole suite N times (default 5, or STRESS_RUNS) with four
# CPU-bound processes per core running beside it, as a busy machine has them; then a summary of
# every test that failed in any run. Flakes are hunted here, not retried: the vitest config has
# no `retry`. The hogs are bounded with `timeout` and killed at the end, whatever happens.
# MON_TEST_SLOW is left as the caller set it: the suite must pass with its default.
set -uo pipefail
cd "$(dirname "$0")/.."
runs="${1:-${STRESS_RUNS:-5}}"
if ! [[ "$runs" =~ ^[1-9][0-9]*$ ]]; then
  echo "test:stress: the number of runs must be a whole number from 1 (got '$runs')" >&2
  exit 2
fi
cores=$(node -p 'require("node:os").availableParallelism()')
hogs=$((4 * cores))
out=$(mktemp -d "${TMPDIR:-/tmp}/mon-stress-XXXXXX")
pids=()
stop_hogs() {
  for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null; done
  wait "${pids[@]}" 2>/dev/null
  pids=()
}
trap stop_hogs EXIT
trap 'stop_hogs; exit 130' INT TERM

# The hogs outlive no run by more than this: a bound for a stress run that hangs.
bound=$((runs * 1200))
for _ in $(seq "$hogs"); do
  timeout "$bound" sh -c 'while :; do :; done' &
  pids+=("$!")
done
echo "test:stress: $runs runs of the suite beside $hogs CPU hogs ($cores cores); logs in $out" >&2

failed_runs=0
for run in $(seq "$runs"); do
  started=$(date +%s)
  npx vitest run --reporter=default --reporter=json --outputFile.json="$out/run-$run.json" >"$out/run-$run.log" 2>&1
  code=$?
  took=$(($(date +%s) - started))
  load=$(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null || echo '?')
  echo "test:stress: run $run of $runs: exit $code in ${took} s (load $load)" >&2
  [ "$code" -eq 0 ] || failed_runs=$((failed_runs + 1))
done
stop_hogs

# Every failed test of every run, counted by name; and files that failed to load at all.
node - "$out" "$runs" <<'JS'
const { readFileSync, existsSync } = require('node:fs');
const [dir, runs] = process.argv.slice(2);
const failures = new Map();
for (let run = 1; run <= Number(runs); run++) {
  const file = `${dir}/run-${run}.json`;
  if (!existsSync(file)) {
    failures.set(`(run ${run} wrote no report: see ${dir}/run-${run}.log)`, [run]);
    continue;
  }
  const report = JSON.parse(readFileSync(file, 'utf8'));
  for (const result of report.testResults) {
    const name = result.name.replace(`${process.cwd()}/`, '');
    if (result.status === 'failed' && result.assertionResults.every((test) => test.status !== 'failed')) {
      const key = `${name}: ${String(result.message ?? 'failed to run').split('\n')[0]}`;
      failures.set(key, [...(failures.get(key) ?? []), run]);
    }
    for (const test of result.assertionResults) {
      if (test.status !== 'failed') continue;
      const key = `${name} > ${test.fullName}: ${String(test.failureMessages?.[0] ?? '').split('\n')[0].slice(0, 200)}`;
      failures.set(key, [...(failures.get(key) ?? []), run]);
    }
  }
}
if (failures.size === 0) console.log(`test:stress: no failure in ${runs} runs`);
else {
  console.log(`test:stress: ${failures.size} failing test(s) across ${runs} runs:`);
  for (const [key, inRuns] of failures) console.log(`  [runs ${inRuns.join(',')}] ${key}`);
}
JS
[ "$failed_runs" -eq 0 ]
