import { describe, expect, it, vi } from 'vitest';

// Records which heavy modules get imported, while still providing the real ones.
const loaded = vi.hoisted(() => new Set<string>());
vi.mock('chalk', async (importOriginal) => {
  loaded.add('chalk');
  return importOriginal();
});
vi.mock('cli-table3', async (importOriginal) => {
  loaded.add('cli-table3');
  return importOriginal();
});

const { createListRenderer, renderObject } = await import('../../src/output/render.js');

const base = {
  columns: [{ key: 'uid' }],
  header: true,
  tty: false,
  now: () => 0,
  out: { write: () => true },
};

// Start-up cost: only a table may load cli-table3, and only coloured output loads chalk.
// The tests run in order and share `loaded`.
describe('lazy loading', () => {
  it('importing the output modules loads neither', () => {
    expect([...loaded]).toEqual([]);
  });

  it.each(['json', 'ndjson', 'csv', 'tsv'] as const)('%s loads neither', async (format) => {
    const list = await createListRenderer({ ...base, format, color: true });
    list.push([{ uid: 'c_1' }]);
    list.end();
    await renderObject({ uid: 'c_1' }, { ...base, format, color: true });
    expect([...loaded]).toEqual([]);
  });

  it('a table without colour loads cli-table3 only', async () => {
    await renderObject({ uid: 'c_1' }, { ...base, format: 'table', color: false });
    expect([...loaded]).toEqual(['cli-table3']);
  });

  it('a coloured table loads chalk too', async () => {
    const list = await createListRenderer({ ...base, format: 'table', color: true });
    list.push([{ uid: 'c_1' }]);
    list.end();
    expect([...loaded].sort()).toEqual(['chalk', 'cli-table3']);
  });
});
