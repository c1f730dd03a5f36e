import { json, UNEXPECTED, type Handler, type ReceivedRequest } from './fake-api.js';
import type { ServerResponse } from 'node:http';

/** A small account with known data, for the fleet commands: groups, computers with plugin results, expirations. */
export interface Fleet {
  groups: Record<string, unknown>[];
  computers: Record<string, unknown>[];
  expirations: Record<string, unknown>[];
}

type Result = {
  uid: string;
  name: string;
  slug: string;
  status: string;
  muted?: boolean;
  visible?: boolean;
  last_run?: number;
  details?: string;
};

/** A plugin result as the API sends it, with defaults for what a test does not care about. */
export function result(
  uid: string,
  name: string,
  status: string,
  extra: Partial<Result> = {},
): Record<string, unknown> {
  return {
    uid,
    name,
    slug: name.toLowerCase().replace(/\W+/g, '_'),
    status,
    details: `${name}: ${status}`,
    last_run: 1_790_000_000,
    muted: false,
    mute_type: null,
    visible: true,
    ...extra,
  };
}

/** A computer as the API sends it with expand[]=plugin_results. */
export function computer(
  n: number,
  group: string | null,
  results: Record<string, unknown>[],
  extra: Record<string, unknown> = {},
): Record<string, unknown> {
  return {
    uid: `c_${n}`,
    client_id: `CLIENT-${n}`,
    computer_name: `host-${n}`,
    custom_name: null,
    group,
    platform: ['mac', 'windows', 'linux'][n % 3],
    missing: false,
    hidden: false,
    pending_removal: false,
    plugin_results: results,
    ...extra,
  };
}

/** Serves one page of `items` as the API does: page/per_page and the x- headers. */
export function page(req: ReceivedRequest, res: ServerResponse, items: readonly unknown[]): void {
  const number = Number(req.query.get('page') ?? 1);
  const perPage = Math.min(100, Number(req.query.get('per_page') ?? 50));
  const pages = Math.ceil(items.length / perPage);
  json(res, 200, items.slice((number - 1) * perPage, number * perPage), {
    'x-page': String(number),
    'x-per-page': String(perPage),
    'x-total': String(items.length),
    'x-total-pages': String(pages),
    'x-next-page': number < pages ? String(number + 1) : '',
  });
}

/**
 * The API's lists over a fleet: groups, computers (group_id and status=missing filters;
 * plugin_results only when expanded) and expirations (group filter). `hook` may answer a request
 * itself (a fault, a delay) by returning true.
 */
export function fleetHandler(
  fleet: Fleet,
  hook?: (req: ReceivedRequest, res: ServerResponse) => boolean | Promise<boolean>,
): Handler {
  return async (req, res) => {
    if (hook && (await hook(req, res))) return;
    if (req.path === '/v2.5/groups') return page(req, res, fleet.groups);
    if (req.path === '/v2.5/computers') {
      const group = req.query.get('group_id');
      const expand = req.query.getAll('expand[]').includes('plugin_results');
      const items = fleet.computers
        .filter(
          (c) => group === null || c.group === group || fleet.groups.some((g) => g.slug === group && g.uid === c.group),
        )
        .filter((c) => req.query.get('status') !== 'missing' || c.missing === true)
        .map((c) => (expand ? c : { ...c, plugin_results: undefined }));
      return page(req, res, items);
    }
    if (req.path === '/v2.5/expirations') {
      const group = req.query.get('group');
      return page(
        req,
        res,
        fleet.expirations.filter((e) => group === null || e.group === group),
      );
    }
    return UNEXPECTED;
  };
}
