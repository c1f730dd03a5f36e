import type { PreparedRequest, RequestInput } from '../api/client.js';
import { readWhole } from '../api/paginate.js';
import type { RouteName } from '../api/endpoints.js';
import { KIND_PREFIX, optionKey, optionLabel, type ResolveKind, type VerbSpec } from '../spec/spec.js';
import type { Context } from '../context.js';
import { NotFoundError, UsageError } from '../errors.js';
import { quoted, shortened } from '../text/escape.js';

/**
 * One place that turns what a person types for a computer, group, expiration manufacturer
 * or expiration product into what the API wants (docs/design/cli-contract.md: "Wherever a command
 * names a computer…"). Lookups go through the normal client (rate budget, retries, --verbose);
 * with --dry-run, resolveInput returns the first lookup that would be sent instead (firstLookup).
 * (Plugins are matched by name or slug in src/fleet/selection.ts, as the results stream in:
 * the API lists them nowhere but on their computers.)
 *
 * - computer: its client_id (or the deprecated svc_id, the same value) or its c_ uid. A path
 *   wants the client id, a body or filter wants the uid: the other form is looked up.
 * - group, expiration manufacturer, expiration product: its uid, its slug or its exact name,
 *   case-insensitive. Unknown: exit 4. A name shared by several: exit 2 with the candidates.
 */

/** What a lookup found. */
export interface Ref {
  uid: string;
  client_id?: string;
  slug?: string;
  name?: string;
}

interface Catalogue {
  noun: string;
  prefix: string;
  get: RouteName;
  list: RouteName;
  /** The command that lists them, for hints. */
  command: string;
}

const CATALOGUES: Record<'group' | 'manufacturer' | 'product', Catalogue> = {
  group: {
    noun: 'group',
    prefix: KIND_PREFIX.group,
    get: 'groups.get',
    list: 'groups.list',
    command: 'mon groups list',
  },
  manufacturer: {
    noun: 'expiration manufacturer',
    prefix: KIND_PREFIX.manufacturer,
    get: 'expirationManufacturers.get',
    list: 'expirationManufacturers.list',
    command: 'mon manufacturers list',
  },
  product: {
    noun: 'expiration product',
    prefix: KIND_PREFIX.product,
    get: 'expirationProducts.get',
    list: 'expirationProducts.list',
    command: 'mon products list',
  },
};

const COMPUTER_HINT = 'list them with `mon computers list --fields client_id,uid,name`';

/** The uid prefix of each kind: a value with it is taken for a uid. */
export function uidPrefix(kind: ResolveKind): string {
  return KIND_PREFIX[kind];
}

/** Looks things up through one client; `label` names the option in messages (`--group`). */
export class Resolver {
  /**
   * A Resolver sends its lookups, with --dry-run too (a bulk mute's dry run reads its whole
   * selection, the lookup of a computer's client id included): resolveInput shows the first
   * lookup instead (firstLookup). `_options.sendReads` is what every Resolver now does.
   */
  constructor(
    private readonly ctx: Context,
    _options: { sendReads?: boolean } = {},
  ) {}

  /** The value the request needs for `text`, as `kind` says. */
  async resolve(kind: ResolveKind, text: string, label: string): Promise<string> {
    const value = text.trim();
    if (kind === 'computer') return value.startsWith('c_') ? value : (await this.computerByClientId(value, label)).uid;
    if (kind === 'client-id')
      return value.startsWith('c_') ? (await this.computerByUid(value, label)).client_id! : value;
    return (await this.find(kind, value, label)).uid;
  }

  /** A computer by client id (or svc_id): one GET. */
  async computerByClientId(clientId: string, label: string): Promise<Ref> {
    const found = await this.get('computers.get', { path: { client_id: clientId } });
    if (!found) throw new NotFoundError(`${label}: no computer with client id ${quoted(clientId)}`, COMPUTER_HINT);
    return computerRef(found);
  }

  /**
   * A computer by c_ uid. The API reads computers by client id only, so the list is read
   * (100 a page) until the uid turns up.
   */
  async computerByUid(uid: string, label: string): Promise<Ref> {
    const client = await this.ctx.client();
    for await (const page of client.pages('computers.list', {}, { all: true, anyOrder: true })) {
      const found = page.items.find((item) => item.uid === uid);
      if (found) return computerRef(found);
    }
    throw new NotFoundError(`${label}: no computer with uid ${quoted(uid)}`, COMPUTER_HINT);
  }

  /**
   * A group, manufacturer or product by uid, slug or exact name (case-insensitive). A value
   * that could be a uid or slug is first read directly (one GET; groups read slugs too); then
   * the list is read and matched by slug, then by name.
   */
  async find(kind: 'group' | 'manufacturer' | 'product', text: string, label: string): Promise<Ref> {
    const catalogue = CATALOGUES[kind];
    if (directly(kind, text)) {
      const found = await this.get(catalogue.get, { path: { uid: text } });
      if (found) return ref(found);
      if (text.startsWith(catalogue.prefix)) {
        throw new NotFoundError(
          `${label}: no ${catalogue.noun} with uid ${quoted(text)}`,
          `list them with \`${catalogue.command}\``,
        );
      }
    }
    const items: Record<string, unknown>[] = [];
    const client = await this.ctx.client();
    for (const page of await readWhole(() => client.pages(catalogue.list, {}, { all: true })))
      items.push(...page.items);
    return pick(kind, text, items, label);
  }

  /**
   * The first request a lookup of `text` as `kind` sends (what --dry-run shows in its stead: what
   * follows depends on its answer). The same order as `resolve`: a computer by client id is one
   * GET, by uid the list; a group, manufacturer or product is read directly when the value could
   * be its uid or slug, else listed.
   */
  async firstLookup(kind: ResolveKind, text: string, label: string): Promise<LookupToShow> {
    const value = text.trim();
    const what = `${label} ${quoted(value)}`;
    const client = await this.ctx.client();
    const list: RequestInput = { query: { page: 1, per_page: 100 } };
    if (kind === 'computer') return { prepared: client.prepare('computers.get', { path: { client_id: value } }), what };
    if (kind === 'client-id') return { prepared: client.prepare('computers.list', list), what };
    const catalogue = CATALOGUES[kind];
    return {
      prepared: directly(kind, value)
        ? client.prepare(catalogue.get, { path: { uid: value } })
        : client.prepare(catalogue.list, list),
      what,
    };
  }

  /** One GET; undefined on 404. */
  private async get(route: RouteName, input: RequestInput): Promise<Record<string, unknown> | undefined> {
    const client = await this.ctx.client();
    try {
      return (await client.call(route, input)).data as Record<string, unknown>;
    } catch (error) {
      if (error instanceof NotFoundError) return undefined;
      throw error;
    }
  }
}

/**
 * The one group, manufacturer or product `text` names among `items` (a list already read): by
 * uid, then slug, then name, ignoring case; of names that differ only in case (the API keeps
 * "Dup Group" and "DUP GROUP" apart), the one written exactly as given. None: exit 4; several:
 * exit 2 with the candidates.
 */
export function pick(
  kind: 'group' | 'manufacturer' | 'product',
  text: string,
  items: readonly Record<string, unknown>[],
  label: string,
): Ref {
  const catalogue = CATALOGUES[kind];
  const lower = text.trim().toLowerCase();
  const byUid = items.filter((item) => item.uid === text.trim());
  const bySlug = items.filter((item) => typeof item.slug === 'string' && item.slug.toLowerCase() === lower);
  const byName = items.filter((item) => typeof item.name === 'string' && item.name.toLowerCase() === lower);
  const byExactName = byName.filter((item) => item.name === text.trim());
  const matches =
    [byUid, bySlug, byExactName.length === 1 ? byExactName : byName].find((list) => list.length > 0) ?? [];
  if (matches.length === 1) return ref(matches[0]!);
  if (matches.length === 0) {
    throw new NotFoundError(
      `${label}: no ${catalogue.noun} ${quoted(text)} (looked up by uid, slug and name)`,
      `list them with \`${catalogue.command}\``,
    );
  }
  const candidates = matches.map(
    (item) =>
      `${shortened(String(item.uid))} (${item.slug ? `${shortened(String(item.slug))}, ` : ''}"${shortened(String(item.name))}")`,
  );
  throw new UsageError(
    `${label}: ${quoted(text)} names ${matches.length} ${catalogue.noun}s: ${candidates.join(', ')}`,
    'give the uid or slug of the one you mean',
  );
}

function ref(item: Record<string, unknown>): Ref {
  return {
    uid: String(item.uid),
    ...(typeof item.slug === 'string' && { slug: item.slug }),
    ...(typeof item.name === 'string' && { name: item.name }),
  };
}

function computerRef(item: Record<string, unknown>): Ref {
  const clientId = item.client_id ?? item.svc_id;
  const name = item.custom_name || item.computer_name;
  return {
    uid: String(item.uid),
    ...(typeof clientId === 'string' && { client_id: clientId }),
    ...(typeof name === 'string' && { name }),
  };
}

/** With --dry-run, the request a lookup would send first: what follows depends on its answer. */
export interface LookupToShow {
  prepared: PreparedRequest;
  /** What the lookup is for: "--group 'Acme Design'". */
  what: string;
}

/** Whether a group, manufacturer or product named `text` is first read directly: it could be its uid (or a group's slug). */
function directly(kind: 'group' | 'manufacturer' | 'product', text: string): boolean {
  return text.startsWith(CATALOGUES[kind].prefix) || (kind === 'group' && /^[\w-]+$/.test(text));
}

/**
 * Replaces every argument and option that declares `resolve` by the value the request needs.
 * A value already in that form (a uid, or a client id for a path) goes as it is: the request
 * itself checks it. One exception: the group, manufacturer or product filter of a list is
 * read first even as a uid, since a filter naming nothing would print an empty list as if it
 * were the answer.
 */
export async function resolveInput<
  I extends { args: Record<string, string | undefined>; opts: Record<string, unknown> },
>(verb: VerbSpec, input: I, ctx: Context): Promise<{ input: I } | { wouldLookUp: LookupToShow }> {
  const args = { ...input.args };
  const opts = { ...input.opts };
  const wanted: { kind: ResolveKind; value: string; label: string; set: (value: string) => void; filter: boolean }[] =
    [];
  for (const arg of verb.args ?? []) {
    const value = args[arg.name];
    if (arg.resolve && value !== undefined)
      wanted.push({
        kind: arg.resolve,
        value,
        label: `<${arg.name}>`,
        set: (v) => (args[arg.name] = v),
        filter: false,
      });
  }
  for (const option of verb.options ?? []) {
    const key = optionKey(option);
    const value = opts[key];
    if (option.resolve && typeof value === 'string') {
      wanted.push({
        kind: option.resolve,
        value,
        label: optionLabel(option),
        set: (v) => (opts[key] = v),
        filter: verb.list === true,
      });
    }
  }
  const resolver = new Resolver(ctx);
  for (const { kind, value, label, set, filter } of wanted) {
    const ready =
      kind === 'client-id'
        ? !value.startsWith('c_')
        : value.startsWith(uidPrefix(kind)) && (kind === 'computer' || !filter);
    if (ready) continue;
    // With --dry-run the first lookup is shown, not sent: what follows depends on its answer.
    if (ctx.dryRun.on) return { wouldLookUp: await resolver.firstLookup(kind, value, label) };
    set(await resolver.resolve(kind, value, label));
  }
  return { input: { ...input, args, opts } };
}
