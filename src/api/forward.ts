/**
 * --forward-to URL of `mon events listen`: re-posts a delivery as it came (its body and content
 * type) to another receiver, which accepts it with a 2xx. The client's HTTP, proxies as every
 * request of mon reads them; no retries: a delivery that was not accepted gets a 5xx, and the
 * service's retry is the retry.
 */
import { EnvHttpProxyAgent, type Dispatcher } from './undici.js';

export interface Forwarder {
  /** Resolves when the receiver answered 2xx; rejects with why not (its status, or the network's error). */
  forward(body: Buffer, contentType: string | undefined): Promise<void>;
  close(): Promise<void>;
}

export function forwarder(url: string, timeoutMs: number): Forwarder {
  const dispatcher: Dispatcher = new EnvHttpProxyAgent({
    headersTimeout: timeoutMs,
    bodyTimeout: timeoutMs,
    connectTimeout: timeoutMs,
  });
  return {
    async forward(body, contentType) {
      const response = await dispatcher.request({
        origin: new URL(url).origin,
        path: `${new URL(url).pathname}${new URL(url).search}`,
        method: 'POST',
        body,
        headers: contentType ? { 'content-type': contentType } : {},
        signal: AbortSignal.timeout(timeoutMs),
      });
      // Read to the end, so the connection can be used again; what it says is not mon's to show.
      await response.body.dump();
      if (response.statusCode < 200 || response.statusCode > 299) throw new Error(`answered ${response.statusCode}`);
    },
    close: () => dispatcher.close(),
  };
}
