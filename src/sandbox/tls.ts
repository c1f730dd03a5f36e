/**
 * HTTPS for the sandbox (`mon sandbox serve --tls`): a local certificate authority made once in
 * the config folder (its key 0600), and a server certificate for 127.0.0.1, ::1 and localhost
 * that it signs at each start.
 *
 * Node makes and uses keys (node:crypto) but cannot write a certificate. The few DER structures
 * an X.509 v3 certificate needs (RFC 5280) are written here, about a hundred lines, instead of
 * taking a library: every field is fixed but the names, dates, serial and key, and Node's own
 * X509Certificate reads the result back in a test. Keys are ECDSA P-256, signed with SHA-256.
 */
import {
  createHash,
  createPrivateKey,
  createPublicKey,
  generateKeyPairSync,
  randomBytes,
  sign,
  X509Certificate,
  type KeyObject,
} from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { writeFileAtomic } from '../config/files.js';
import { SANDBOX_CA_CERT, SANDBOX_CA_KEY } from '../config/paths.js';

/** The CA's certificate (public: clients are pointed at it) and its key (0600), in the config folder. */
const CA_CERT_FILE = SANDBOX_CA_CERT;
const CA_KEY_FILE = SANDBOX_CA_KEY;

// ---------------------------------------------------------------------------------------------
// DER, only what a certificate uses.

function length(n: number): Buffer {
  if (n < 0x80) return Buffer.from([n]);
  const bytes: number[] = [];
  for (let v = n; v > 0; v = Math.floor(v / 256)) bytes.unshift(v & 0xff);
  return Buffer.from([0x80 | bytes.length, ...bytes]);
}
const tlv = (tag: number, ...content: Buffer[]): Buffer => {
  const body = Buffer.concat(content);
  return Buffer.concat([Buffer.from([tag]), length(body.length), body]);
};
const seq = (...items: Buffer[]): Buffer => tlv(0x30, ...items);
const set = (...items: Buffer[]): Buffer => tlv(0x31, ...items);
const explicit = (n: number, item: Buffer): Buffer => tlv(0xa0 + n, item);
const octets = (b: Buffer): Buffer => tlv(0x04, b);
const bits = (b: Buffer): Buffer => tlv(0x03, Buffer.from([0]), b);
const bool = (v: boolean): Buffer => tlv(0x01, Buffer.from([v ? 0xff : 0]));
const utf8 = (s: string): Buffer => tlv(0x0c, Buffer.from(s, 'utf8'));

/** A positive INTEGER from big-endian bytes. */
function integer(b: Buffer): Buffer {
  let i = 0;
  while (i < b.length - 1 && b[i] === 0) i++;
  const v = b.subarray(i);
  return tlv(0x02, (v[0] as number) & 0x80 ? Buffer.concat([Buffer.from([0]), v]) : v);
}

function oid(dotted: string): Buffer {
  const parts = dotted.split('.').map(Number);
  const out = [40 * (parts[0] as number) + (parts[1] as number)];
  for (const p of parts.slice(2)) {
    const chunk = [p & 0x7f];
    for (let v = Math.floor(p / 128); v > 0; v = Math.floor(v / 128)) chunk.unshift(0x80 | (v & 0x7f));
    out.push(...chunk);
  }
  return tlv(0x06, Buffer.from(out));
}

/** UTCTime up to 2049, GeneralizedTime after (RFC 5280, 4.1.2.5). */
function time(d: Date): Buffer {
  const iso = d.toISOString().replace(/[-:T]/g, '').slice(0, 14);
  return d.getUTCFullYear() < 2050 ? tlv(0x17, Buffer.from(`${iso.slice(2)}Z`)) : tlv(0x18, Buffer.from(`${iso}Z`));
}

const name = (cn: string): Buffer =>
  seq(set(seq(oid('2.5.4.10'), utf8('mon sandbox'))), set(seq(oid('2.5.4.3'), utf8(cn))));
const ECDSA_SHA256 = seq(oid('1.2.840.10045.4.3.2'));
const extension = (id: string, critical: boolean, value: Buffer): Buffer =>
  seq(oid(id), ...(critical ? [bool(true)] : []), octets(value));

/** IPv4 or IPv6 text to its bytes (only the loopback forms the sandbox uses). */
function ipBytes(ip: string): Buffer {
  if (ip.includes(':')) {
    const out = Buffer.alloc(16);
    if (ip === '::1') out[15] = 1;
    return out;
  }
  return Buffer.from(ip.split('.').map(Number));
}

interface CertOptions {
  subject: string;
  issuer: string;
  publicKey: KeyObject;
  signingKey: KeyObject;
  days: number;
  ca: boolean;
  /** the issuer's key identifier (its subjectKeyIdentifier), for the authorityKeyIdentifier */
  issuerKeyId?: Buffer;
  dns?: readonly string[];
  ips?: readonly string[];
}

/** One X.509 v3 certificate, PEM. */
function certificate(o: CertOptions): string {
  const notBefore = new Date(Date.now() - 60 * 60 * 1000);
  const notAfter = new Date(notBefore.getTime() + o.days * 86_400_000);
  const serial = randomBytes(16);
  serial[0] = (serial[0] as number) & 0x7f;
  const spki = o.publicKey.export({ type: 'spki', format: 'der' });
  const keyId = keyIdOf(o.publicKey);
  // Both key identifiers: OpenSSL's strict checks (Python 3.13 turns them on) require them.
  const extensions = [
    extension('2.5.29.14', false, octets(keyId)),
    extension('2.5.29.35', false, seq(tlv(0x80, o.issuerKeyId ?? keyId))),
    extension('2.5.29.19', true, o.ca ? seq(bool(true), tlv(0x02, Buffer.from([0]))) : seq()),
    // keyCertSign + cRLSign for the CA; digitalSignature for the server
    extension('2.5.29.15', true, o.ca ? bits(Buffer.from([0x06])) : bits(Buffer.from([0x80]))),
  ];
  if (!o.ca) {
    extensions.push(extension('2.5.29.37', false, seq(oid('1.3.6.1.5.5.7.3.1'))));
    const alt = [
      ...(o.dns ?? []).map((d) => tlv(0x82, Buffer.from(d))),
      ...(o.ips ?? []).map((ip) => tlv(0x87, ipBytes(ip))),
    ];
    extensions.push(extension('2.5.29.17', false, seq(...alt)));
  }
  const tbs = seq(
    explicit(0, tlv(0x02, Buffer.from([2]))),
    integer(serial),
    ECDSA_SHA256,
    name(o.issuer),
    seq(time(notBefore), time(notAfter)),
    name(o.subject),
    spki,
    explicit(3, seq(...extensions)),
  );
  const signature = sign('sha256', tbs, o.signingKey);
  const der = seq(tbs, ECDSA_SHA256, bits(signature));
  return `-----BEGIN CERTIFICATE-----\n${der
    .toString('base64')
    .replace(/(.{64})/g, '$1\n')
    .replace(/\n$/, '')}\n-----END CERTIFICATE-----\n`;
}

/** A key identifier: SHA-1 of the public key's DER (RFC 5280, 4.2.1.2 allows any such method). */
const keyIdOf = (key: KeyObject): Buffer =>
  createHash('sha1')
    .update(key.export({ type: 'spki', format: 'der' }))
    .digest();

export interface LocalCa {
  certPath: string;
  cert: string;
  key: KeyObject;
}

/**
 * The config folder's local CA, made on first use: its certificate (sandbox-ca.pem) and its key
 * (sandbox-ca-key.pem, 0600). Valid ten years; one that does not load or has expired is made anew.
 */
export function ensureLocalCa(configDir: string): LocalCa {
  const certPath = join(configDir, CA_CERT_FILE);
  const keyPath = join(configDir, CA_KEY_FILE);
  if (existsSync(certPath) && existsSync(keyPath)) {
    try {
      const cert = readFileSync(certPath, 'utf8');
      const key = createPrivateKey(readFileSync(keyPath, 'utf8'));
      const x509 = new X509Certificate(cert);
      if (Date.parse(x509.validTo) > Date.now() + 86_400_000 && x509.checkPrivateKey(key)) {
        chmodSync(keyPath, 0o600);
        return { certPath, cert, key };
      }
    } catch {
      // unreadable or not a pair: made anew below
    }
  }
  mkdirSync(configDir, { recursive: true, mode: 0o700 });
  const { publicKey, privateKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  const cert = certificate({
    subject: 'mon sandbox local CA',
    issuer: 'mon sandbox local CA',
    publicKey,
    signingKey: privateKey,
    days: 3650,
    ca: true,
  });
  writeFileAtomic(keyPath, privateKey.export({ type: 'pkcs8', format: 'pem' }) as string, { durable: true });
  writeFileAtomic(certPath, cert, { durable: true });
  chmodSync(certPath, 0o644);
  return { certPath, cert, key: privateKey };
}

/** A server certificate for 127.0.0.1, ::1 and localhost signed by the CA, with its key (PEM), and the chain to serve. */
export function serverCertificate(ca: LocalCa): { cert: string; key: string } {
  const { publicKey, privateKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  const issuer =
    new X509Certificate(ca.cert).subject
      .split('\n')
      .find((line) => line.startsWith('CN='))
      ?.slice(3) ?? 'mon sandbox local CA';
  const leaf = certificate({
    subject: 'localhost',
    issuer,
    publicKey,
    signingKey: ca.key,
    issuerKeyId: keyIdOf(createPublicKey(ca.cert)),
    days: 397,
    ca: false,
    dns: ['localhost'],
    ips: ['127.0.0.1', '::1'],
  });
  return { cert: leaf, key: privateKey.export({ type: 'pkcs8', format: 'pem' }) as string };
}
