/**
 * `mon status`: counts over the selection. Its memory grows with the number of groups and
 * plugin names, and by a uid per computer (the selection's, to count each once): each page is
 * counted and let go.
 */
import type { ApiClient } from '../api/client.js';
import { MAX_PER_PAGE, readWhole } from '../api/paginate.js';
import { parseTime } from '../time/parse.js';
import { isHidden, isMuted } from '../model/plugin-result.js';
import { isMissing, plannedRequests, Selection, type Scope, type ScopedComputer } from './selection.js';
import {
  EXPIRATION_WINDOWS,
  type ExpirationWindow,
  type GroupCount,
  type StatusReport,
} from '../output/status-report.js';

export { EXPIRATION_WINDOWS, type ExpirationWindow, type GroupCount, type StatusReport };

/** How many plugins `top_plugins` lists. */
export const TOP_PLUGINS = 10;

const groupCount = (uid: string | null, name: string | null): GroupCount => ({
  uid,
  name,
  computers: 0,
  missing: 0,
  alerts: 0,
  warnings: 0,
  hidden: 0,
  platforms: {},
  results: { unmuted: {}, muted: {} },
});

const add = (counts: Record<string, number>, key: string): void => {
  counts[key] = (counts[key] ?? 0) + 1;
};

/** The requests status sends first, for --dry-run. */
export function plannedStatusRequests(client: ApiClient, scope: Scope) {
  return [
    ...plannedRequests(client, scope),
    client.prepare('expirations.list', {
      query: { per_page: MAX_PER_PAGE, group: scope.groups?.length === 1 ? scope.groups[0] : undefined },
    }),
  ];
}

/**
 * What a caller sees besides the counts, as the pages stream (`mon report` keeps its details
 * from them, so that its counts are these by construction).
 */
export interface StatusVisitor {
  /** After each page (progress). */
  onPage?: (read: Selection['read']) => void;
  /** Each computer of the selection with its group and plugin results. */
  onComputer?: (entry: ScopedComputer) => void;
  /** Each expiration of the scope. */
  onExpiration?: (expiration: Record<string, unknown>) => void;
}

/**
 * Reads the fleet and counts. Any page that fails after the retries throws: there is no
 * partial report.
 */
export async function collectStatus(
  client: ApiClient,
  scope: Scope,
  nowMs: number,
  withinSec: number,
  visitor: StatusVisitor = {},
): Promise<StatusReport> {
  const { onPage, onComputer, onExpiration } = visitor;
  const nowSec = Math.floor(nowMs / 1000);
  const selection = await Selection.open(client, scope);
  const computers = { total: 0, missing: 0, hidden: 0, pending_removal: 0, platforms: {} as Record<string, number> };
  const results = { total: 0, alerts: 0, warnings: 0, muted: 0, hidden: 0 };
  const byPlugin = new Map<string, number>();
  const byGroup = new Map<string | null, GroupCount>();
  for (const group of selection.scopeGroups ?? []) byGroup.set(group.uid, groupCount(group.uid, group.name));

  for await (const page of selection.computers()) {
    for (const entry of page) {
      onComputer?.(entry);
      const { computer, group, results: list } = entry;
      const key = group?.uid ?? null;
      let counts = byGroup.get(key);
      if (!counts) byGroup.set(key, (counts = groupCount(key, group?.name ?? null)));
      computers.total++;
      counts.computers++;
      if (isMissing(computer)) {
        computers.missing++;
        counts.missing++;
      }
      if (computer.hidden === true) {
        computers.hidden++;
        counts.hidden++;
      }
      if (computer.pending_removal === true) computers.pending_removal++;
      const platform =
        typeof computer.platform === 'string' && computer.platform !== '' ? computer.platform : 'unknown';
      add(computers.platforms, platform);
      add(counts.platforms, platform);
      for (const result of list) countResult(result, nowSec, { results, group: counts, byPlugin });
    }
    onPage?.(selection.read);
  }

  const expirations = await countExpirations(client, selection, nowSec, withinSec, onExpiration);
  const top_plugins = [...byPlugin]
    .map(([name, alerts]) => ({ name, alerts }))
    .sort((a, b) => b.alerts - a.alerts || a.name.localeCompare(b.name))
    .slice(0, TOP_PLUGINS);
  const groups = [...byGroup.values()].sort(
    (a, b) =>
      b.alerts - a.alerts ||
      b.missing - a.missing ||
      b.warnings - a.warnings ||
      String(a.name ?? '').localeCompare(String(b.name ?? '')),
  );
  return {
    scope: { groups: selection.scopeGroups ? [...selection.scopeGroups] : null },
    computers,
    plugin_results: results,
    top_plugins,
    groups,
    expirations: { ...expirations, within_days: Math.round((withinSec / 86_400) * 100) / 100 },
  };
}

/** Counts one plugin result: in the account's totals, its group's, and by plugin when it alerts unmuted. */
function countResult(
  result: Record<string, unknown>,
  nowSec: number,
  into: { results: StatusReport['plugin_results']; group: GroupCount; byPlugin: Map<string, number> },
): void {
  const { results, group: counts, byPlugin } = into;
  results.total++;
  if (isHidden(result)) {
    results.hidden++;
    return;
  }
  const status = typeof result.status === 'string' && result.status !== '' ? result.status : 'unknown';
  if (isMuted(result, nowSec)) {
    results.muted++;
    add(counts.results.muted, status);
    return;
  }
  add(counts.results.unmuted, status);
  if (result.status === 'Alert') {
    results.alerts++;
    counts.alerts++;
    const name = String(result.name ?? result.slug ?? '');
    byPlugin.set(name, (byPlugin.get(name) ?? 0) + 1);
  } else if (result.status === 'Warning') {
    results.warnings++;
    counts.warnings++;
  }
}

/** Expired (before now), expiring (from now to now + within) and in each fixed window, of the scope. */
async function countExpirations(
  client: ApiClient,
  selection: Selection,
  nowSec: number,
  withinSec: number,
  onExpiration?: StatusVisitor['onExpiration'],
): Promise<{ expired: number; expiring: number; windows: Record<ExpirationWindow, number> }> {
  const only = selection.scopeGroups ? new Set(selection.scopeGroups.map((g) => g.uid)) : undefined;
  const group = selection.scopeGroups?.length === 1 ? selection.scopeGroups[0]!.uid : undefined;
  let expired = 0;
  let expiring = 0;
  const windows: Record<ExpirationWindow, number> = { '30d': 0, '90d': 0 };
  for (const page of await readWhole(() =>
    client.pages('expirations.list', { query: { group } }, { all: true, perPage: MAX_PER_PAGE }),
  )) {
    for (const expiration of page.items) {
      if (only) {
        const ref = expiration.group;
        const uid =
          typeof ref === 'string' ? ref : ref && typeof ref === 'object' ? (ref as { uid?: unknown }).uid : undefined;
        if (typeof uid !== 'string' || !only.has(uid)) continue;
      }
      onExpiration?.(expiration);
      const at = parseTime(expiration.expires_at);
      if (at === undefined) continue;
      const seconds = at / 1000;
      if (seconds < nowSec) {
        expired++;
        continue;
      }
      if (seconds <= nowSec + withinSec) expiring++;
      for (const [window, days] of Object.entries(EXPIRATION_WINDOWS))
        if (seconds <= nowSec + days * 86_400) windows[window as ExpirationWindow]++;
    }
  }
  return { expired, expiring, windows };
}

/**
 * The report of several accounts taken together (`status --profiles`): counts added up, the
 * plugins with the most alerts across them, every account's groups named `profile / group`.
 */
export function totalReport(accounts: readonly { profile: string; report: StatusReport }[]): StatusReport {
  const computers = { total: 0, missing: 0, hidden: 0, pending_removal: 0, platforms: {} as Record<string, number> };
  const results = { total: 0, alerts: 0, warnings: 0, muted: 0, hidden: 0 };
  const expirations = {
    expired: 0,
    expiring: 0,
    within_days: accounts[0]?.report.expirations.within_days ?? 0,
    windows: { '30d': 0, '90d': 0 } as Record<ExpirationWindow, number>,
  };
  const byPlugin = new Map<string, number>();
  for (const { report } of accounts) {
    for (const key of ['total', 'missing', 'hidden', 'pending_removal'] as const)
      computers[key] += report.computers[key];
    for (const [platform, n] of Object.entries(report.computers.platforms))
      computers.platforms[platform] = (computers.platforms[platform] ?? 0) + n;
    for (const key of ['total', 'alerts', 'warnings', 'muted', 'hidden'] as const)
      results[key] += report.plugin_results[key];
    expirations.expired += report.expirations.expired;
    expirations.expiring += report.expirations.expiring;
    for (const window of Object.keys(EXPIRATION_WINDOWS) as ExpirationWindow[])
      expirations.windows[window] += report.expirations.windows[window];
    for (const { name, alerts } of report.top_plugins) byPlugin.set(name, (byPlugin.get(name) ?? 0) + alerts);
  }
  const named = (profile: string, name: string | null) => `${profile} / ${name ?? '(no group)'}`;
  const scoped = accounts.flatMap(({ profile, report }) =>
    (report.scope.groups ?? []).map((group) => ({ ...group, name: named(profile, group.name ?? group.uid) })),
  );
  return {
    scope: { groups: scoped.length > 0 ? scoped : null },
    computers,
    plugin_results: results,
    top_plugins: [...byPlugin]
      .map(([name, alerts]) => ({ name, alerts }))
      .sort((a, b) => b.alerts - a.alerts || a.name.localeCompare(b.name))
      .slice(0, TOP_PLUGINS),
    groups: accounts
      .flatMap(({ profile, report }) => report.groups.map((group) => ({ ...group, name: named(profile, group.name) })))
      .sort(
        (a, b) =>
          b.alerts - a.alerts || b.missing - a.missing || b.warnings - a.warnings || a.name.localeCompare(b.name),
      ),
    expirations,
  };
}
