import type { RunningSandbox } from '../../src/sandbox/server.js';

/** Reads straight from the sandbox over HTTP, without mon in between. */
export async function api(sandbox: RunningSandbox, path: string): Promise<{ status: number; body: unknown }> {
  const separator = path.includes('?') ? '&' : '?';
  const response = await fetch(`${sandbox.url}${path}${separator}api_key=${sandbox.apiKey}`);
  const text = await response.text();
  return { status: response.status, body: text === '' ? undefined : JSON.parse(text) };
}

/** Every item of a list (all pages at 100), read straight from the sandbox over HTTP. */
export async function readAll(sandbox: RunningSandbox, path: string): Promise<Record<string, unknown>[]> {
  const out: Record<string, unknown>[] = [];
  for (let page = 1; ; page++) {
    const response = await fetch(
      `${sandbox.url}${path}${path.includes('?') ? '&' : '?'}per_page=100&page=${page}&api_key=${sandbox.apiKey}`,
    );
    out.push(...((await response.json()) as Record<string, unknown>[]));
    if (!response.headers.get('x-next-page')) return out;
  }
}

/** Sets a plugin result's mute straight through the sandbox's API (attributes as `plugin_result[…]` takes them), without mon. */
export async function setMute(
  sandbox: RunningSandbox,
  uid: string,
  attributes: Record<string, string | number>,
): Promise<Record<string, unknown>> {
  const body = new URLSearchParams({ api_key: sandbox.apiKey });
  for (const [key, value] of Object.entries(attributes)) body.set(`plugin_result[${key}]`, String(value));
  const response = await fetch(`${sandbox.url}/v2.5/plugin_results/${uid}`, { method: 'PUT', body });
  if (!response.ok) throw new Error(`PUT ${uid}: ${response.status} ${await response.text()}`);
  return (await response.json()) as Record<string, unknown>;
}
