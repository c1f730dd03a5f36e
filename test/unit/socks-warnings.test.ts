// quietSocksWarnings() drops the two warnings undici's SOCKS5 agent causes, and no other.
import { afterAll, expect, it } from 'vitest';
import { quietSocksWarnings } from '../../src/api/proxy.js';

const emitWarning = process.emitWarning;
afterAll(() => {
  process.emitWarning = emitWarning;
});

it("drops undici's SOCKS5 warnings (both call forms), and passes every other warning on", async () => {
  const heard: string[] = [];
  const listener = (warning: Error & { code?: string }) =>
    heard.push(`${warning.name} ${warning.code ?? '-'} ${warning.message}`);
  process.on('warning', listener);
  try {
    quietSocksWarnings();
    quietSocksWarnings(); // a second call wraps nothing more
    process.emitWarning('SOCKS5 proxy support is experimental and subject to change', 'ExperimentalWarning');
    process.emitWarning('SOCKS5 proxy support is experimental and subject to change', { type: 'ExperimentalWarning' });
    process.emitWarning(
      'Setting the TLS ServerName to an IP address is not permitted by RFC 6066.',
      'DeprecationWarning',
      'DEP0123',
    );
    process.emitWarning('Setting the TLS ServerName to an IP address is not permitted by RFC 6066.', {
      type: 'DeprecationWarning',
      code: 'DEP0123',
    });
    process.emitWarning('WebSocket over HTTP2 is experimental', 'ExperimentalWarning');
    process.emitWarning('something else is deprecated', 'DeprecationWarning', 'DEP0999');
    process.emitWarning('SOCKS5 proxy support is experimental, said as a plain warning');
    // Node emits 'warning' on the next tick.
    await new Promise((resolve) => setImmediate(resolve));
    expect(heard).toEqual([
      'ExperimentalWarning - WebSocket over HTTP2 is experimental',
      'DeprecationWarning DEP0999 something else is deprecated',
      'Warning - SOCKS5 proxy support is experimental, said as a plain warning',
    ]);
  } finally {
    process.off('warning', listener);
  }
});
