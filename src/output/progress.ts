import type { Sink } from './types.js';

/** How long work runs before progress is shown: quick answers stay quiet. */
const DELAY_MS = 1_000;

export interface Progress {
  /** The current state, e.g. "reading computers 300/10000"; shown once the delay has passed. */
  update(text: string): void;
  /** Clears the line, if anything was shown. */
  done(): void;
}

/**
 * One line of progress on stderr, rewritten in place: on a terminal only (never in a pipe or a
 * log), not with --quiet, and only once the work has taken more than a second.
 */
export function createProgress(stderr: Sink & { isTTY?: boolean }, now: () => number, quiet: boolean): Progress {
  const started = now();
  const enabled = stderr.isTTY === true && !quiet;
  let shown = false;
  return {
    update(text) {
      if (!enabled || now() - started < DELAY_MS) return;
      stderr.write(`\r${text}\x1b[K`);
      shown = true;
    },
    done() {
      if (shown) stderr.write('\r\x1b[K');
      shown = false;
    },
  };
}

/** What a meter line shows: work counted against a known total. */
export interface MeterState {
  /** 'muting', 'unmuting' */
  label: string;
  done: number;
  total: number;
  /** Items per second, measured over the last few seconds. */
  rate: number;
  /**
   * The most per second that the rate budget lets through in the long run (MON_RATE_LIMIT,
   * 400 a minute by default): once the work is more than one window's worth, the pace cannot
   * stay above it, so the time left is reckoned with it.
   */
  budgetRate?: number;
  /** Requests the budget allows in one window: below that the whole run may go at full speed. */
  budgetRequests?: number;
}

const BAR_WIDTH = 20;

/** `m:ss`, or `h:mm:ss` from an hour. */
function clockTime(seconds: number): string {
  const s = Math.max(0, Math.ceil(seconds));
  const mmss = `${Math.floor((s % 3600) / 60)}:${String(s % 60).padStart(2, '0')}`;
  return s >= 3600 ? `${Math.floor(s / 3600)}:${mmss.padStart(5, '0')}` : mmss;
}

/** `muting [########------------] 120/214  6.7/s  0:14 left`. */
export function meterLine(state: MeterState): string {
  const { label, done, total, rate, budgetRate, budgetRequests } = state;
  const filled = total === 0 ? BAR_WIDTH : Math.round((done / total) * BAR_WIDTH);
  const bar = `[${'#'.repeat(filled)}${'-'.repeat(BAR_WIDTH - filled)}]`;
  const pace = budgetRate !== undefined && budgetRequests !== undefined && total > budgetRequests ? Math.min(rate, budgetRate) : rate;
  const left = pace > 0 ? `${clockTime((total - done) / pace)} left` : 'time left unknown';
  return `${label} ${bar} ${done}/${total}  ${rate.toFixed(1)}/s  ${left}`;
}

/** Counts work done against a total and shows it as a meter line (see {@link createProgress}). */
export interface Meter {
  /** One more item done. */
  tick(): void;
  /** Clears the line, if anything was shown. */
  done(): void;
}

/** The rate is measured over this much time: long enough to be steady, short enough to follow the budget's pace. */
const RATE_WINDOW_MS = 10_000;

/**
 * A meter on stderr, on a terminal only, as {@link createProgress}: done/total, the rate over
 * the last ten seconds and the time left.
 */
export function createMeter(
  stderr: Sink & { isTTY?: boolean },
  now: () => number,
  quiet: boolean,
  options: Pick<MeterState, 'label' | 'total' | 'budgetRate' | 'budgetRequests'>,
): Meter {
  const progress = createProgress(stderr, now, quiet);
  const started = now();
  const finished: number[] = [];
  let count = 0;
  return {
    tick() {
      count++;
      const at = now();
      finished.push(at);
      while (finished.length > 0 && finished[0]! < at - RATE_WINDOW_MS) finished.shift();
      const seconds = Math.max((at - Math.max(started, at - RATE_WINDOW_MS)) / 1000, 0.001);
      progress.update(meterLine({ ...options, done: count, rate: finished.length / seconds }));
    },
    done: () => progress.done(),
  };
}
