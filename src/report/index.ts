/**
 * What `mon report` loads of the report, in one import: the collection, the HTML page and the
 * trends. The report is a build boundary (test/unit/lazy-boundaries.test.ts): only that
 * command evaluates it.
 */
export { collectReport } from './collect.js';
export { dayLabel, readerZone, renderReport } from './html.js';
export { monthPeriod, sincePeriod, trendsOf } from './trends.js';
