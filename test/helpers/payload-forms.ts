/**
 * A server that answers as a sandbox does, with the payloads rewritten into another of the
 * forms the API reference allows (api-v2.5: its field tables and its samples disagree), so mon
 * can be tested against each form. It forwards every request to the sandbox and rewrites the
 * JSON it gets back.
 *
 * - 'table': the field tables' form: ard_field_1..4, the decimal as a JSON number, the mute end
 *   as mute_until only, included_in_report, integer times.
 * - 'iso': the samples' other choices: last_report, last_update and registration_date as
 *   ISO 8601 strings with an offset, the mute end as muted_until only.
 *
 * The sandbox itself serves the samples' form (string decimal, both mute spellings,
 * ard_field1..4, integer times).
 */
import type { RunningSandbox } from '../../src/sandbox/server.js';
import { startFakeApi, type FakeApi } from './fake-api.js';

export type PayloadForm = 'table' | 'iso';

/** `2025-06-01T13:00:00+01:00`: the instant `sec`, written with a +01:00 offset. */
export function isoWithOffset(sec: number): string {
  return `${new Date((sec + 3600) * 1000).toISOString().slice(0, 19)}+01:00`;
}

const ISO_TIMES = new Set(['last_report', 'last_update', 'registration_date']);

function rewrite(value: unknown, form: PayloadForm): unknown {
  if (Array.isArray(value)) return value.map((item) => rewrite(item, form));
  if (value === null || typeof value !== 'object') return value;
  const out: Record<string, unknown> = {};
  for (const [key, inner] of Object.entries(value as Record<string, unknown>)) {
    const ard = /^ard_field(\d)$/.exec(key);
    if (form === 'table') {
      if (ard) out[`ard_field_${ard[1]}`] = inner;
      else if (key === 'muted_until') continue;
      else if (key === 'boot_volume_usage_percent' && typeof inner === 'string') out[key] = Number(inner);
      else if (key === 'include_in_report') out.included_in_report = inner;
      else out[key] = rewrite(inner, form);
    } else {
      if (key === 'mute_until') continue;
      if (ISO_TIMES.has(key) && typeof inner === 'number') out[key] = isoWithOffset(inner);
      else out[key] = rewrite(inner, form);
    }
  }
  return out;
}

/** Forwards to `sandbox` and answers in `form`; status and headers as the sandbox sent them. */
export async function startPayloadFormServer(sandbox: RunningSandbox, form: PayloadForm): Promise<FakeApi> {
  return startFakeApi(async (req, res) => {
    const query = req.query.toString();
    const hasBody = req.method !== 'GET' && req.method !== 'HEAD';
    const upstream = await fetch(`${sandbox.url}${req.path}${query ? `?${query}` : ''}`, {
      method: req.method,
      headers: req.headers['content-type'] ? { 'content-type': String(req.headers['content-type']) } : {},
      ...(hasBody && { body: req.form.toString() }),
    });
    const text = await upstream.text();
    const headers: Record<string, string> = {};
    upstream.headers.forEach((value, key) => {
      if (key.startsWith('x-') || key === 'retry-after' || key === 'content-type') headers[key] = value;
    });
    const body = text === '' ? '' : JSON.stringify(rewrite(JSON.parse(text), form));
    res.writeHead(upstream.status, headers);
    res.end(body);
  });
}
