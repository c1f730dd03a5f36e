import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from 'vitest';
import { tempDir, type MonResult } from '../helpers/run-mon.js';

/**
 * A key with characters that change when URL-encoded (+ / =), so a leak in any encoding
 * (raw, encodeURIComponent, form encoding) is caught.
 */
export const KEY = 'k_live+9f8e/7d6c=5b4a3210';

/** Every form the key could take in a URL, a form body or a message. */
const KEY_FORMS = [KEY, encodeURIComponent(KEY), new URLSearchParams({ k: KEY }).toString().slice(2)];

/** The key appears nowhere in what mon printed, in any encoding. */
export function expectNoKey(result: Pick<MonResult, 'stdout' | 'stderr'>): void {
  for (const form of KEY_FORMS) {
    expect(result.stdout).not.toContain(form);
    expect(result.stderr).not.toContain(form);
  }
}

/** stderr is one line of the form `mon: …` with no stack trace. */
export function expectOneLine(result: Pick<MonResult, 'stderr'>): void {
  expect(result.stderr.trim().split('\n')).toHaveLength(1);
  expect(result.stderr).toMatch(/^mon: /);
  expect(result.stderr).not.toMatch(/\n\s+at /);
}

/**
 * A self-signed certificate for 127.0.0.1, made by openssl at test time. Throws (and so fails
 * the test) when openssl is missing: nothing is skipped.
 */
export function selfSignedCert(): { key: string; cert: string; certFile: string } {
  const dir = tempDir('mon-tls-');
  const keyFile = join(dir, 'key.pem');
  const certFile = join(dir, 'cert.pem');
  execFileSync(
    'openssl',
    [
      'req',
      '-x509',
      '-newkey',
      'ec',
      '-pkeyopt',
      'ec_paramgen_curve:prime256v1',
      '-nodes',
      '-keyout',
      keyFile,
      '-out',
      certFile,
      '-days',
      '1',
      '-subj',
      '/CN=127.0.0.1',
      '-addext',
      'subjectAltName=IP:127.0.0.1',
    ],
    { stdio: ['ignore', 'ignore', 'pipe'] },
  );
  return { key: readFileSync(keyFile, 'utf8'), cert: readFileSync(certFile, 'utf8'), certFile };
}
