/**
 * HTTPS (#43, item 3): a local CA made once in the config folder signs the sandbox's
 * certificate, and curl --cacert, Python's urllib with SSL_CERT_FILE and Node with
 * NODE_EXTRA_CA_CERTS trust it; plain HTTP still works without it.
 */
import { execFile } from 'node:child_process';
import { X509Certificate } from 'node:crypto';
import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type RunningSandbox } from '../../src/sandbox/server.js';
import { ensureLocalCa, serverCertificate } from '../../src/sandbox/tls.js';
import { hasProgram } from '../helpers/programs.js';
import { tempConfigDir } from '../helpers/run-mon.js';
import { runMain } from '../helpers/run-main.js';

const run = promisify(execFile);
const haveCurl = hasProgram('curl', ['curl', '--version']);
const havePython = hasProgram('python3', ['python3', '--version']);

let dir: string;
let sandbox: RunningSandbox;
let caPath: string;
beforeAll(async () => {
  dir = tempConfigDir();
  const ca = ensureLocalCa(dir);
  caPath = ca.certPath;
  sandbox = await startSandbox({ port: 0, tls: serverCertificate(ca) });
});
afterAll(() => sandbox.close());

const groupsUrl = (): string => `${sandbox.url}/v2.5/groups?per_page=1&api_key=${sandbox.apiKey}`;

describe('the local CA', () => {
  it('is made once: the same certificate on the next start, its key 0600', () => {
    expect(statSync(join(dir, 'sandbox-ca-key.pem')).mode & 0o777).toBe(0o600);
    const again = ensureLocalCa(dir);
    expect(again.cert).toBe(readFileSync(caPath, 'utf8'));
    const ca = new X509Certificate(again.cert);
    expect(ca.ca).toBe(true);
    const leaf = new X509Certificate(serverCertificate(again).cert);
    expect(leaf.ca).toBe(false);
    expect(leaf.verify(ca.publicKey)).toBe(true);
    expect(leaf.checkIssued(ca)).toBe(true);
    expect(leaf.subjectAltName).toBe('DNS:localhost, IP Address:127.0.0.1, IP Address:0:0:0:0:0:0:0:1');
  });
});

describe('HTTPS clients trust the sandbox through its CA', () => {
  it('serves https://', () => {
    expect(sandbox.url).toMatch(/^https:\/\/127\.0\.0\.1:\d+$/);
  });

  it.skipIf(!haveCurl)('curl --cacert', async () => {
    const { stdout } = await run('curl', ['-sS', '--fail', '--cacert', caPath, groupsUrl()]);
    expect(JSON.parse(stdout)).toHaveLength(1);
    // and without it, curl refuses the certificate
    await expect(
      run('curl', ['-sS', '--fail', groupsUrl()], {
        env: { PATH: process.env.PATH ?? '', CURL_CA_BUNDLE: '/dev/null' },
      }),
    ).rejects.toThrow();
  });

  it.skipIf(!havePython)("Python's urllib with SSL_CERT_FILE", async () => {
    const script = 'import json,sys,urllib.request; print(len(json.load(urllib.request.urlopen(sys.argv[1]))))';
    const { stdout } = await run('python3', ['-c', script, groupsUrl()], {
      env: { PATH: process.env.PATH ?? '', SSL_CERT_FILE: caPath },
    });
    expect(stdout.trim()).toBe('1');
  });

  it('Node with NODE_EXTRA_CA_CERTS', async () => {
    const script = 'fetch(process.argv[1]).then((r) => r.json()).then((b) => console.log(b.length))';
    const { stdout } = await run(process.execPath, ['-e', script, groupsUrl()], {
      env: { PATH: process.env.PATH ?? '', NODE_EXTRA_CA_CERTS: caPath },
    });
    expect(stdout.trim()).toBe('1');
    await expect(
      run(process.execPath, ['-e', script, groupsUrl()], { env: { PATH: process.env.PATH ?? '' } }),
    ).rejects.toThrow();
  });

  it('mon trusts it with nothing set, from the config folder that holds the CA; another folder does not', async () => {
    const env = { MON_BASE_URL: sandbox.url, MON_API_KEY: sandbox.apiKey };
    const ok = await runMain(['groups', 'list', '--per-page', '1', '-o', 'json'], {
      env: { ...env, MON_CONFIG_DIR: dir },
    });
    expect(ok.code).toBe(0);
    expect(JSON.parse(ok.stdout)).toHaveLength(1);
    const other = await runMain(['groups', 'list', '--per-page', '1'], {
      env: { ...env, MON_CONFIG_DIR: tempConfigDir() },
    });
    expect(other).toMatchObject({
      code: 8,
      stderr: expect.stringMatching(/^mon: TLS: the certificate of 127\.0\.0\.1:\d+ is not trusted/),
    });
  });

  it('plain HTTP still works without tls', async () => {
    const plain = await startSandbox({ port: 0 });
    try {
      expect(plain.url).toMatch(/^http:\/\//);
      expect((await fetch(`${plain.url}/v2.5/groups?per_page=1&api_key=${plain.apiKey}`)).status).toBe(200);
    } finally {
      await plain.close();
    }
  });
});
