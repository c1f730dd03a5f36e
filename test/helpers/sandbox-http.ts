import type { RunningSandbox } from '../../src/sandbox/server.js';

/** Reads straight from the sandbox over HTTP, without mon in between. */
export async function api(sandbox: RunningSandbox, path: string): Promise<{ status: number; body: unknown }> {
  const separator = path.includes('?') ? '&' : '?';
  const response = await fetch(`${sandbox.url}${path}${separator}api_key=${sandbox.apiKey}`);
  const text = await response.text();
  return { status: response.status, body: text === '' ? undefined : JSON.parse(text) };
}
