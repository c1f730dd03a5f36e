/**
 * The one way a read records the day's snapshot of an account (`status`, `report`, `alerts`, and
 * `metrics serve`'s refresh of each account): ask for a recorder before the read, hand its
 * visitor's calls the pages, and `record` the counts after the read has wholly succeeded. No
 * recorder (undefined) when MON_HISTORY=0, under --dry-run, or when the read is not of the whole
 * account (--group, a computer filter): a part of an account is not its history.
 */
import type { Context } from '../context.js';
import type { Scope, ScopedComputer } from '../fleet/selection.js';
import { SnapshotBuilder, type Snapshot } from './snapshot.js';
import { historyEnabled, lastTaken, recordSnapshot as writeSnapshot } from './store.js';

export interface HistoryRecorder {
  computer(entry: ScopedComputer): void;
  expiration(expiration: Record<string, unknown>): void;
  /** Writes the snapshot; a failure to write is a warning on stderr, never the command's failure. */
  record(options?: { expirationsRead?: boolean }): Promise<Snapshot | undefined>;
}

/** Whether a scope is the whole account. */
export const isWholeAccount = (scope: Scope): boolean =>
  !scope.groups?.length &&
  !scope.computers?.length &&
  !scope.missing &&
  Object.values(scope.query ?? {}).every(
    (value) => value === undefined || (Array.isArray(value) && value.length === 0),
  );

/** A recorder for one whole read of the account in effect, or undefined when nothing is to be kept. */
export function historyRecorder(ctx: Context, scope: Scope): HistoryRecorder | undefined {
  if (!historyEnabled(ctx.env) || ctx.dryRun.on || !isWholeAccount(scope)) return undefined;
  const builder = new SnapshotBuilder(ctx.now());
  return {
    computer: (entry) => builder.computer(entry),
    expiration: (expiration) => builder.expiration(expiration),
    async record(options = {}) {
      const { account } = await ctx.target();
      const snapshot = builder.finish(
        account.key.startsWith('@') ? account.label.replace(/^https?:\/\//, '') : account.label,
        options.expirationsRead ?? true,
      );
      try {
        writeSnapshot(ctx.configDir, account, snapshot);
      } catch (error) {
        const why =
          error instanceof Error && 'code' in error
            ? String((error as NodeJS.ErrnoException).code)
            : error instanceof Error
              ? error.message
              : String(error);
        ctx.io.stderr.write(`mon: the day's snapshot was not recorded (${why}); set MON_HISTORY=0 to record none\n`);
        return undefined;
      }
      return snapshot;
    },
  };
}

/**
 * For a whole read of the account in effect that failed: when the last recorded one began
 * (seconds since the epoch), so `status -o openmetrics` still says how old the account's last
 * figures are (mon_last_success_timestamp_seconds). Undefined with MON_HISTORY=0 (the history
 * may have stopped long ago), for a part of an account, or with no snapshot.
 */
export async function lastRecordedRead(ctx: Context, scope: Scope): Promise<number | undefined> {
  if (!historyEnabled(ctx.env) || !isWholeAccount(scope)) return undefined;
  try {
    const at = lastTaken(ctx.configDir, (await ctx.target()).account.key);
    return at === undefined ? undefined : Math.floor(at / 1000);
  } catch {
    return undefined;
  }
}
