/**
 * The fleet commands (docs/design/cli-contract.md, Fleet commands): across the account, beside the endpoint
 * commands: `alerts` here, `status` in status.ts. The work is in src/fleet.
 */
import type { Context } from '../context.js';
import { GROUP_COLUMN } from '../output/columns.js';
import {
  openSelection,
  plannedRequests,
  type ResultFilter,
  type Scope,
  type SelectedResult,
} from '../fleet/selection.js';
import { historyRecorder } from '../history/record.js';
import { listChanges } from '../changes/track.js';
import { drained } from '../output/drain.js';
import { statusRank } from '../model/plugin-result.js';
import { CHANGES_OPTIONS, verb, WHOLE_LIST_OPTIONS } from '../spec/spec.js';
import { changeSpecOf, renderOptions, type View } from './view.js';
import { changesWanted, type ChangesRequest } from '../changes/request.js';
import { PLUGIN_RESULT_FIELDS } from './fields.js';
import { MUTE_COMPARED, muteSummary } from './plugin.js';
import { selectionOf, selectorOptions } from './selectors.js';

/** One row per plugin result: its computer and group by name (the JSON keeps them as objects). */
export const ALERTS_VIEW: View = {
  columns: [
    { key: 'computer', get: (row) => (row.computer as { name?: unknown } | null)?.name, maxWidth: 28 },
    { ...GROUP_COLUMN, maxWidth: 24 },
    { key: 'plugin', get: (row) => row.name, maxWidth: 28 },
    { key: 'status', kind: 'status' },
    { key: 'last_run', kind: 'time' },
    // First line only, cut on a terminal; a pipe keeps it whole on one line.
    {
      key: 'details',
      get: (row) => (typeof row.details === 'string' ? row.details.trim().split(/\r?\n|\r/)[0] : row.details),
      maxWidth: 48,
    },
    { key: 'mute', get: muteSummary },
  ],
  fields: [...PLUGIN_RESULT_FIELDS, 'computer', 'group', 'plugin', 'mute'],
  changes: { noun: 'plugin results', compare: ['status', MUTE_COMPARED] },
};

const byText = (a: unknown, b: unknown): number =>
  String(a ?? '').localeCompare(String(b ?? ''), 'en', { sensitivity: 'base' });

/** The table's order: Alert before Warning, then group, computer and plugin names. */
export function compareAlerts(a: SelectedResult, b: SelectedResult): number {
  return (
    statusRank(a.status) - statusRank(b.status) ||
    byText(a.group?.name, b.group?.name) ||
    byText(a.computer.name, b.computer.name) ||
    byText(a.name, b.name) ||
    byText(a.uid, b.uid)
  );
}

/**
 * `mon alerts`: the selection through the output module. Machine formats stream page by page
 * as the API sends computers; a table (which waits for every row anyway) is sorted.
 */
async function runAlerts(
  ctx: Context,
  scope: Scope,
  filter: ResultFilter,
  changes?: ChangesRequest,
  count = false,
): Promise<void> {
  const render = renderOptions(ctx, ALERTS_VIEW);
  const client = await ctx.client();
  if (await ctx.dryRun.shows(plannedRequests(client, scope))) return;
  const selection = await openSelection(ctx, client, scope, filter);
  const nowSec = Math.floor(ctx.now() / 1000);
  // A read of the whole account records the day (it lists no expirations: the day keeps those an earlier read found).
  const history = historyRecorder(ctx, scope);
  const recorded = () => history?.record({ expirationsRead: false });
  if (changes) {
    await listChanges(ctx, changes, changeSpecOf(ALERTS_VIEW), render, async (sink) => {
      for await (const page of selection.results(nowSec, history?.computer)) sink.push(page);
      // An unknown --computer or --plugin fails the run before anything is printed or saved.
      selection.checkNamed();
    });
    await recorded();
    return;
  }
  if (count) {
    let total = 0;
    for await (const page of selection.results(nowSec, history?.computer)) total += page.length;
    selection.checkNamed();
    await recorded();
    return ctx.output.count(total, render);
  }
  const renderer = await ctx.output.list(render);
  const table = render.format === 'table';
  const rows: SelectedResult[] = [];
  for await (const page of selection.results(nowSec, history?.computer)) {
    if (table) {
      rows.push(...page);
      continue;
    }
    renderer.push(page);
    await drained(ctx.io.stdout, ctx.signal);
  }
  if (table) {
    // An unknown name fails before the table is printed: no table that looks complete.
    selection.checkNamed();
    renderer.push(rows.sort(compareAlerts));
  }
  renderer.end();
  selection.checkNamed();
  await recorded();
  if (rows.length === 0 && table) ctx.notice('No plugin results match.');
}

const [STATUS_SELECTOR, ...OTHER_SELECTORS] = selectorOptions('Alert and Warning');

export const alerts = verb({
  name: 'alerts',
  summary: 'Plugin results that need attention, account-wide',
  description:
    'Default: status Alert or Warning, not muted, visible. One row per plugin result; the table is sorted Alert before Warning, then group, computer and plugin. JSON and ndjson give the plugin result as the API sent it plus `computer` {uid, client_id, name} and `group` {uid, name}, streamed as pages arrive. An unknown --group is exit 4 before anything is read; an unknown --computer or --plugin is exit 4 once the whole account has been read (the API lists plugins nowhere else). The computer filters of `computers list` (--platform, --serial-number, --asset-id, --created-after, --reference-email…) are sent with the read of the computers. --count prints the number of results that match. With --changes NAME: only results new, gone or changed (status, mute) since the last run with NAME.',
  fields: ALERTS_VIEW.fields,
  options: [
    STATUS_SELECTOR,
    { flags: '--muted', description: 'only muted results' },
    { flags: '--include-muted', description: 'muted and unmuted results alike' },
    ...OTHER_SELECTORS,
    ...WHOLE_LIST_OPTIONS,
    ...CHANGES_OPTIONS,
  ],
  constraints: {
    atMostOne: [
      ['muted', 'includeMuted'],
      ['count', 'changes'],
    ],
  },
  reads: true,
  examples: [
    'mon alerts',
    'mon alerts --group "Acme Design" --status Alert',
    'mon alerts --plugin "Disk Space" --include-muted -o csv > disk.csv',
    'mon alerts --ran-since 24h -o ndjson | jq -r .computer.name',
    'mon alerts --platform windows --status alert --count',
    'mon --profiles acme,northwind alerts -o csv > alerts.csv',
    'mon alerts --changes morning -q',
  ],
  async run({ opts }, ctx) {
    const { scope, filter } = selectionOf(
      opts,
      {
        statuses: ['Alert', 'Warning'],
        muted: opts.muted === true ? 'muted' : opts.includeMuted === true ? 'any' : 'unmuted',
      },
      (line) => ctx.notice(line),
    );
    await runAlerts(ctx, scope, filter, changesWanted(opts), opts.count === true);
  },
});
