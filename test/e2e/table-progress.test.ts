/**
 * A table is printed once its last page is in: on a terminal, the pages are counted on stderr
 * meanwhile (after a second), and the line is gone before the table is printed.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { computersPage, startFakeApi, type FakeApi } from '../helpers/fake-api.js';
import { onTerminal } from '../helpers/terminal.js';

let api: FakeApi;
beforeAll(async () => {
  const page = computersPage(3);
  // Slow pages: the list takes more than the second after which progress shows.
  api = await startFakeApi(async (req, res, index) => {
    await new Promise((resolve) => setTimeout(resolve, 700));
    return page(req, res, index);
  });
});
afterAll(() => api.close());

it('on a terminal, `--all` as a table counts the pages as they come', async () => {
  const { code, screen } = await onTerminal(['computers', 'list', '--all', '--per-page', '1'], { MON_BASE_URL: api.url, MON_API_KEY: 'k_test_key_0001', NO_COLOR: '1' }, '');
  expect(code).toBe(0);
  expect(screen).toMatch(/\rreading computers [23]\/3\x1b\[K/);
  // cleared, then the table
  expect(screen).toMatch(/\r\x1b\[KCLIENT ID +NAME/);
  expect(screen).toContain('host-3');
});
