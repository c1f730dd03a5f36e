// jq-wasm's own start, nothing of mon: a fresh node loads it and prints `[] | length`. Run with
// --liftoff-only, the cheapest start V8 gives it (mon's jq worker keeps baseline code too). Its
// time less `node -e 0` is what jq adds to any command before it can run a filter: mon's `--jq`
// sends no request before jq has compiled the filter, so this cost is on the way of the request
// whichever thread jq runs in.
'use strict';
const { loadJq } = require('jq-wasm');

loadJq().then((jq) => process.stdout.write(jq.raw('[]', 'length', ['-r', '-c', '--']).stdout));
