import { describe, expect, it } from 'vitest';
import { resolveGlobals } from '../../src/globals.js';
import { chooseTarget, targetOf } from '../../src/target.js';
import type { ProfileReader } from '../../src/config/profiles.js';

/** Saved profiles as the reader gives them: acme is the default. */
function saved(): () => Promise<ProfileReader> {
  const profiles = {
    acme: { baseUrl: 'https://acme.example.com', apiKey: 'k_acme_0000000000000000' },
    north: { baseUrl: 'https://north.example.com', apiKey: 'k_north_000000000000000' },
  };
  let reads = 0;
  const reader = {
    defaultName: 'acme',
    get: (name: string) => profiles[name as keyof typeof profiles],
    list: () => profiles,
  } as unknown as ProfileReader;
  const read = async () => {
    reads++;
    return reader;
  };
  return Object.assign(read, { reads: () => reads });
}

const choose = (raw: Record<string, unknown>, env: Record<string, string | undefined>, profiles = saved()) =>
  chooseTarget(resolveGlobals(raw, env), env, profiles);

describe('the one choice of account and endpoint', () => {
  it('--sandbox: the sandbox account, started by the client, no profile read', async () => {
    const profiles = saved();
    expect(await choose({ sandbox: true }, {}, profiles)).toEqual({
      account: { key: '@sandbox', label: '--sandbox' },
      endpoint: 'sandbox',
    });
    expect((profiles as unknown as { reads(): number }).reads()).toBe(0);
  });

  it('a base URL and MON_API_KEY without a profile: the host is the account, no profile read', async () => {
    const profiles = saved();
    const target = await choose(
      {},
      { MON_BASE_URL: 'https://x.example.com:8443/', MON_API_KEY: 'k_env_00000000000000000' },
      profiles,
    );
    expect(target).toEqual({
      account: { key: '@x.example.com_8443', label: 'https://x.example.com:8443/' },
      endpoint: {
        baseUrl: 'https://x.example.com:8443/',
        baseUrlSource: 'MON_BASE_URL',
        apiKey: 'k_env_00000000000000000',
      },
    });
    expect((profiles as unknown as { reads(): number }).reads()).toBe(0);
  });

  it('the profile in effect names the account, whatever the flag or the environment override', async () => {
    expect(await choose({}, {})).toEqual({
      account: { key: 'acme', label: 'acme' },
      endpoint: {
        baseUrl: 'https://acme.example.com',
        baseUrlSource: 'profile acme',
        apiKey: 'k_acme_0000000000000000',
      },
    });
    expect(await choose({ profile: 'north' }, { MON_API_KEY: 'k_env_00000000000000000' })).toEqual({
      account: { key: 'north', label: 'north' },
      endpoint: {
        baseUrl: 'https://north.example.com',
        baseUrlSource: 'profile north',
        apiKey: 'k_env_00000000000000000',
      },
    });
    expect((await choose({ baseUrl: 'http://127.0.0.1:4010' }, {})).endpoint).toEqual({
      baseUrl: 'http://127.0.0.1:4010',
      baseUrlSource: '--base-url',
      apiKey: 'k_acme_0000000000000000',
    });
  });

  it('an unknown profile or nothing to go on is a usage error naming what to do', async () => {
    await expect(choose({ profile: 'nope' }, {})).rejects.toThrow(/no profile named 'nope' \(saved: acme, north\)/);
    const none = async () =>
      ({ defaultName: undefined, get: () => undefined, list: () => ({}) }) as unknown as ProfileReader;
    await expect(choose({}, {}, none)).rejects.toThrow('no profile: nothing says which account to use');
    await expect(choose({}, { MON_BASE_URL: 'https://x.example.com' }, none)).rejects.toThrow('no API key');
  });

  it('a profile mon names itself (one account of many, `profile test NAME`) is the saved profile alone', async () => {
    const env = { MON_API_KEY: 'k_env_00000000000000000', MON_BASE_URL: 'https://env.example.com' };
    const globals = resolveGlobals({ sandbox: true }, env);
    expect(await targetOf({ savedProfile: 'north' }, globals, env, saved())).toEqual({
      account: { key: 'north', label: 'north' },
      endpoint: {
        baseUrl: 'https://north.example.com',
        baseUrlSource: 'profile north',
        apiKey: 'k_north_000000000000000',
      },
    });
    // The command line's own choice still lets the environment override the profile's key.
    expect(
      (await targetOf({ commandLine: true }, resolveGlobals({ profile: 'north' }, env), env, saved())).endpoint,
    ).toMatchObject({ baseUrl: 'https://env.example.com', apiKey: 'k_env_00000000000000000' });
    await expect(targetOf({ savedProfile: 'gone' }, globals, env, saved())).rejects.toThrow(/no profile named 'gone'/);
  });
});
