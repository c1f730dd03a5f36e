import { ApiClient } from '../../src/api/client.js';

/** The client's options a test leaves as they are: no retries, no expand, a quiet user agent. */
type ClientOptions = ConstructorParameters<typeof ApiClient>[0];

/** An ApiClient for `baseUrl` as mon makes one, with what a test changes given in `options`. */
export function testClient(baseUrl: string, options: Partial<ClientOptions> = {}): ApiClient {
  return new ApiClient({
    baseUrl,
    baseUrlSource: 'test',
    apiKey: 'k',
    timeoutMs: 5_000,
    retries: 0,
    expand: [],
    signal: new AbortController().signal,
    userAgent: 'mon/test',
    env: {},
    ...options,
  });
}
