import { describe, expect, it } from 'vitest';
import { NotFoundError, UsageError } from '../../src/errors.js';
import { resolvePlugin } from '../../src/resolve/index.js';

const RESULTS = [
  { uid: 'pr_1', slug: 'disk_usage', name: 'Disk Usage' },
  { uid: 'pr_2', slug: 'disk_usage', name: 'Disk Usage' },
  { uid: 'pr_3', slug: 'battery', name: 'Battery' },
  { uid: 'pr_4', slug: 'backup_a', name: 'Backup' },
  { uid: 'pr_5', slug: 'backup_b', name: 'backup' },
];

describe('resolvePlugin: a plugin by name or slug, case-insensitive', () => {
  it('finds a plugin by its slug or its name in any case, once however many computers run it', () => {
    expect(resolvePlugin('DISK_USAGE', RESULTS)).toEqual({ slug: 'disk_usage', name: 'Disk Usage' });
    expect(resolvePlugin('disk usage', RESULTS)).toEqual({ slug: 'disk_usage', name: 'Disk Usage' });
    expect(resolvePlugin('backup_b', RESULTS)).toEqual({ slug: 'backup_b', name: 'backup' });
  });

  it('an unknown plugin is exit 4 naming it', () => {
    expect(() => resolvePlugin('nosuch', RESULTS)).toThrow("--plugin: no plugin named 'nosuch' (looked up by slug and name)");
    expect(() => resolvePlugin('nosuch', RESULTS)).toThrow(NotFoundError);
  });

  it('a name that two plugins share is exit 2 with both slugs', () => {
    let caught: unknown;
    try {
      resolvePlugin('BACKUP', RESULTS);
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(UsageError);
    expect((caught as UsageError).message).toBe(`--plugin: 'BACKUP' names 2 plugins: backup_a ("Backup"), backup_b ("backup")`);
  });
});
