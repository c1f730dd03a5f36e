/**
 * The one selection of the fleet commands (alerts, status, and what builds on them): turns the
 * selectors a user gives into a stream of computers in scope and of the plugin results that
 * match, each with its computer and group. It knows nothing of output.
 *
 * Reads (api-v2.5, Plugin results: "read through a computer with expand[]=plugin_results"):
 * the groups once, for names; then `GET /computers?expand[]=plugin_results` page by page at
 * per_page 100 through the client's paginator, with group_id when exactly one group is named.
 * Everything else is filtered here, since the API has no filter for it. A page that fails after
 * the client's retries ends the stream with its error: nothing downstream may present what came
 * before as the whole.
 *
 * A selection holds each uid once: a computer served on two pages (the list moved while it was
 * read) is taken the first time only, and so are its plugin results, so nothing is counted,
 * planned or written twice.
 */
import type { ApiClient, PreparedRequest, RequestInput } from '../api/client.js';
import type { Attributes } from '../api/encode.js';
import { MAX_PER_PAGE, readWhole } from '../api/paginate.js';
import type { Context } from '../context.js';
import { NotFoundError } from '../errors.js';
import { matchesResult, type ResultMatch } from '../model/plugin-result.js';
import { pick, Resolver } from '../resolve/index.js';
import { quoted, shortened } from '../text/escape.js';

type Item = Record<string, unknown>;

/** Which computers: the whole account, or what these selectors name. */
export interface Scope {
  /** Groups by uid, slug or name (each must exist: exit 4; a name two groups share: exit 2). */
  groups?: readonly string[];
  /** Computers by client_id, svc_id or c_ uid (each must be in scope, or exit 4 at the end). */
  computers?: readonly string[];
  /** Only computers that are missing. */
  missing?: boolean;
  /** The computer filters of `computers list` (platform, serial_number…), sent with the read of the computers. */
  query?: Attributes;
}

/** Which plugin results of the computers in scope: what src/model/plugin-result.ts matches, and names. */
export interface ResultFilter extends ResultMatch {
  /** Plugin names or slugs, any case (each must occur in scope, or exit 4 at the end). */
  plugins?: readonly string[];
  /** Only these plugin result uids (`plugin mute --from`; each must occur in scope, or exit 4 at the end). */
  uids?: readonly string[];
}

/**
 * The filter narrowed to the plugin results named by uid (`--from`): service plugins among them
 * are included, since they were named.
 */
export function namedBy(filter: ResultFilter, uids: readonly string[] | undefined): ResultFilter {
  if (uids === undefined) return filter;
  return { ...filter, uids, includeHidden: true };
}

/**
 * Opens the selection. A client id is looked up at once (one GET: unknown is exit 4 before
 * anything is read); a c_ uid can only be found by reading the computers, which the selection
 * does anyway.
 */
export async function openSelection(
  ctx: Context,
  client: ApiClient,
  scope: Scope,
  filter: ResultFilter,
): Promise<Selection> {
  if (scope.computers?.length) {
    // Reached by --dry-run only in a bulk mute, whose dry run sends every read.
    const resolver = new Resolver(ctx, { sendReads: true });
    const uids = [];
    for (const given of scope.computers)
      uids.push(given.startsWith('c_') ? given : (await resolver.computerByClientId(given, '--computer')).uid);
    scope = { ...scope, computers: uids };
  }
  return Selection.open(client, scope, filter);
}

/** A group as the fleet commands name it. */
export interface GroupRef {
  uid: string;
  name: string | null;
}

/** The progress line of a read of the account's computers: `reading computers 300/10000`. */
export function readingComputers({ computers, total }: { computers: number; total?: number | undefined }): string {
  return `reading computers ${computers}${total === undefined ? '' : `/${total}`}`;
}

/** A computer as the fleet commands name it. */
export interface ComputerRef {
  uid: string | null;
  client_id: string | null;
  name: string | null;
}

/** A computer in scope, with its group and its plugin results as the API sent them. */
export interface ScopedComputer {
  computer: Item;
  group: GroupRef | null;
  results: readonly Item[];
}

/** A selected plugin result: the object as sent, plus `computer` and `group` (docs/design/cli-contract.md, alerts). */
export type SelectedResult = Item & { computer: ComputerRef; group: GroupRef | null };

/** The display name of a computer: its custom name, else its own name. */
export function computerName(computer: Item): string | null {
  const name = computer.custom_name || computer.computer_name;
  return typeof name === 'string' ? name : null;
}

/** The uid a reference holds: a uid string, or an expanded object (--expand group). */
function uidOf(value: unknown): string | undefined {
  if (typeof value === 'string') return value;
  if (value && typeof value === 'object' && typeof (value as Item).uid === 'string')
    return (value as Item).uid as string;
  return undefined;
}

/** missing true (api-v2.5, Computer flags). */
export function isMissing(computer: Item): boolean {
  return computer.missing === true;
}

/**
 * The groups a scope names, found among the account's groups by the one resolver's rules
 * (src/resolve: uid, slug or name, any case; unknown exit 4, shared name exit 2).
 */
function resolveGroups(groups: readonly Item[], wanted: readonly string[]): GroupRef[] {
  const found = new Map<string, GroupRef>();
  for (const given of wanted) {
    const { uid, name } = pick('group', given, groups, '--group');
    found.set(uid, { uid, name: name ?? null });
  }
  return [...found.values()];
}

/** What a selection will send, for --dry-run: the groups, then the computers' first page. */
export function plannedRequests(client: ApiClient, scope: Scope): PreparedRequest[] {
  return [
    client.prepare('groups.list', { query: { per_page: MAX_PER_PAGE } }),
    // group_id as given: a name is sent as the uid it resolves to.
    client.prepare(
      'computers.list',
      client.readOf(
        'computers.list',
        computersInput(scope.groups?.length === 1 ? scope.groups[0] : undefined, scope, 1),
        COMPUTERS_READ,
      ).input,
    ),
  ];
}

/** The computers of a selection: every page, in any order (what is done with them sorts or counts). */
const COMPUTERS_READ = { all: true, perPage: MAX_PER_PAGE, anyOrder: true } as const;

function computersInput(groupId: string | undefined, scope: Scope, page?: number): RequestInput {
  return {
    query: {
      ...scope.query,
      expand: ['plugin_results'],
      // The API's own filters where they say the same: fewer pages to read.
      group_id: groupId,
      status: scope.missing ? 'missing' : undefined,
      ...(page === undefined ? {} : { page, per_page: MAX_PER_PAGE }),
    },
  };
}

/**
 * The plugin result `uid` as it stands, if a mute is in force on it; undefined when it is not
 * muted (or not in the account). Only computers with a muted plugin are read (status
 * has_muted_plugin, which counts mutes in force), page by page until it is met: the API reads
 * a plugin result only through its computer.
 */
export async function findMutedResult(client: ApiClient, uid: string): Promise<Item | undefined> {
  const input = { query: { expand: ['plugin_results'], status: 'has_muted_plugin' } };
  for await (const page of client.pages('computers.list', input, { all: true, perPage: MAX_PER_PAGE })) {
    for (const computer of page.items) {
      const results = Array.isArray(computer.plugin_results) ? (computer.plugin_results as Item[]) : [];
      const found = results.find((result) => result.uid === uid);
      if (found) return found;
    }
  }
  return undefined;
}

/** An open selection: the account's groups are read and the scope's groups resolved. */
export class Selection {
  private readonly computerKeys: Set<string> | undefined;
  private readonly seenComputers = new Set<string>();
  private readonly pluginKeys: Set<string> | undefined;
  private readonly seenPlugins = new Set<string>();
  private readonly uidKeys: Set<string> | undefined;
  private readonly seenUids = new Set<string>();
  /** The computers taken so far, by uid (else client_id): one served again is skipped. */
  private readonly taken = new Set<string>();
  /** Computers read so far (in scope or not, each once), and x-total of the list once known: for progress. */
  readonly read = { computers: 0, total: undefined as number | undefined };

  private constructor(
    private readonly client: ApiClient,
    private readonly scope: Scope,
    /** Every group of the account, by uid. */
    readonly groups: ReadonlyMap<string, GroupRef>,
    /** The groups the scope names, resolved; undefined for the whole account. */
    readonly scopeGroups: readonly GroupRef[] | undefined,
    private readonly filter: ResultFilter | undefined,
  ) {
    this.computerKeys = scope.computers?.length ? new Set(scope.computers.map((c) => c.trim())) : undefined;
    this.pluginKeys = filter?.plugins?.length ? new Set(filter.plugins.map((p) => p.trim().toLowerCase())) : undefined;
    this.uidKeys = filter?.uids ? new Set(filter.uids) : undefined;
  }

  /**
   * Reads the account's groups (every page) and resolves the scope's; an unknown group ends it
   * here, before any computer is read.
   */
  static async open(client: ApiClient, scope: Scope, filter?: ResultFilter): Promise<Selection> {
    const groups: Item[] = [];
    for (const page of await readWhole(() => client.pages('groups.list', {}, { all: true, perPage: MAX_PER_PAGE }))) {
      for (const { uid, slug, name } of page.items) if (typeof uid === 'string') groups.push({ uid, slug, name });
    }
    const scopeGroups = scope.groups?.length ? resolveGroups(groups, scope.groups) : undefined;
    const names = new Map<string, GroupRef>(
      groups.map(({ uid, name }) => [
        uid as string,
        { uid: uid as string, name: typeof name === 'string' ? name : null },
      ]),
    );
    return new Selection(client, scope, names, scopeGroups, filter);
  }

  /**
   * The computers in scope, one array per page as pages arrive, each with its group and plugin
   * results. Memory: the pages in flight, nothing kept after.
   */
  async *computers(): AsyncGenerator<ScopedComputer[]> {
    const only = this.scopeGroups ? new Set(this.scopeGroups.map((g) => g.uid)) : undefined;
    const input = computersInput(this.scopeGroups?.length === 1 ? this.scopeGroups[0]!.uid : undefined, this.scope);
    for await (const page of this.client.pages('computers.list', input, COMPUTERS_READ)) {
      const scoped: ScopedComputer[] = [];
      this.read.total ??= page.total;
      for (const computer of page.items) {
        if (!this.take(computer)) continue;
        this.read.computers++;
        const groupUid = uidOf(computer.group);
        if (only && (groupUid === undefined || !only.has(groupUid))) continue;
        if (this.scope.missing && !isMissing(computer)) continue;
        if (this.computerKeys && !this.matchComputer(computer)) continue;
        const results = Array.isArray(computer.plugin_results) ? (computer.plugin_results as Item[]) : [];
        if (this.pluginKeys) for (const result of results) this.notePlugin(result);
        if (this.uidKeys)
          for (const { uid } of results) if (typeof uid === 'string' && this.uidKeys.has(uid)) this.seenUids.add(uid);
        const group = groupUid === undefined ? null : (this.groups.get(groupUid) ?? { uid: groupUid, name: null });
        scoped.push({ computer, group, results });
      }
      yield scoped;
    }
  }

  /** The plugin results that pass the filter, one array per page, as pages arrive. */
  /** `onComputer`: each computer of the scope with all its results, before the filter (a caller that also counts, as the history does). */
  async *results(nowSec: number, onComputer?: (entry: ScopedComputer) => void): AsyncGenerator<SelectedResult[]> {
    const filter = this.filter ?? { statuses: [], muted: 'any', includeHidden: true };
    // A result uid under two computers (a server's error) is selected once too.
    const selectedUids = new Set<string>();
    for await (const page of this.computers()) {
      const selected: SelectedResult[] = [];
      for (const entry of page) {
        onComputer?.(entry);
        const { computer, group, results } = entry;
        let ref: ComputerRef | undefined;
        for (const result of results) {
          if (this.uidKeys && !this.uidKeys.has(String(result.uid))) continue;
          if (!matchesResult(result, filter, nowSec)) continue;
          if (
            this.pluginKeys &&
            !this.pluginKeys.has(String(result.name).toLowerCase()) &&
            !this.pluginKeys.has(String(result.slug).toLowerCase())
          )
            continue;
          if (typeof result.uid === 'string') {
            if (selectedUids.has(result.uid)) continue;
            selectedUids.add(result.uid);
          }
          ref ??= {
            uid: typeof computer.uid === 'string' ? computer.uid : null,
            client_id:
              typeof computer.client_id === 'string'
                ? computer.client_id
                : typeof computer.svc_id === 'string'
                  ? computer.svc_id
                  : null,
            name: computerName(computer),
          };
          selected.push({ ...result, computer: ref, group });
        }
      }
      yield selected;
    }
  }

  /**
   * After the whole stream: a computer or plugin the selectors named that never showed up in
   * scope is an error (exit 4), not a silent empty answer. Plugins can only be known this way:
   * the API lists them nowhere but on their computers.
   */
  checkNamed(): void {
    const computers = [...(this.computerKeys ?? [])].filter((key) => !this.seenComputers.has(key));
    if (computers.length > 0) {
      throw new NotFoundError(
        `--computer: no computer ${computers.map((c) => quoted(c)).join(', ')}${this.scopeGroups || this.scope.missing ? ' among the selected computers' : ''}`,
        'list the computers with `mon computers list --all`',
      );
    }
    // Named as typed, not as matched (any case).
    const plugins = [...new Set(this.filter?.plugins ?? [])].filter(
      (typed) => !this.seenPlugins.has(typed.trim().toLowerCase()),
    );
    if (plugins.length > 0) {
      throw new NotFoundError(
        `--plugin: no plugin named ${plugins.map((p) => quoted(p)).join(', ')} on any computer in scope (by name or slug, any case)`,
        'check the spelling: `mon plugin list <client-id>` shows the names',
      );
    }
    const uids = [...(this.uidKeys ?? [])].filter((uid) => !this.seenUids.has(uid));
    if (uids.length > 0) {
      const shown =
        uids
          .slice(0, 10)
          .map((uid) => shortened(uid))
          .join(', ') + (uids.length > 10 ? ` and ${uids.length - 10} more` : '');
      throw new NotFoundError(
        `--from: no plugin result ${shown}${this.scopeGroups || this.scope.missing || this.computerKeys ? ' on the selected computers' : ' in this account'}`,
        'take the uids from `mon alerts -o ndjson` of the same account',
      );
    }
  }

  /** Whether `computer` is met for the first time (it is then remembered). */
  private take(computer: Item): boolean {
    const key =
      typeof computer.uid === 'string'
        ? computer.uid
        : typeof computer.client_id === 'string'
          ? `client_id ${computer.client_id}`
          : undefined;
    if (key === undefined) return true;
    if (this.taken.has(key)) return false;
    this.taken.add(key);
    return true;
  }

  private matchComputer(computer: Item): boolean {
    for (const key of [computer.client_id, computer.svc_id, computer.uid]) {
      if (typeof key === 'string' && this.computerKeys!.has(key)) {
        this.seenComputers.add(key);
        // A computer named twice (client_id and uid) counts as seen under both.
        for (const other of [computer.client_id, computer.svc_id, computer.uid])
          if (typeof other === 'string') this.seenComputers.add(other);
        return true;
      }
    }
    return false;
  }

  private notePlugin(result: Item): void {
    for (const key of [result.name, result.slug]) {
      if (typeof key === 'string' && this.pluginKeys!.has(key.toLowerCase())) this.seenPlugins.add(key.toLowerCase());
    }
  }
}
