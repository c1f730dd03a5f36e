import { UsageError } from '../errors.js';
import { quoted } from '../text/escape.js';

/**
 * The route table: every endpoint of api-v2.5.md, once, as data. Commands name a route; the
 * client fills in the path. A test checks that every route is used by exactly one command.
 * Keep in sync with the reference's "Endpoints" section.
 */
export const ENDPOINTS = {
  'groups.list': 'GET /v2.5/groups',
  'groups.get': 'GET /v2.5/groups/{uid}',
  'groups.findOrCreate': 'POST /v2.5/groups/find_or_create',
  'groups.update': 'PUT /v2.5/groups/{uid}',

  'computers.list': 'GET /v2.5/computers',
  'computers.get': 'GET /v2.5/computers/{client_id}',
  'computers.update': 'PUT /v2.5/computers/{client_id}',

  'expirations.list': 'GET /v2.5/expirations',
  'expirations.get': 'GET /v2.5/expirations/{uid}',
  'expirations.create': 'POST /v2.5/expirations',
  'expirations.update': 'PUT /v2.5/expirations/{uid}',
  'expirations.delete': 'DELETE /v2.5/expirations/{uid}',

  'expirationManufacturers.list': 'GET /v2.5/expiration_manufacturers',
  'expirationManufacturers.get': 'GET /v2.5/expiration_manufacturers/{uid}',
  'expirationManufacturers.create': 'POST /v2.5/expiration_manufacturers',
  'expirationManufacturers.update': 'PUT /v2.5/expiration_manufacturers/{uid}',
  'expirationManufacturers.delete': 'DELETE /v2.5/expiration_manufacturers/{uid}',

  'expirationProducts.list': 'GET /v2.5/expiration_products',
  'expirationProducts.get': 'GET /v2.5/expiration_products/{uid}',
  'expirationProducts.create': 'POST /v2.5/expiration_products',
  'expirationProducts.update': 'PUT /v2.5/expiration_products/{uid}',
  'expirationProducts.delete': 'DELETE /v2.5/expiration_products/{uid}',

  'notes.list': 'GET /v2.5/notes',
  'notes.get': 'GET /v2.5/notes/{uid}',
  'notes.create': 'POST /v2.5/notes',
  'notes.update': 'PUT /v2.5/notes/{uid}',
  'notes.delete': 'DELETE /v2.5/notes/{uid}',

  'pluginResults.update': 'PUT /v2.5/plugin_results/{uid}',

  'users.list': 'GET /v2.5/users',
} as const;

export type RouteName = keyof typeof ENDPOINTS;
export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'DELETE' | 'PATCH';

/**
 * POSTs that may be sent again without creating a second object: find_or_create returns the
 * existing group by name (api-v2.5, Groups), so a retry after a lost response is harmless.
 */
export const IDEMPOTENT_POSTS: ReadonlySet<RouteName> = new Set(['groups.findOrCreate']);

/**
 * Lists whose order moves a record when the record changes, and the order the API offers that
 * does not: computers come most recently reported first by default (api-v2.5, Computers), so a
 * computer that reports while the list is read moves to the front between two pages, read
 * twice while another is never read. A full read asks for `stable` instead and sorts into the
 * order asked (`sortBy`: the time field each other order sorts on, newest first).
 */
export interface StableOrder {
  /** The query parameter that names the order. */
  param: string;
  /** The order a change does not move a record in (new records come first, which rule 2 of paginate.ts allows). */
  stable: string;
  /** The order when none is asked for. */
  default: string;
  /** Each other order: the time field it sorts on, newest first (ties by uid, as the sandbox). */
  sortBy: Record<string, string>;
}

export const STABLE_ORDERS: Partial<Record<RouteName, StableOrder>> = {
  'computers.list': {
    param: 'order',
    stable: 'created_desc',
    default: 'last_reported_desc',
    sortBy: { last_reported_desc: 'last_report', reported_desc: 'last_report' },
  },
};

/** Splits a route into its method and path template. */
export function routeOf(name: RouteName): { method: HttpMethod; template: string } {
  const [method, template] = ENDPOINTS[name].split(' ') as [HttpMethod, string];
  return { method, template };
}

/**
 * Fills `{name}` placeholders, escaping each value so a uid can never change the path. An empty
 * value, '.' or '..' would: URLs resolve them (even escaped) to the folder or its parent, so
 * `groups get ..` would ask for something else entirely. They are refused (exit 2).
 */
export function fillPath(template: string, values: Record<string, string>): string {
  return template.replace(/\{(\w+)\}/g, (_, key: string) => {
    const value = values[key];
    if (value === undefined) throw new Error(`route ${template} needs {${key}}`);
    if (value === '' || value === '.' || value === '..')
      throw new UsageError(`<${key.replace(/_/g, '-')}>: ${quoted(value)} cannot name an item`);
    return encodeURIComponent(value);
  });
}
