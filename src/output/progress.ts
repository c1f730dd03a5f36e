import type { Sink } from './types.js';

/** How long work runs before progress is shown: quick answers stay quiet. */
const DELAY_MS = 1_000;

export interface Progress {
  /** The current state, e.g. "reading computers 300/10000"; shown once the delay has passed. */
  update(text: string): void;
  /** Clears the line, if anything was shown. */
  done(): void;
}

/** A wait of the rate budget: until when (clock ms), and the limit it keeps to. */
export interface RateHold {
  until: number;
  requests: number;
  windowMs: number;
}

/**
 * What the rate budget is holding, said to the person waiting: a wait of more than a second
 * shows on the terminal's progress line (or on a line of its own when nothing else is shown),
 * counting down, with the fact that the budget is shared by every mon using the key; --verbose
 * says it once on stderr, for a pipe or a log.
 */
export interface WaitNotice {
  /** A wait began (from src/api/budget.ts), or ended (undefined). */
  hold(hold: RateHold | undefined): void;
  /** What a progress line adds while a wait lasts. */
  note(): string | undefined;
  /** The progress line now shown redraws itself through this while a wait begins, lasts and ends. */
  bind(redraw: (() => void) | undefined): void;
}

/**
 * Where a progress line is drawn: `quiet` (--quiet) draws none; `term` is TERM, as a terminal
 * that draws no escapes (dumb: Emacs' shell, a serial console) has the line covered with spaces
 * instead of cleared with `ESC [ K`.
 */
export interface LineOptions {
  quiet: boolean;
  term?: string;
}

/** The options of a run's progress lines: --quiet and TERM. */
export function lineOptions(ctx: {
  globals: { quiet: boolean };
  env: Record<string, string | undefined>;
}): LineOptions {
  return { quiet: ctx.globals.quiet, term: ctx.env.TERM };
}

/** One line of stderr, rewritten in place (`draw`) and cleared (`clear`). */
function rewritable(stderr: Sink, term: string | undefined): { draw(text: string): void; clear(): void } {
  if (term !== 'dumb') {
    return { draw: (text) => stderr.write(`\r${text}\x1b[K`), clear: () => stderr.write('\r\x1b[K') };
  }
  let width = 0;
  return {
    draw(text) {
      stderr.write(`\r${text}${' '.repeat(Math.max(0, width - text.length))}`);
      width = text.length;
    },
    clear() {
      stderr.write(`\r${' '.repeat(width)}\r`);
      width = 0;
    },
  };
}

/** A wait shorter than this is not worth a word. */
const SAID_FROM_MS = 1_000;

/** `400 requests a minute`, `3 requests per 2 s`. */
function limitText({ requests, windowMs }: RateHold): string {
  const count = `${requests} request${requests === 1 ? '' : 's'}`;
  return windowMs === 60_000 ? `${count} a minute` : `${count} per ${windowMs / 1000} s`;
}

/** See {@link WaitNotice}. `debug` is --verbose's line on stderr, when on. */
export function createWaitNotice(
  stderr: Sink & { isTTY?: boolean },
  now: () => number,
  options: LineOptions,
  debug?: (line: string) => void,
): WaitNotice {
  const live = stderr.isTTY === true && !options.quiet;
  const line = rewritable(stderr, options.term);
  let current: RateHold | undefined;
  let redraw: (() => void) | undefined;
  let ownLine = false;
  let ticker: ReturnType<typeof setInterval> | undefined;
  let said = false;
  const note = (): string | undefined =>
    current &&
    `waiting ${clockTime((current.until - now()) / 1000)} for the rate budget (${limitText(current)}, shared by every mon using this key)`;
  const show = (): void => {
    if (redraw) redraw();
    else if (current) {
      line.draw(note()!);
      ownLine = true;
    } else if (ownLine) {
      line.clear();
      ownLine = false;
    }
  };
  return {
    hold(hold) {
      if (hold && hold.until - now() <= SAID_FROM_MS) hold = undefined;
      if (!hold && !current) return;
      current = hold;
      if (hold && !said && debug) {
        said = true;
        debug(
          `rate budget: waiting ${Math.ceil((hold.until - now()) / 1000)} s for a free request (${limitText(hold)}, shared by every mon using this key)`,
        );
      }
      if (!live) return;
      clearInterval(ticker);
      ticker = undefined;
      // The count-down moves on its own: the wait is one long sleep of the budget.
      if (hold) ticker = setInterval(show, 1_000).unref();
      show();
    },
    note,
    bind(next) {
      if (next && ownLine) {
        line.clear();
        ownLine = false;
      }
      redraw = next;
    },
  };
}

/**
 * One line of progress on stderr, rewritten in place: on a terminal only (never in a pipe or a
 * log), not with --quiet, and only once the work has taken more than a second, or at once while
 * the rate budget holds it (`wait`: the wait is added to the line).
 */
export function createProgress(
  stderr: Sink & { isTTY?: boolean },
  now: () => number,
  options: LineOptions,
  wait?: WaitNotice,
): Progress {
  const started = now();
  const enabled = stderr.isTTY === true && !options.quiet;
  const line = rewritable(stderr, options.term);
  let shown = false;
  let text: string | undefined;
  const draw = (): void => {
    const waiting = wait?.note();
    if (!enabled || (now() - started < DELAY_MS && !waiting)) return;
    if (text === undefined && waiting === undefined) {
      if (shown) line.clear();
      shown = false;
      return;
    }
    line.draw([text, waiting].filter(Boolean).join('  '));
    shown = true;
  };
  wait?.bind(draw);
  return {
    update(next) {
      text = next;
      draw();
    },
    done() {
      wait?.bind(undefined);
      if (shown) line.clear();
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
  const pace =
    budgetRate !== undefined && budgetRequests !== undefined && total > budgetRequests
      ? Math.min(rate, budgetRate)
      : rate;
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
  line: LineOptions,
  options: Pick<MeterState, 'label' | 'total' | 'budgetRate' | 'budgetRequests'>,
  wait?: WaitNotice,
): Meter {
  const progress = createProgress(stderr, now, line, wait);
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
