import { UsageError } from '../errors.js';
import { verb, type OptionSpec, type ResourceSpec } from '../spec/spec.js';
import { deleteCommand, listCommand, objectCommand } from './actions.js';
import type { View } from './view.js';
import { owner, refName } from './computers.js';
import { EXPIRATION_FIELDS } from './fields.js';

/** An expiry for people: the UTC calendar date, since expiries are whole days (the API sends epoch seconds). */
function expiryDate(value: unknown): unknown {
  const seconds =
    typeof value === 'number' ? value : typeof value === 'string' && /^-?\d+$/.test(value) ? Number(value) : undefined;
  if (seconds === undefined) return value;
  return new Date(seconds * 1000).toISOString().slice(0, 10);
}

export const EXPIRATION_VIEW: View = {
  columns: [
    { key: 'uid' },
    { key: 'expiration_product', header: 'PRODUCT', get: (row) => refName(row.expiration_product), maxWidth: 30 },
    { key: 'license_key', header: 'LICENSE KEY', maxWidth: 30 },
    { key: 'expires_at', header: 'EXPIRES', get: (row) => expiryDate(row.expires_at) },
    { key: 'renewable', kind: 'bool' },
    { key: 'owner', get: owner },
  ],
  fields: EXPIRATION_FIELDS,
  tableExpand: ['expiration_product', 'computer', 'group'],
  changes: { noun: 'expirations', compare: ['expires_at', 'renewable', 'license_key', 'computer', 'group'] },
};

const DAY = 86_400;
/** --within at most 100 years: an expiry is epoch seconds in an int32 (api-v2.5). */
const WITHIN_MAX_DAYS = 36_500;

/**
 * --within and --expired as the API's expires_at_start and expires_at_end (each needs the
 * other). An expiry is a UTC day: expired is a day before today; --within 30d runs from today
 * through the day 30 days from now; both together, everything up to that day.
 */
export function expiryWindow(
  opts: { within?: number; expired?: boolean },
  nowMs: number,
): { expires_at_start?: number; expires_at_end?: number } {
  if (opts.within === undefined && !opts.expired) return {};
  if (opts.within !== undefined && opts.within > WITHIN_MAX_DAYS * DAY)
    throw new UsageError(`--within: at most ${WITHIN_MAX_DAYS}d (100 years)`);
  const today = Math.floor(nowMs / 1000 / DAY) * DAY;
  const last = opts.within === undefined ? today - 1 : Math.floor((nowMs / 1000 + opts.within) / DAY) * DAY + DAY - 1;
  return { expires_at_start: opts.expired ? 0 : today, expires_at_end: last };
}

/** Soonest expiry first; the uid breaks ties, so the order is the same on every run. */
const soonestFirst = (a: Record<string, unknown>, b: Record<string, unknown>) =>
  Number(a.expires_at) - Number(b.expires_at) || String(a.uid).localeCompare(String(b.uid));

const UID_ARG = { name: 'uid', description: 'the expiration uid (e_…)', rule: { type: 'uid', prefix: 'e_' } } as const;

/**
 * The attribute options of create and update (api-v2.5, Expirations > create and update
 * attributes); on create, the help marks the ones the API requires. The reference types
 * expires_at as integer epoch seconds, while one sample sends a date string: the documented
 * integer is sent.
 */
function attributeOptions(create: boolean) {
  const required = create ? 'required: ' : '';
  return [
    {
      flags: '--license-key <key>',
      param: 'license_key',
      description: `${required}license, serial number or other identifier`,
      rule: { type: 'text', max: 191, nonEmpty: true },
    },
    {
      flags: '--expires-at <date>',
      param: 'expires_at',
      description: `${required}expiry date, YYYY-MM-DD (sent as epoch seconds of its UTC midnight)`,
      rule: { type: 'date', epoch: 'start' },
    },
    {
      flags: '--manufacturer <manufacturer>',
      param: 'expiration_manufacturer_id',
      description: `${required}expiration manufacturer: uid, slug or name`,
      rule: { type: 'text', max: 191, nonEmpty: true },
      resolve: 'manufacturer',
    },
    {
      flags: '--product <product>',
      param: 'expiration_product_id',
      description: `${required}expiration product: uid, slug or name`,
      rule: { type: 'text', max: 191, nonEmpty: true },
      resolve: 'product',
    },
    {
      flags: '--group <group>',
      param: 'group_id',
      description: `the group it belongs to: uid, slug or name${create ? '; give --group or --computer' : ''}`,
      rule: { type: 'text', max: 255, nonEmpty: true },
      resolve: 'group',
    },
    {
      flags: '--computer <computer>',
      param: 'computer_id',
      description: `the computer it belongs to: client id or c_ uid; it is then also related to that computer's group${create ? '; give --group or --computer' : ''}`,
      rule: { type: 'text', max: 191, nonEmpty: true },
      resolve: 'computer',
    },
    {
      flags: '--renewable',
      param: 'renewable',
      description: 'mark it renewable',
      negatable: true,
      ...(create && { defaultText: 'not renewable' }),
    },
    { flags: '--notes <text>', param: 'notes', description: 'notes', rule: { type: 'text', max: 65535 } },
  ] as const satisfies readonly OptionSpec[];
}

/** Expirations: license and warranty expiry records (api-v2.5, Endpoints > Expirations). */
export const expirations: ResourceSpec = {
  name: 'expirations',
  aliases: ['expiration'],
  summary: 'List, show, create, update and delete expirations',
  verbs: [
    verb({
      name: 'list',
      route: 'expirations.list',
      aliases: ['ls'],
      summary: 'List expirations, soonest expiry first',
      description:
        "The API serves expirations latest first: soonest first (the default), mon reads every page and sorts them, and --limit keeps the soonest; --order latest pages in the API's order (--page, --offset). --within 30d lists what expires from today (UTC) through 30 days from now, --expired what expired before today; both together, both.",
      list: true,
      fields: EXPIRATION_FIELDS,
      options: [
        {
          flags: '--uid <uid>',
          param: 'uid',
          description: 'only this expiration (e_…)',
          rule: { type: 'uid', prefix: 'e_' },
        },
        {
          flags: '--manufacturer <manufacturer>',
          param: 'manufacturer',
          description: 'only this expiration manufacturer (uid, slug or name)',
          rule: { type: 'text', max: 191, nonEmpty: true },
          resolve: 'manufacturer',
        },
        {
          flags: '--product <product>',
          param: 'product',
          description: 'only this expiration product (uid, slug or name)',
          rule: { type: 'text', max: 191, nonEmpty: true },
          resolve: 'product',
        },
        {
          flags: '--group <group>',
          param: 'group',
          description: 'only expirations of this group (uid, slug or name)',
          rule: { type: 'text', max: 255, nonEmpty: true },
          resolve: 'group',
        },
        {
          flags: '--computer <computer>',
          param: 'computer',
          description: 'only expirations of this computer (client id or c_ uid)',
          rule: { type: 'text', max: 191, nonEmpty: true },
          resolve: 'computer',
        },
        {
          flags: '--license-key <key>',
          param: 'license_key',
          description: 'only this license key',
          rule: { type: 'text', max: 191, nonEmpty: true },
        },
        {
          flags: '--expires-start <date>',
          param: 'expires_at_start',
          description: 'expiring on or after this day, YYYY-MM-DD UTC (with --expires-end)',
          rule: { type: 'date', epoch: 'start' },
        },
        {
          flags: '--expires-end <date>',
          param: 'expires_at_end',
          description: 'expiring on or before this day, YYYY-MM-DD UTC, whole day included (with --expires-start)',
          rule: { type: 'date', epoch: 'end' },
        },
        {
          flags: '--within <duration>',
          description: 'expiring from today through this long from now: 30d, 2w, 12h',
          rule: { type: 'duration' },
        },
        { flags: '--expired', description: 'already expired (a day before today, UTC)' },
        {
          flags: '--order <order>',
          description: "soonest (every page read, then sorted) or latest (the API's order, paged)",
          choices: ['soonest', 'latest'],
          defaultText: 'soonest',
        },
      ],
      // expires_at_start and expires_at_end each require the other (api-v2.5, Expirations)
      constraints: {
        together: [['expiresStart', 'expiresEnd']],
        ordered: [['expiresStart', 'expiresEnd']],
        atMostOne: [
          ['within', 'expiresStart'],
          ['within', 'expiresEnd'],
          ['expired', 'expiresStart'],
          ['expired', 'expiresEnd'],
        ],
      },
      examples: [
        'mon expirations list',
        'mon expirations list --within 30d',
        'mon expirations list --expired -o csv',
        'mon expirations list --expires-start 2026-01-01 --expires-end 2026-03-31',
        'mon expirations list --group acme-design --product ep_7c1d9e -o csv',
      ],
      run: ({ opts, params }, ctx) => {
        const query = { ...params, ...expiryWindow(opts, ctx.now()) };
        if (opts.order === 'latest') return listCommand(ctx, 'expirations.list', { query }, EXPIRATION_VIEW, opts);
        const paged = opts.page !== undefined ? '--page' : opts.offset !== undefined ? '--offset' : undefined;
        if (paged)
          throw new UsageError(
            `${paged}: soonest first is sorted after every page is read, so it has no pages`,
            "add --order latest to page in the API's order, or use --limit",
          );
        return listCommand(ctx, 'expirations.list', { query }, EXPIRATION_VIEW, opts, soonestFirst);
      },
    }),
    {
      name: 'get',
      route: 'expirations.get',
      aliases: ['show'],
      summary: 'Show one expiration',
      args: [UID_ARG],
      fields: EXPIRATION_FIELDS,
      examples: ['mon expirations get e_51b2c3', 'mon expirations get e_51b2c3 --expand expiration_product --json'],
      run: ({ args }, ctx) =>
        objectCommand(ctx, 'expirations.get', { path: { uid: args.uid! } }, EXPIRATION_VIEW).then(() => undefined),
    },
    verb({
      name: 'create',
      route: 'expirations.create',
      summary: 'Record a license or warranty expiry for a group or a computer',
      fields: EXPIRATION_FIELDS,
      options: attributeOptions(true),
      constraints: {
        exactlyOne: [['licenseKey'], ['expiresAt'], ['manufacturer'], ['product'], ['group', 'computer']],
      },
      examples: [
        'mon expirations create --license-key XK-2231-99 --expires-at 2026-09-30 --manufacturer apple --product applecare --group "Acme Design"',
        'mon expirations create --license-key C02XL0GHJGH5 --expires-at 2027-01-15 --manufacturer em_4a2f --product ep_0b3e --computer c_81d0 --renewable --notes "AppleCare"',
      ],
      run: ({ params }, ctx) =>
        objectCommand(
          ctx,
          'expirations.create',
          { body: { expiration: params } },
          EXPIRATION_VIEW,
          (e) => `Expiration ${String(e.uid)} created.`,
        ).then(() => undefined),
    }),
    verb({
      name: 'update',
      route: 'expirations.update',
      partial: true,
      summary: "Change an expiration's license key, date, manufacturer, product, owner, renewal or notes",
      description:
        'Only the options given change. --group moves the expiration to that group and detaches it from its computer.',
      args: [UID_ARG],
      fields: EXPIRATION_FIELDS,
      options: attributeOptions(false),
      constraints: { atMostOne: [['group', 'computer']] },
      examples: [
        'mon expirations update e_51b2c3 --expires-at 2027-09-30 --renewable',
        'mon expirations update e_51b2c3 --notes "Renewed by purchase order 4471"',
      ],
      async run({ args, params }, ctx) {
        const uid = args.uid!;
        await objectCommand(
          ctx,
          'expirations.update',
          { path: { uid }, body: { expiration: params } },
          EXPIRATION_VIEW,
          () => `Expiration ${uid} updated.`,
        );
      },
    }),
    {
      name: 'delete',
      jsonOutput: false,
      route: 'expirations.delete',
      aliases: ['rm'],
      summary: 'Delete an expiration for good',
      description: 'Asks for confirmation on a terminal; from a script, add --yes.',
      args: [UID_ARG],
      examples: ['mon expirations delete e_51b2c3', 'mon expirations delete e_51b2c3 --yes'],
      run: ({ args }, ctx) => {
        const uid = args.uid!;
        return deleteCommand(ctx, 'expirations.delete', { path: { uid } }, async () => {
          const { data } = await (await ctx.client()).call('expirations.get', { path: { uid } });
          const e = data as Record<string, unknown>;
          const expires = expiryDate(e.expires_at) ?? 'no date';
          return `expiration ${uid} (license key ${String(e.license_key)}, product ${String(refName(e.expiration_product))}, expires ${String(expires)}, ${e.computer ? 'computer' : 'group'} ${String(owner(e))})`;
        });
      },
    },
  ],
};
