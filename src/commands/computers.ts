import { UsageError } from '../errors.js';
import { listCommand, objectCommand, type View } from './actions.js';
import { COMPUTER_FIELDS } from './fields.js';
import type { ResourceSpec } from '../spec/spec.js';

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

export const COMPUTER_VIEW: View = {
  columns: [
    { key: 'client_id', header: 'CLIENT ID' },
    { key: 'name', get: (row) => row.custom_name || row.computer_name, maxWidth: 30 },
    { key: 'group', get: (row) => refName(row.group) },
    { key: 'platform' },
    { key: 'os_version', header: 'OS', maxWidth: 24 },
    { key: 'last_report', kind: 'time' },
    { key: 'flags', get: computerFlags },
  ],
  fields: COMPUTER_FIELDS,
  tableExpand: ['group'],
};

/** One computer (get, update): its c_ uid too, which notes and expirations also take. */
const COMPUTER_ITEM_VIEW: View = { ...COMPUTER_VIEW, columns: [COMPUTER_VIEW.columns[0]!, { key: 'uid' }, ...COMPUTER_VIEW.columns.slice(1)] };

const STATUSES = ['visible', 'hidden', 'missing', 'pending_rekey', 'pending_removal', 'has_muted_plugin'] as const;
const PLATFORMS = ['mac', 'linux', 'windows'] as const;
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
    {
      name: 'list',
      aliases: ['ls'],
      route: 'computers.list',
      summary: 'List computers, most recently reported first',
      list: true,
      fields: COMPUTER_FIELDS,
      options: [
        { flags: '--status <status>', description: 'only computers in this state', choices: STATUSES },
        { flags: '--group <group>', description: 'only computers of this group (uid, slug or name)', rule: { type: 'text', max: 255, nonEmpty: true }, resolve: 'group' },
        { flags: '--created-after <date>', description: 'only computers first seen after this date (YYYY-MM-DD)', rule: { type: 'date' } },
        { flags: '--serial-number <serial>', description: 'only this serial number', rule: { type: 'text', max: 255 } },
        { flags: '--asset-id <id>', description: 'only this asset id', rule: { type: 'text', max: 191 } },
        { flags: '--reference-email-computer <email>', description: "by the computer record's reference e-mail", rule: { type: 'text', max: 191 } },
        { flags: '--reference-email-group <email>', description: "by the group record's reference e-mail", rule: { type: 'text', max: 191 } },
        { flags: '--reference-email <email>', description: 'by either reference e-mail', rule: { type: 'text', max: 191 } },
        { flags: '--platform <platform>', description: 'only this platform (repeatable)', choices: PLATFORMS, repeatable: true },
        { flags: '--order <order>', description: 'sort order', choices: ORDERS, defaultText: 'last_reported_desc' },
      ],
      examples: [
        'mon computers list --status missing',
        'mon computers list --group acme-design --platform mac --platform linux',
        'mon computers list --all -o ndjson > computers.ndjson',
        'mon computers list --status missing --count',
      ],
      run: ({ opts }, ctx) => {
        const platforms = (opts.platform as string[] | undefined) ?? [];
        const query = {
          status: opts.status as string | undefined,
          group_id: opts.group as string | undefined,
          created_after: opts.createdAfter as string | undefined,
          serial_number: opts.serialNumber as string | undefined,
          asset_id: opts.assetId as string | undefined,
          reference_email_computer: opts.referenceEmailComputer as string | undefined,
          reference_email_group: opts.referenceEmailGroup as string | undefined,
          reference_email: opts.referenceEmail as string | undefined,
          // One platform as platform=mac, several as platform[]= (api-v2.5, Computers > List).
          ...(platforms.length === 1 ? { platform: platforms[0] } : platforms.length > 1 ? { platform: platforms } : {}),
          order: opts.order as string | undefined,
        };
        return listCommand(ctx, 'computers.list', { query }, COMPUTER_VIEW, opts);
      },
    },
    {
      name: 'get',
      aliases: ['show'],
      route: 'computers.get',
      summary: 'Show one computer by its client id or uid',
      args: [{ name: 'client-id', description: 'the computer: its client id (client_id, or the older svc_id) or its c_ uid', rule: { type: 'text', max: 191, nonEmpty: true }, resolve: 'client-id' }],
      fields: COMPUTER_FIELDS,
      examples: ['mon computers get 5D1A7C0E-2B1F-4A43-9C1B-7F0E6A2D9B11', 'mon computers get 5D1A7C0E-2B1F-4A43-9C1B-7F0E6A2D9B11 --expand plugin_results --json'],
      run: ({ args }, ctx) => objectCommand(ctx, 'computers.get', { path: { client_id: args['client-id']! } }, COMPUTER_ITEM_VIEW).then(() => undefined),
    },
    {
      name: 'update',
      route: 'computers.update',
      summary: "Change a computer's asset id, names, description, reference e-mail or beacon settings",
      args: [{ name: 'client-id', description: 'the computer: its client id (client_id, or the older svc_id) or its c_ uid', rule: { type: 'text', max: 191, nonEmpty: true }, resolve: 'client-id' }],
      fields: COMPUTER_FIELDS,
      options: [
        { flags: '--asset-id <id>', description: 'asset id', rule: { type: 'text', max: 191 } },
        { flags: '--custom-name <name>', description: 'display name in the dashboard', rule: { type: 'text', max: 191 } },
        { flags: '--description <text>', description: 'description, included in warnings', rule: { type: 'text', max: 65535 } },
        { flags: '--reference-email <email>', description: 'reference e-mail address', rule: { type: 'email', max: 191 } },
        { flags: '--product-description <text>', description: 'model name shown for the computer', rule: { type: 'text', max: 65535 } },
        { flags: '--estimated-manufacture-date <date>', description: 'estimated manufacture date (YYYY-MM-DD)', rule: { type: 'date' } },
        { flags: '--beacon-reporting', description: 'enable beacon reporting', negatable: true },
        { flags: '--beacon-missing-threshold <minutes>', description: 'minutes before a beacon warning', choices: BEACON_THRESHOLDS },
        { flags: '--create-ticket-on-beacon-found', description: 'send an alert when the computer comes online', negatable: true },
      ],
      examples: [
        'mon computers update 5D1A7C0E-2B1F-4A43-9C1B-7F0E6A2D9B11 --asset-id A-1042 --custom-name "Reception iMac"',
        'mon computers update 5D1A7C0E-2B1F-4A43-9C1B-7F0E6A2D9B11 --beacon-reporting --beacon-missing-threshold 10',
      ],
      async run({ args, opts }, ctx) {
        const computer = {
          asset_id: opts.assetId as string | undefined,
          custom_name: opts.customName as string | undefined,
          description: opts.description as string | undefined,
          reference_email: opts.referenceEmail as string | undefined,
          product_description: opts.productDescription as string | undefined,
          estimated_manufacture_date: opts.estimatedManufactureDate as string | undefined,
          beacon_reporting: opts.beaconReporting as boolean | undefined,
          beacon_missing_threshold_in_minutes: opts.beaconMissingThreshold as string | undefined,
          create_ticket_on_beacon_found: opts.createTicketOnBeaconFound as boolean | undefined,
        };
        if (Object.values(computer).every((value) => value === undefined)) {
          throw new UsageError('nothing to update: give at least one attribute option (see mon computers update --help)');
        }
        const clientId = args['client-id']!;
        await objectCommand(ctx, 'computers.update', { path: { client_id: clientId }, body: { computer } }, COMPUTER_ITEM_VIEW, () => `Computer ${clientId} updated.`);
      },
    },
  ],
};
