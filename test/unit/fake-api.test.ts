import { describe, expect, it } from 'vitest';
import { computersPage, startFakeApi } from '../helpers/fake-api.js';

describe('the fake API of the tests', () => {
  it('fails its test on a request the handler did not expect, naming it; answers the expected ones', async () => {
    const api = await startFakeApi(computersPage(3));
    const expected = await fetch(`${api.url}/v2.5/computers?per_page=2`);
    expect(expected.status).toBe(200);
    expect(await expected.json()).toHaveLength(2);
    const other = await fetch(`${api.url}/v2.5/groups`);
    expect(other.status).toBe(500);
    await expect(api.close()).rejects.toThrow(
      'the fake API received requests its test did not expect: GET /v2.5/groups',
    );
  });

  it('closes quietly when every request was expected', async () => {
    const api = await startFakeApi(computersPage(1));
    expect((await fetch(`${api.url}/v2.5/computers`)).status).toBe(200);
    await expect(api.close()).resolves.toBeUndefined();
  });
});
