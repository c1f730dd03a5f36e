/**
 * What mon understands of a delivery of the service's outgoing webhooks (api-v2.5, Events).
 * The reference names only a few fields: severity and previous_severity (words), mute_type,
 * is_hidden, the integers status_code, previous_status and new_status; test deliveries carry a
 * top-level svc_test and an event_id starting svc_test_; a test event is named connection_test.
 * Nothing else is required: names of the computer, group and plugin are read where a payload
 * carries them in a common shape, and a payload of any other shape is passed on as sent.
 */
import { createHash } from 'node:crypto';

/** A plugin transition, a test delivery, its connection_test, or anything else. */
export type EventKind = 'plugin' | 'test' | 'connection_test' | 'unknown';

/** The key mon adds to each event it prints: what it understood, beside the payload as sent. */
export const MON_KEY = '_mon';

/** What mon understood of one delivery: the value of {@link MON_KEY}. */
export interface Understood {
  kind: EventKind;
  /** Recognises a retry: the event_id, or `sha256:` of the body when it has none. */
  id: string;
  received_at: string;
  account?: string;
  computer?: string;
  /** The computer's client id when the event carries it besides a name (--computer matches either). */
  client_id?: string;
  group?: string;
  /** The group's uid when the event carries it besides a name (--group matches either). */
  group_uid?: string;
  plugin?: string;
  severity?: string;
  previous_severity?: string;
  /** `OK → Alert`, from the severities (or the status integers when there are no words). */
  transition?: string;
  mute_type?: string;
  is_hidden?: boolean;
}

/** One delivery, parsed: the payload as sent and what mon made of it. */
export interface Delivery {
  /** The JSON body when it is an object; undefined otherwise (`raw` holds it). */
  payload?: Record<string, unknown>;
  /** The body as text when it is not a JSON object. */
  raw?: string;
  understood: Understood;
}

const text = (value: unknown): string | undefined =>
  typeof value === 'string' && value !== '' ? value : typeof value === 'number' ? String(value) : undefined;
const record = (value: unknown): Record<string, unknown> | undefined =>
  typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;

/**
 * A name from `{name}`, `{custom_name}` or `{computer_name}` (a computer as the API renders
 * it: the display name first, as mon shows computers), `{hostname}`, else `{client_id}` or
 * `{uid}`; or a plain string.
 */
function nameOf(value: unknown): string | undefined {
  const object = record(value);
  if (!object) return text(value);
  return (
    text(object.name) ??
    text(object.custom_name) ??
    text(object.computer_name) ??
    text(object.hostname) ??
    text(object.client_id) ??
    text(object.uid)
  );
}

/** `key` of an object, when the name shown is something else (a second handle for the filters). */
function otherHandle(value: unknown, key: string, shown: string | undefined): string | undefined {
  const handle = text(record(value)?.[key]);
  return handle !== shown ? handle : undefined;
}

/** `alert` → `Alert`, `ok` → `OK`: as the API spells statuses. */
const capital = (word: string): string => (word === 'ok' ? 'OK' : word.charAt(0).toUpperCase() + word.slice(1));

function isConnectionTest(payload: Record<string, unknown>): boolean {
  if (text(payload.event_id)?.includes('connection_test')) return true;
  // The reference names the test event but not the field that names it: any top-level string.
  return Object.values(payload).some((value) => value === 'connection_test');
}

function kindOf(payload: Record<string, unknown>): EventKind {
  const eventId = text(payload.event_id);
  const test = 'svc_test' in payload || eventId?.startsWith('svc_test_') === true;
  if (isConnectionTest(payload)) return 'connection_test';
  if (test) return 'test';
  const plugin = ['severity', 'previous_severity', 'status_code', 'previous_status', 'new_status'].some(
    (key) => key in payload,
  );
  return plugin ? 'plugin' : 'unknown';
}

/** Reads a delivery's body; never throws (a body that is not a JSON object is kept as text). */
export function understand(body: Buffer, receivedAt: Date, account?: string): Delivery {
  let parsed: unknown;
  try {
    parsed = JSON.parse(body.toString('utf8'));
  } catch {
    parsed = undefined;
  }
  const payload = record(parsed);
  const bodyId = `sha256:${createHash('sha256').update(body).digest('hex')}`;
  const received_at = receivedAt.toISOString();
  if (!payload)
    return {
      raw: body.toString('utf8'),
      understood: { kind: 'unknown', id: bodyId, received_at, ...(account ? { account } : {}) },
    };

  const plugin = record(payload.plugin_result) ?? record(payload.plugin);
  const computer = payload.computer ?? plugin?.computer ?? payload.computer_name ?? payload.client_id;
  const group = payload.group ?? plugin?.group ?? payload.group_name;
  const severity = text(payload.severity)?.toLowerCase();
  const previous = text(payload.previous_severity)?.toLowerCase();
  const transition =
    severity !== undefined || previous !== undefined
      ? `${previous ? capital(previous) : '?'} → ${severity ? capital(severity) : '?'}`
      : payload.previous_status !== undefined || payload.new_status !== undefined
        ? `${text(payload.previous_status) ?? '?'} → ${text(payload.new_status) ?? '?'}`
        : undefined;
  const understood: Understood = {
    kind: kindOf(payload),
    id: text(payload.event_id) ?? bodyId,
    received_at,
    account: account ?? nameOf(payload.account) ?? text(payload.subdomain),
    computer: nameOf(computer),
    client_id: otherHandle(computer, 'client_id', nameOf(computer)),
    group: nameOf(group),
    group_uid: otherHandle(group, 'uid', nameOf(group)),
    plugin:
      nameOf(plugin) ?? text(payload.plugin_name) ?? (typeof payload.plugin === 'string' ? payload.plugin : undefined),
    severity,
    previous_severity: previous,
    transition,
    mute_type: text(payload.mute_type),
    is_hidden: typeof payload.is_hidden === 'boolean' ? payload.is_hidden : undefined,
  };
  for (const key of Object.keys(understood) as (keyof Understood)[])
    if (understood[key] === undefined) delete understood[key];
  return { payload, understood };
}

/** The event as printed in JSON: the payload as sent with {@link MON_KEY} added (a body that is no object under `body`). */
export function eventJson(delivery: Delivery): Record<string, unknown> {
  if (delivery.payload) return { ...delivery.payload, [MON_KEY]: delivery.understood };
  return { [MON_KEY]: { ...delivery.understood, body: delivery.raw } };
}
