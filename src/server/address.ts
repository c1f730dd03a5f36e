/**
 * `--listen HOST:PORT` for the servers mon runs (`events listen`, `metrics serve`): parsed and
 * checked before anything binds, and the one rule for leaving loopback.
 */
import { isIP } from 'node:net';
import { UsageError } from '../errors.js';

/** Where a server binds. `host` is as given, without an IPv6 address's brackets. */
export interface ListenAddress {
  host: string;
  /** 0 asks the system for a free port (tests). */
  port: number;
  /** 127.0.0.0/8, ::1 and `localhost`: reachable from this machine only. */
  loopback: boolean;
}

const HOST_NAME = /^(?=.{1,253}$)[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)*$/i;

/** Loopback by what the address says, not by what a name resolves to (only `localhost` counts). */
export function isLoopback(host: string): boolean {
  const bare = host.toLowerCase();
  if (bare === 'localhost' || bare === '::1') return true;
  if (isIP(bare) === 4) return bare.startsWith('127.');
  // ::ffff:127.0.0.1, the IPv4-mapped form of a loopback address.
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/.exec(bare);
  return mapped !== null && mapped[1]!.startsWith('127.');
}

/**
 * `HOST:PORT`, `[IPv6]:PORT` or `:PORT` (loopback, 127.0.0.1) into an address; a bad value is a
 * UsageError (exit 2) naming `option` and what it takes.
 */
export function parseListen(value: string, option = '--listen'): ListenAddress {
  const wrong = (why: string): UsageError =>
    new UsageError(
      `${option} ${JSON.stringify(value)}: ${why}`,
      `give HOST:PORT, e.g. ${option} 127.0.0.1:8787 or ${option} [::1]:8787`,
    );
  const match = /^(?:\[([^\]]*)\]|([^:[\]]*)):([^:]*)$/.exec(value.trim());
  if (match === null) throw wrong('expected HOST:PORT (an IPv6 address in brackets)');
  const host = match[1] ?? (match[2] === '' ? '127.0.0.1' : match[2]!);
  const portText = match[3]!;
  if (!/^\d{1,5}$/.test(portText) || Number(portText) > 65535) throw wrong('the port must be a number from 0 to 65535');
  if (match[1] !== undefined ? isIP(host) !== 6 : isIP(host) !== 4 && !HOST_NAME.test(host)) {
    throw wrong(match[1] !== undefined ? 'not an IPv6 address in the brackets' : 'not an IP address or host name');
  }
  return { host, port: Number(portText), loopback: isLoopback(host) };
}

/** How a server may be reached off loopback: what it was given to keep strangers out. */
export interface Exposure {
  address: ListenAddress;
  /** The option the address came from (`--listen`). */
  option?: string;
  /** A secret or token the sender must present is set. */
  credential: boolean;
  /** How to set one, for the message: `--secret`, `--token`. */
  credentialOptions: string;
  /** --tls-cert and --tls-key were given. */
  tls: boolean;
  /** --insecure: plain HTTP off loopback, asked for. */
  insecure: boolean;
}

/**
 * A non-loopback address needs a credential and TLS (--tls-cert/--tls-key) or an explicit
 * --insecure: otherwise a UsageError (exit 2), before anything binds.
 */
export function checkExposure(exposure: Exposure): void {
  const { address } = exposure;
  if (address.loopback) return;
  const option = exposure.option ?? '--listen';
  const where = `${option} ${address.host.includes(':') ? `[${address.host}]` : address.host}:${address.port}`;
  if (!exposure.credential) {
    throw new UsageError(
      `${where} is not a loopback address: it needs ${exposure.credentialOptions}, which a sender must present`,
      'listen on 127.0.0.1 (the default) to keep it on this machine',
    );
  }
  if (!exposure.tls && !exposure.insecure) {
    throw new UsageError(
      `${where} is not a loopback address: give --tls-cert and --tls-key, or --insecure to serve plain HTTP`,
    );
  }
}
