'use strict';
// The --jq worker thread that bin/mon starts: dist/jq-worker.cjs, which holds jq-wasm's 130 KB
// loader, with its compiled code kept between runs as the bundle's is (bin/load-bundle.cjs), and
// the cache written once jq is done (src/output/jq-worker.ts, whenJqDone). This thread is on the
// way of the first request (nothing is sent before jq has compiled the filter): measured with
// callgrind, `mon computers list --jq length` on one page of the 10,000-computer sandbox takes
// 571 M instructions on Node 22 and 632 M on Node 24 this way, 601 M and 663 M with the file
// loaded as it is (medians of 5).
const { join } = require('node:path');
const { loadBundle, saveCodeCache } = require('./load-bundle.cjs');

loadBundle(join(__dirname, '..', 'dist', 'jq-worker.cjs')).whenJqDone(saveCodeCache);
