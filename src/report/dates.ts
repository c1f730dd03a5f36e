/** Days, months, periods and times as the report's reader reads them, in the reader's zone. */
import { plural } from './markup.js';
import type { Period } from './trends.js';

export const DAY_MS = 86_400_000;
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/** A UTC day YYYY-MM-DD as people read it: 20 Nov 2026. */
export function dayLabel(day: string): string {
  const [year, month, date] = day.split('-').map(Number) as [number, number, number];
  return `${date} ${MONTHS[month - 1]} ${year}`;
}

/** A month YYYY-MM as people read it: Nov 2026. */
export const monthLabel = (month: string): string => `${MONTHS[Number(month.slice(5, 7)) - 1]} ${month.slice(0, 4)}`;

/** The period as the title says it: "Nov 2026", or "29 Oct – 28 Nov 2026". */
export function periodLabel(period: Period): string {
  if (period.kind === 'month') return monthLabel(period.fromDay.slice(0, 7));
  const from = dayLabel(period.fromDay);
  const to = dayLabel(period.toDay);
  return period.fromDay.slice(0, 4) === period.toDay.slice(0, 4)
    ? `${from.replace(/ \d{4}$/, '')} – ${to}`
    : `${from} – ${to}`;
}

/** Times in the reader's zone. */
export class ReaderTime {
  private readonly parts: Intl.DateTimeFormat;
  constructor(readonly zone: string) {
    this.parts = new Intl.DateTimeFormat('en-US', {
      timeZone: zone,
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      hourCycle: 'h23',
    });
  }
  /** YYYY-MM-DD and HH:MM of a time in the zone. */
  private split(ms: number): { day: string; time: string } {
    const p = Object.fromEntries(this.parts.formatToParts(ms).map((part) => [part.type, part.value]));
    return { day: `${p.year}-${p.month}-${p.day}`, time: `${p.hour}:${p.minute}` };
  }
  day(ms: number): string {
    return dayLabel(this.split(ms).day);
  }
  minute(ms: number | undefined): string {
    if (ms === undefined) return '';
    const { day, time } = this.split(ms);
    return `${dayLabel(day)} ${time}`;
  }
}

/** The reader's time zone: TZ when it names one, else the system's; UTC when neither is known. */
export function readerZone(tz: string | undefined): string {
  const wanted = tz?.replace(/^:/, '').trim();
  for (const zone of [wanted, Intl.DateTimeFormat().resolvedOptions().timeZone]) {
    if (!zone) continue;
    try {
      return new Intl.DateTimeFormat('en-US', { timeZone: zone }).resolvedOptions().timeZone;
    } catch {
      // not a zone this Node knows
    }
  }
  return 'UTC';
}

/** How long ago, in plain words: "3 days ago", "5 months ago", "2 years ago". */
export function ago(ms: number, nowMs: number): string {
  const days = Math.max(0, Math.floor((nowMs - ms) / DAY_MS));
  if (days < 1) return 'today';
  if (days < 60) return `${plural(days, 'day')} ago`;
  if (days < 730) return `${plural(Math.floor(days / 30.44), 'month')} ago`;
  return `${plural(Math.floor(days / 365.25), 'year')} ago`;
}
