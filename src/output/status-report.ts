/**
 * What `mon status` reports, as data: the shape `status -o json` prints, the text renderer
 * (status.ts), the metrics (openmetrics.ts) and the report read. Counted in src/fleet/status.ts;
 * declared here, below both, so that output never imports fleet.
 */
/** The object `status -o json` prints; keys documented in docs/guides/fleet.md (keep in sync). */
export interface StatusReport {
  /** The groups named with --group, or null for the whole account. */
  scope: { groups: { uid: string; name: string | null }[] | null };
  computers: {
    total: number;
    missing: number;
    hidden: number;
    pending_removal: number;
    platforms: Record<string, number>;
  };
  plugin_results: { total: number; alerts: number; warnings: number; muted: number; hidden: number };
  top_plugins: { name: string; alerts: number }[];
  groups: GroupCount[];
  /** `windows`: what ends within 30 and 90 days, not yet ended (`-o openmetrics`). */
  expirations: { expired: number; expiring: number; within_days: number; windows: Record<ExpirationWindow, number> };
}

/** The fixed windows of `mon_expirations` (-o openmetrics), in days. */
export const EXPIRATION_WINDOWS = { '30d': 30, '90d': 90 } as const;
export type ExpirationWindow = keyof typeof EXPIRATION_WINDOWS;

/** One group's counts; `unmuted` and `muted` count visible plugin results by the API's status. */
export interface GroupCount {
  uid: string | null;
  name: string | null;
  computers: number;
  missing: number;
  alerts: number;
  warnings: number;
  hidden: number;
  platforms: Record<string, number>;
  results: { unmuted: Record<string, number>; muted: Record<string, number> };
}
