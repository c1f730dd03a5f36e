import { spawnSync } from 'node:child_process';
import { copyFileSync, readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { hasProgram } from '../helpers/programs.js';
import { tempDir } from '../helpers/run-mon.js';

/**
 * The scheduled jobs the README and the guides show, as people paste them: a crontab line of
 * `crontab -e` has no user field (pasted with one, cron runs the user name as a command), a line
 * of /etc/cron.d has one, and every crontab sets PATH (cron's is /usr/bin:/bin, where a mon
 * under /usr/local/bin or nvm is "not found"). The systemd service and timer are checked by
 * `systemd-analyze verify`, and the guide shows them as they are in docs/systemd/.
 */
const root = fileURLToPath(new URL('../../', import.meta.url));
const FILES = [
  'README.md',
  ...readdirSync(join(root, 'docs', 'guides'))
    .filter((file) => file.endsWith('.md'))
    .map((file) => join('docs', 'guides', file)),
];
const SYSTEMD = join(root, 'docs', 'systemd');
const UNITS = readdirSync(SYSTEMD).filter((file) => /\.(service|timer)$/.test(file));
const HAS_SYSTEMD_ANALYZE = hasProgram('systemd-analyze', ['systemd-analyze', '--version']);

/** The fenced blocks of one language in a file: where each starts, and its lines. */
function blocks(language: string): { where: string; body: string[] }[] {
  return FILES.flatMap((file) => {
    const lines = readFileSync(join(root, file), 'utf8').split('\n');
    const out: { where: string; body: string[] }[] = [];
    for (let i = 0; i < lines.length; i++) {
      if (lines[i]!.trim() !== `\`\`\`${language}`) continue;
      const body: string[] = [];
      const where = `${file}:${i + 1}`;
      for (i++; i < lines.length && lines[i]!.trim() !== '```'; i++) body.push(lines[i]!);
      out.push({ where, body });
    }
    return out;
  });
}

/** A crontab line's five time fields, then the rest. */
const SCHEDULE = /^((?:[\d*/,-]+\s+){4}[\w*/,-]+)\s+(.*)$/;
const isSchedule = (line: string) => SCHEDULE.test(line.trim());
const CRONTABS = blocks('crontab');

describe('the crontab lines of the README and the guides', () => {
  it('are in ```crontab blocks, and none of another block has a schedule with mon', () => {
    expect(CRONTABS.length).toBeGreaterThanOrEqual(3);
    for (const language of ['sh', 'console', 'text']) {
      for (const { where, body } of blocks(language))
        for (const line of body) expect(isSchedule(line) && /\bmon\b/.test(line), `${where}: ${line}`).toBe(false);
    }
  });

  it.each(CRONTABS.map((block) => [block.where, block] as const))(
    '%s: says which kind it is, has the user field only in /etc/cron.d, and sets PATH',
    (_where, { body }) => {
      const systemCrontab = body.some((line) => line.startsWith('#') && line.includes('/etc/cron.d/'));
      expect(
        systemCrontab ||
          body.some((line) => line.startsWith('#') && line.includes('crontab -e')) ||
          body.every((line) => !line.startsWith('#')),
      ).toBe(true);
      const path = body.find((line) => line.startsWith('PATH='));
      const jobs = body.filter(isSchedule);
      expect(jobs.length).toBeGreaterThan(0);
      for (const job of jobs) {
        const rest = SCHEDULE.exec(job.trim())![2]!;
        const [first, second] = rest.split(/\s+/);
        if (systemCrontab) {
          // The user, then the command.
          expect(first, job).toMatch(/^[a-z_][a-z0-9_-]*$/);
          expect(['mon', '.', 'cd'].includes(second!) || second!.startsWith('/'), job).toBe(true);
        } else {
          // The command at once: mon, a sourced file, or a full path; never a user name.
          expect(['mon', '.', 'cd'].includes(first!) || first!.startsWith('/'), job).toBe(true);
        }
        // cron's PATH is /usr/bin:/bin: it is set, with /usr/local/bin, or mon is named by its full path.
        if (!path) expect(rest, job).toMatch(/(^|\s)\/\S*\/mon\s/);
      }
      if (path) expect(path.split('=')[1]!.split(':')).toContain('/usr/local/bin');
    },
  );
});

describe('the systemd service and timer (docs/systemd)', () => {
  it('are the service and timer of a job, shown in the cron guide as they are, and the service of the exporter', () => {
    expect(UNITS.sort()).toEqual(['mon-metrics.service', 'mon-missing.service', 'mon-missing.timer']);
    const settings = (text: string) => text.split('\n').filter((line) => line.trim() !== '' && !line.startsWith('#'));
    const shown = blocks('ini').map((block) => settings(block.body.join('\n')));
    for (const unit of UNITS.filter((name) => name.startsWith('mon-missing')))
      expect(shown, unit).toContainEqual(settings(readFileSync(join(SYSTEMD, unit), 'utf8')));
  });

  it.runIf(HAS_SYSTEMD_ANALYZE)('pass systemd-analyze verify', () => {
    const dir = tempDir('mon-systemd-');
    for (const unit of UNITS) copyFileSync(join(SYSTEMD, unit), join(dir, unit));
    const run = spawnSync('systemd-analyze', ['verify', ...UNITS.map((unit) => join(dir, unit))], {
      encoding: 'utf8',
      timeout: 60_000,
    });
    expect(
      {
        status: run.status,
        stderr: run.stderr
          .split('\n')
          .filter((line) => line && !/Failed to (connect|open)|Operation not permitted/.test(line)),
      },
      relative(root, SYSTEMD),
    ).toEqual({ status: 0, stderr: [] });
  });
});
