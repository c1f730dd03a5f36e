/**
 * The people's line for one webhook event of `mon events listen` on a terminal: time, account,
 * computer, group, plugin and the transition (`OK → Alert`), the new severity in colour. Every
 * value is a sender's text: shown escaped and cut, so one event stays one line.
 */
import { shortened, terminalSafe } from '../text/escape.js';

/** What the line shows; the fields of src/events/payload.ts's Understood that it reads. */
export interface EventLineInput {
  kind: 'plugin' | 'test' | 'connection_test' | 'unknown';
  id: string;
  account?: string;
  computer?: string;
  group?: string;
  plugin?: string;
  severity?: string;
  transition?: string;
  /** The body, when it was not a JSON object. */
  raw?: string;
}

const COLOURS: Readonly<Record<string, number>> = {
  ok: 32,
  warning: 33,
  alert: 31,
  critical: 31,
  error: 31,
  unknown: 35,
};

const cell = (value: string | undefined, max = 40): string =>
  value === undefined ? '-' : terminalSafe(shortened(value, max));

/** HH:MM:SS local time of `ms`. */
function clock(ms: number): string {
  const time = new Date(ms);
  return [time.getHours(), time.getMinutes(), time.getSeconds()].map((n) => String(n).padStart(2, '0')).join(':');
}

export function eventLine(event: EventLineInput, receivedMs: number, color: boolean): string {
  const paint = (code: number | undefined, text: string) =>
    color && code !== undefined ? `\x1b[${code}m${text}\x1b[39m` : text;
  const dim = (text: string) => (color ? `\x1b[2m${text}\x1b[22m` : text);
  const time = dim(clock(receivedMs));
  if (event.kind === 'test' || event.kind === 'connection_test') {
    return `${time}  ${paint(36, event.kind === 'connection_test' ? 'connection test' : 'test delivery')}  ${cell(event.id, 60)}`;
  }
  if (event.kind === 'unknown' && event.transition === undefined && event.computer === undefined) {
    const body = event.raw ?? '';
    return `${time}  ${paint(35, 'unrecognised event')}  ${event.raw === undefined ? cell(event.id, 60) : cell(body, 120)}`;
  }
  const transition = event.transition ?? '-';
  const arrow = transition.lastIndexOf('→');
  const shown =
    arrow === -1
      ? cell(transition)
      : `${cell(transition.slice(0, arrow + 1))}${paint(COLOURS[event.severity ?? ''], cell(transition.slice(arrow + 1)))}`;
  return `${time}  ${cell(event.account)}  ${cell(event.computer)}  ${cell(event.group)}  ${cell(event.plugin)}  ${shown}`;
}
