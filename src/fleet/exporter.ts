/**
 * `mon metrics serve`'s reads: each account is read on its own schedule, never on a scrape,
 * through the one status collection (fleet/status.ts, as `status` reads it), and its last
 * figures are kept. A read that fails keeps the last figures and sets mon_up 0. Scrapes are
 * answered from the rendered exposition, rendered again only when a figure changed.
 */
import type { Context } from '../context.js';
import { MonError } from '../errors.js';
import { renderOpenMetrics, toPrometheusText, type AccountFigures } from '../output/openmetrics.js';
import { collectStatus } from './status.js';
import type { Scope, ScopedComputer } from './selection.js';
import type { StatusReport } from '../output/status-report.js';
import { MAX_PER_PAGE } from '../api/client.js';

/** The API's rate budget per key, and the share of it a refresh may take (a tenth). */
export const RATE_PER_MINUTE = 400;
export const REFRESH_SHARE = 0.1;
/** The least --refresh: a small account's read (3 requests) a minute is far under a tenth of the budget. */
export const MIN_REFRESH_SEC = 60;
/** `status`'s expiration window, so the figures equal `status -o json`'s. */
const WITHIN_SEC = 30 * 86_400;

export interface AccountRead {
  report: StatusReport;
  readSeconds: number;
  /** The requests the read sent (estimated from the pages read): the next read waits so that refreshes stay under their share. */
  requests: number;
}

interface Slot {
  name: string;
  figures: AccountFigures;
  /** A read was tried (ready once every account has one). */
  tried: boolean;
  timer?: NodeJS.Timeout;
  reading?: Promise<void>;
  /** Removed by a reload: its pending read must not be scheduled again. */
  gone?: boolean;
}

export interface ExporterOptions {
  refreshMs: number;
  read(name: string): Promise<AccountRead>;
  now(): number;
  /** One line for people (stderr): never a key, a token or an account's URL. */
  log(line: string): void;
  /** When the account's last recorded read began (seconds), for one that fails before any read here succeeded (a restart while it is down). */
  lastRecorded?(name: string): Promise<number | undefined>;
}

/**
 * What a whole read hands the day's history as it streams (the recorder of history/record.ts,
 * which sits above the fleet: the command passes it in). `record` runs once the read succeeded.
 */
export interface ReadRecorder {
  computer(entry: ScopedComputer): void;
  expiration(expiration: Record<string, unknown>): void;
  record(): Promise<unknown>;
}

/**
 * Reads one account as `mon status` does, with a context of its own (its client, its deadline).
 * `recorder`: the day's snapshot of the account, recorded as `status` records it, only when the
 * whole read succeeded (undefined from it: nothing is kept, MON_HISTORY=0).
 */
export async function readAccount(
  ctx: Context,
  profile: string | undefined,
  recorder?: (accountCtx: Context, scope: Scope) => ReadRecorder | undefined,
): Promise<AccountRead> {
  const { ctx: accountCtx, close } = ctx.forAccount(profile);
  try {
    const started = accountCtx.now();
    let pages = 0;
    const scope: Scope = {};
    const history = recorder?.(accountCtx, scope);
    const report = await collectStatus(await accountCtx.client(), scope, accountCtx.now(), WITHIN_SEC, {
      onPage: () => pages++,
      ...(history && {
        onComputer: (entry) => history.computer(entry),
        onExpiration: (expiration) => history.expiration(expiration),
      }),
    });
    await history?.record();
    // The groups and the expirations, a page each at least, besides the computers' pages.
    const requests = Math.max(pages, Math.ceil(report.computers.total / MAX_PER_PAGE)) + 2;
    return { report, readSeconds: (accountCtx.now() - started) / 1000, requests };
  } finally {
    await close();
  }
}

export class Exporter {
  private readonly slots = new Map<string, Slot>();
  private version = 0;
  private rendered?: { version: number; openMetrics: string; text: string };
  private stopped = false;

  constructor(private readonly options: ExporterOptions) {}

  /** The accounts served, in order. */
  names(): string[] {
    return [...this.slots.keys()];
  }

  /** Every account has had its first read (ready for /-/ready), whether it succeeded or not. */
  ready(): boolean {
    return [...this.slots.values()].every((slot) => slot.tried);
  }

  /**
   * Serves these accounts: new ones are read at once (one after another), then every refresh,
   * staggered across the accounts; those no longer named are dropped with their series.
   */
  setAccounts(names: readonly string[]): void {
    for (const [name, slot] of this.slots) {
      if (names.includes(name)) continue;
      slot.gone = true;
      clearTimeout(slot.timer);
      this.slots.delete(name);
      this.version++;
    }
    const fresh = names.filter((name) => !this.slots.has(name));
    for (const name of fresh) this.slots.set(name, { name, figures: { account: name }, tried: false });
    // Ordered as given.
    const ordered = new Map(names.map((name) => [name, this.slots.get(name)!]));
    this.slots.clear();
    for (const [name, slot] of ordered) this.slots.set(name, slot);
    this.version++;
    void this.firstReads(fresh);
  }

  private async firstReads(names: readonly string[]): Promise<void> {
    const count = Math.max(1, this.slots.size);
    for (const name of names) {
      const slot = this.slots.get(name);
      if (!slot || this.stopped) return;
      const gap = await this.refresh(slot);
      // Staggered: each account's later reads keep their own place in the period.
      const index = this.names().indexOf(name);
      this.schedule(slot, Math.max(gap, this.options.refreshMs + (index * this.options.refreshMs) / count));
    }
  }

  private schedule(slot: Slot, delayMs: number): void {
    if (this.stopped || slot.gone) return;
    slot.timer = setTimeout(() => {
      void this.refresh(slot).then((gap) => this.schedule(slot, Math.max(gap, this.options.refreshMs)));
    }, delayMs);
    slot.timer.unref?.();
  }

  /** Reads one account; returns the least time before its next read (its share of the rate budget). */
  private async refresh(slot: Slot): Promise<number> {
    let gap = 0;
    const run = (async () => {
      try {
        const read = await this.options.read(slot.name);
        slot.figures = {
          account: slot.name,
          report: read.report,
          readSeconds: read.readSeconds,
          lastSuccess: this.options.now() / 1000,
          up: true,
        };
        gap = (read.requests / (RATE_PER_MINUTE * REFRESH_SHARE)) * 60_000;
        if (gap > this.options.refreshMs)
          this.options.log(
            `${slot.name}: a read takes ${read.requests} requests, so it is read every ${Math.ceil(gap / 1000)} s, not more often (a tenth of the rate budget)`,
          );
      } catch (error) {
        if (this.stopped) return;
        // The last figures stay; mon_up says they are old. The message may name the host: only its kind is said.
        const lastSuccess =
          slot.figures.lastSuccess ?? (await this.options.lastRecorded?.(slot.name).catch(() => undefined));
        slot.figures = { ...slot.figures, ...(lastSuccess !== undefined && { lastSuccess }), up: false };
        this.options.log(
          `${slot.name}: read failed (exit code ${error instanceof MonError ? error.exitCode : 1}); its last figures are kept, mon_up 0`,
        );
      } finally {
        slot.tried = true;
        this.version++;
      }
    })();
    slot.reading = run;
    await run;
    return gap;
  }

  /** The exposition: OpenMetrics, or the Prometheus text format. */
  exposition(format: 'openmetrics' | 'text', only?: string): string {
    if (only !== undefined) {
      const slot = this.slots.get(only);
      const text = renderOpenMetrics(slot ? [slot.figures] : []);
      return format === 'openmetrics' ? text : toPrometheusText(text);
    }
    if (this.rendered?.version !== this.version) {
      const openMetrics = renderOpenMetrics([...this.slots.values()].map((slot) => slot.figures));
      this.rendered = { version: this.version, openMetrics, text: toPrometheusText(openMetrics) };
    }
    return format === 'openmetrics' ? this.rendered.openMetrics : this.rendered.text;
  }

  has(name: string): boolean {
    return this.slots.has(name);
  }

  /** Stops every schedule and ends the reads in flight. */
  async stop(): Promise<void> {
    this.stopped = true;
    for (const slot of this.slots.values()) clearTimeout(slot.timer);
    await Promise.allSettled([...this.slots.values()].map((slot) => slot.reading));
  }
}
