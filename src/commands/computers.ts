import type { DerivedField } from '../changes/compare.js';
import { GROUP_COLUMN } from '../output/columns.js';
import { parseTime } from '../time/parse.js';
import { readField } from '../output/forms.js';
import { verb, type ResourceSpec } from '../spec/spec.js';
import { listCommand, objectCommand } from './actions.js';
import type { View } from './view.js';
import { COMPUTER_FIELDS } from './fields.js';
import { COMPUTER_FILTERS } from './selectors.js';

/** The flags a person scans for, in one column: missing, issue, hidden, removal, rekey. */
function computerFlags(row: Record<string, unknown>): string {
  const flags: [string, unknown][] = [
    ['missing', row.missing],
    ['issue', row.has_issue],
    ['hidden', row.hidden],
    ['removal', row.pending_removal],
    ['rekey', row.rekey_requested],
  ];
  return flags
    .filter(([, on]) => on === true)
    .map(([flag]) => flag)
    .join(',');
}

/** A group is a uid, or an object with --expand group. */
export function refName(value: unknown): unknown {
  if (value && typeof value === 'object') {
    const ref = value as Record<string, unknown>;
    return ref.name ?? ref.custom_name ?? ref.computer_name ?? ref.uid;
  }
  return value;
}

/**
 * Who a note or an expiration belongs to: its computer when it has one (the group then is the
 * computer's), else its group (api-v2.5, Note and Expiration objects).
 */
export function owner(row: Record<string, unknown>): unknown {
  return row.computer ? refName(row.computer) : refName(row.group);
}

/** The interval without a report after which a computer counts as missing: report_missing_after days, 7 by default (api-v2.5, Computer flags). */
const DEFAULT_MISSING_DAYS = 7;

/**
 * `overdue`, compared by --changes: the last report is older than the computer's missing
 * interval, whether or not the API has flagged it missing yet (it may not watch it at all).
 */
export const OVERDUE: DerivedField = {
  key: 'overdue',
  get(row, nowSec) {
    const ms = parseTime(readField(row, 'last_report'));
    if (ms === undefined) return null;
    const days = Number(row.report_missing_after);
    return nowSec - ms / 1000 > (Number.isFinite(days) && days > 0 ? days : DEFAULT_MISSING_DAYS) * 86_400;
  },
};

export const COMPUTER_VIEW: View = {
  columns: [
    { key: 'client_id', header: 'CLIENT ID' },
    { key: 'name', get: (row) => row.custom_name || row.computer_name, maxWidth: 30 },
    GROUP_COLUMN,
    { key: 'platform' },
    { key: 'os_version', header: 'OS', maxWidth: 24 },
    { key: 'last_report', kind: 'time' },
    { key: 'flags', get: computerFlags },
  ],
  fields: COMPUTER_FIELDS,
  tableExpand: ['group'],
  changes: { noun: 'computers', compare: ['missing', 'hidden', OVERDUE, 'group', 'os_version'] },
};

/** One computer (get, update): its c_ uid too, which notes and expirations also take. */
const COMPUTER_ITEM_VIEW: View = {
  ...COMPUTER_VIEW,
  columns: [COMPUTER_VIEW.columns[0]!, { key: 'uid' }, ...COMPUTER_VIEW.columns.slice(1)],
};

const STATUSES = ['visible', 'hidden', 'missing', 'pending_rekey', 'pending_removal', 'has_muted_plugin'] as const;
// The reference lists the default last_reported_desc and the options reported_desc and created_desc.
const ORDERS = ['last_reported_desc', 'reported_desc', 'created_desc'] as const;
// "allowed values listed as 2, 5, 10, 15, 20, 30" (api-v2.5, Computers > Update).
const BEACON_THRESHOLDS = ['2', '5', '10', '15', '20', '30'] as const;

/** Computers (api-v2.5, Endpoints > Computers). The path takes the client id, not the c_ uid. */
export const computers: ResourceSpec = {
  name: 'computers',
  aliases: ['computer'],
  summary: 'List, show and update monitored computers',
  verbs: [
    verb({
      name: 'list',
      aliases: ['ls'],
      route: 'computers.list',
      summary: 'List computers, most recently reported first',
      description:
        'With --changes NAME: only computers new, gone or changed since the last run with NAME, compared on missing, hidden, overdue (last report older than report_missing_after days, default 7), group and os_version, or on --fields. With --all (and --changes) the computers are read in the order they were created (created_desc), an order in which a computer that reports while they are read does not move between pages, and then sorted as --order asks: every computer once, the lines printed once the last page is in (--order created_desc prints each page as it comes). A read that still misses a record is read once more, then exit 7.',
      list: true,
      fields: COMPUTER_FIELDS,
      options: [
        { flags: '--status <status>', param: 'status', description: 'only computers in this state', choices: STATUSES },
        {
          flags: '--group <group>',
          param: 'group_id',
          description: 'only computers of this group (uid, slug or name)',
          rule: { type: 'text', max: 255, nonEmpty: true },
          resolve: 'group',
          // The API filters by one group_id.
          once: 'the API lists one group at a time; `mon alerts --group A --group B` takes several',
        },
        ...COMPUTER_FILTERS,
        {
          flags: '--order <order>',
          param: 'order',
          description: 'sort order',
          choices: ORDERS,
          defaultText: 'last_reported_desc',
        },
      ],
      examples: [
        'mon computers list --status missing',
        'mon computers list --group acme-design --platform mac --platform linux',
        'mon computers list --all -o ndjson > computers.ndjson',
        'mon computers list --status missing --count',
        'mon computers list --status missing --changes missing -q',
      ],
      run: ({ opts, params }, ctx) => listCommand(ctx, 'computers.list', { query: params }, COMPUTER_VIEW, opts),
    }),
    {
      name: 'get',
      aliases: ['show'],
      route: 'computers.get',
      summary: 'Show one computer by its client id or uid',
      args: [
        {
          name: 'client-id',
          description: 'the computer: its client id (client_id, or the older svc_id) or its c_ uid',
          rule: { type: 'text', max: 191, nonEmpty: true },
          resolve: 'client-id',
        },
      ],
      fields: COMPUTER_FIELDS,
      examples: [
        'mon computers get 5D1A7C0E-2B1F-4A43-9C1B-7F0E6A2D9B11',
        'mon computers get 5D1A7C0E-2B1F-4A43-9C1B-7F0E6A2D9B11 --expand plugin_results --json',
      ],
      run: ({ args }, ctx) =>
        objectCommand(ctx, 'computers.get', { path: { client_id: args['client-id']! } }, COMPUTER_ITEM_VIEW).then(
          () => undefined,
        ),
    },
    verb({
      name: 'update',
      route: 'computers.update',
      partial: true,
      summary: "Change a computer's asset id, names, description, reference e-mail or beacon settings",
      args: [
        {
          name: 'client-id',
          description: 'the computer: its client id (client_id, or the older svc_id) or its c_ uid',
          rule: { type: 'text', max: 191, nonEmpty: true },
          resolve: 'client-id',
        },
      ],
      fields: COMPUTER_FIELDS,
      options: [
        { flags: '--asset-id <id>', param: 'asset_id', description: 'asset id', rule: { type: 'text', max: 191 } },
        {
          flags: '--custom-name <name>',
          param: 'custom_name',
          description: 'display name in the dashboard',
          rule: { type: 'text', max: 191 },
        },
        {
          flags: '--description <text>',
          param: 'description',
          description: 'description, included in warnings',
          rule: { type: 'text', max: 65535 },
        },
        {
          flags: '--reference-email <email>',
          param: 'reference_email',
          description: 'reference e-mail address',
          rule: { type: 'email', max: 191 },
        },
        {
          flags: '--product-description <text>',
          param: 'product_description',
          description: 'model name shown for the computer',
          rule: { type: 'text', max: 65535 },
        },
        {
          flags: '--estimated-manufacture-date <date>',
          param: 'estimated_manufacture_date',
          description: 'estimated manufacture date (YYYY-MM-DD)',
          rule: { type: 'date' },
        },
        {
          flags: '--beacon-reporting',
          param: 'beacon_reporting',
          description: 'enable beacon reporting',
          negatable: true,
        },
        {
          flags: '--beacon-missing-threshold <minutes>',
          param: 'beacon_missing_threshold_in_minutes',
          description: 'minutes before a beacon warning',
          choices: BEACON_THRESHOLDS,
        },
        {
          flags: '--create-ticket-on-beacon-found',
          param: 'create_ticket_on_beacon_found',
          description: 'send an alert when the computer comes online',
          negatable: true,
        },
      ],
      examples: [
        'mon computers update 5D1A7C0E-2B1F-4A43-9C1B-7F0E6A2D9B11 --asset-id A-1042 --custom-name "Reception iMac"',
        'mon computers update 5D1A7C0E-2B1F-4A43-9C1B-7F0E6A2D9B11 --beacon-reporting --beacon-missing-threshold 10',
      ],
      async run({ args, params }, ctx) {
        const clientId = args['client-id']!;
        await objectCommand(
          ctx,
          'computers.update',
          { path: { client_id: clientId }, body: { computer: params } },
          COMPUTER_ITEM_VIEW,
          () => `Computer ${clientId} updated.`,
        );
      },
    }),
  ],
};
