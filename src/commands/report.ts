/**
 * `mon report`: a customer report of one account, or one per account with --profiles and
 * --all-profiles, as one self-contained HTML file (src/report). Declared here; the report's
 * own code (src/report) is loaded only when it runs.
 */
// fs.promises, read when used: node:fs/promises loaded at start-up costs every command about
// 18 M instructions (Node 22; 26 M on Node 24), 6% of one request.
import { accessSync, constants, mkdirSync, promises as fsPromises } from 'node:fs';
import { basename, join } from 'node:path';
import { writeFileAtomic } from '../config/files.js';
import { readAtMost } from '../config/trust.js';
import type { Account, Context } from '../context.js';
import { UsageError } from '../errors.js';
import { readingComputers, type Scope } from '../fleet/selection.js';
import { plannedStatusRequests } from '../fleet/status.js';
import { historyRecorder, isWholeAccount } from '../history/record.js';
import { readHistory } from '../history/store.js';
import { createProgress, lineOptions } from '../output/progress.js';
import type { ReportData } from '../report/collect.js';
import type { Period, Trends } from '../report/trends.js';
import { verb } from '../spec/spec.js';
import { accountName } from '../target.js';
import { VERSION } from '../version.js';
import { GROUP_OPTION } from './selectors.js';

/** A logo larger than this would make a report too heavy to mail. */
const LOGO_MAX_BYTES = 1024 * 1024;

/** What a logo may be, by its first bytes: the report embeds it as a data: URL. */
const IMAGE_TYPES: readonly [string, (head: Buffer) => boolean][] = [
  ['image/png', (head) => head.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))],
  ['image/jpeg', (head) => head[0] === 0xff && head[1] === 0xd8 && head[2] === 0xff],
  ['image/gif', (head) => head.subarray(0, 4).toString('latin1') === 'GIF8'],
  [
    'image/webp',
    (head) => head.subarray(0, 4).toString('latin1') === 'RIFF' && head.subarray(8, 12).toString('latin1') === 'WEBP',
  ],
  [
    'image/svg+xml',
    (head) =>
      /^(\uFEFF)?\s*(<\?xml[^>]*>\s*)?(<!--[\s\S]*?-->\s*)*<svg[\s>]/i.test(head.subarray(0, 512).toString('utf8')),
  ],
];

export const report = verb({
  name: 'report',
  summary: 'A customer report as one self-contained HTML file',
  description:
    "One HTML file with no script and nothing external (the logo is embedded), so it opens offline, mails as an attachment and prints to PDF on A4 or Letter. For the period (--period 2026-11, --since 30d; the last 30 days by default), in the title: the account at a glance (the counts of `mon status`); the trends day by day (computers, not reporting, open alerts and warnings) from the days mon recorded (`mon history`), and which alerts were resolved or are new between the first and last of them; what needs a decision (expired warranties and licences and how long ago, those ending in 90 days, operating systems past or within 6 months of their vendor's end of support, boot volumes 90% full or more); security checks where the plugin results carry them (disk encryption, antivirus, pending updates); the computers not reporting and the open alerts and warnings; charts; and the inventory with model, serial, age, warranty and last user where the API gives them. The customer's name is the profile's display name (`mon profile set NAME --display-name …`); times are in the reader's zone (TZ), named on the page. On stdout, or with --output-dir one file per account named after it (needed with --profiles and --all-profiles).",
  options: [
    GROUP_OPTION,
    {
      flags: '--period <month>',
      description: 'the calendar month the report covers, YYYY-MM (UTC days)',
      rule: { type: 'name', pattern: /^\d{4}-(0[1-9]|1[0-2])$/, says: 'a month as YYYY-MM, e.g. 2026-11' },
    },
    {
      flags: '--since <when>',
      description: 'the report covers the days since WHEN (30d, 2w, an ISO 8601 time)',
      rule: { type: 'since' },
      defaultText: '30d',
    },
    {
      flags: '--title <text>',
      description: 'the report\'s title (default: "Fleet report")',
      rule: { type: 'text', max: 200, nonEmpty: true },
    },
    {
      flags: '--logo <file>',
      description: 'a PNG, JPEG, GIF, WebP or SVG image shown at the top, embedded (at most 1 MiB)',
      rule: { type: 'text', max: 4096, nonEmpty: true },
    },
    {
      flags: '--footer <text>',
      description: "a line at the foot of the report, e.g. your company's name",
      rule: { type: 'text', max: 500, nonEmpty: true },
    },
    {
      flags: '--output-dir <dir>',
      description: 'write <account>.html there instead of printing (one file per account)',
      rule: { type: 'text', max: 4096, nonEmpty: true },
    },
  ],
  constraints: { atMostOne: [['period', 'since']] },
  jsonOutput: false,
  reads: true,
  examples: [
    'mon report > fleet.html',
    'mon report --title "Acme Design — November" --logo logo.png --footer "Northwind IT Services" > acme.html',
    'mon --all-profiles report --output-dir reports/2026-11 --period 2026-11',
  ],
  async run({ opts }, ctx) {
    refuseOutputs(ctx, opts.outputDir);
    const logo = opts.logo === undefined ? undefined : await logoData(opts.logo);
    // A folder that cannot take the report is exit 2 before the reads, not after them.
    if (opts.outputDir !== undefined && !ctx.dryRun.on) outputDirReady(opts.outputDir);
    const client = await ctx.client();
    const scope = { groups: opts.group };
    if (await ctx.dryRun.shows(plannedStatusRequests(client, scope))) return;
    const account = await accountName(ctx);
    // The report's own code (its HTML, its trends) is loaded only by this command.
    const report = await import('../report/index.js');
    const { collectReport, renderReport, readerZone, monthPeriod, sincePeriod } = report;
    const progress = createProgress(ctx.io.stderr, ctx.now, lineOptions(ctx));
    const nowMs = ctx.now();
    const period =
      opts.period !== undefined
        ? monthPeriod(opts.period)
        : sincePeriod(opts.since !== undefined ? opts.since * 1000 : nowMs - 30 * 86_400_000, nowMs);
    const history = historyRecorder(ctx, scope);
    let data: ReportData;
    try {
      const since = Date.parse(`${period.fromDay}T00:00:00Z`);
      const onPage = (read: { computers: number; total?: number }) => progress.update(readingComputers(read));
      data = await collectReport(client, account, scope, nowMs, since, onPage, history);
    } finally {
      progress.done();
    }
    await history?.record();
    const { account: target } = await ctx.target();
    const frame = trendsFrame(ctx, target, scope, period, report);
    const customer = await displayNameOf(ctx, target);
    const html = renderReport(
      data,
      {
        title: opts.title ?? 'Fleet report',
        ...(logo && { logo }),
        ...(opts.footer && { footer: opts.footer }),
        version: VERSION,
      },
      { ...frame, period, zone: readerZone(ctx.env.TZ), ...(customer && { customer }) },
    );
    if (opts.outputDir === undefined) {
      ctx.io.stdout.write(html);
      return;
    }
    writeReport(ctx, opts.outputDir, account, html);
  },
});

/** What the report cannot be: several on one stdout, another format, chosen fields, HTML on a terminal. */
function refuseOutputs(ctx: Context, outputDir: string | undefined): void {
  if (!ctx.output.ownStdout && outputDir === undefined) {
    throw new UsageError(
      'report: one file per account across accounts: give --output-dir DIR',
      'e.g. mon --all-profiles report --output-dir reports',
    );
  }
  if (ctx.globals.output !== 'table')
    throw new UsageError(
      `-o ${ctx.globals.output}: \`mon report\` writes HTML`,
      'drop -o; for figures use `mon status -o json` or -o openmetrics',
    );
  if (ctx.globals.fields !== undefined)
    throw new UsageError(
      '--fields: `mon report` writes its own HTML, whose sections are fixed',
      'drop --fields; for chosen figures use `mon status -o json --fields …`',
    );
  // 20 KB of HTML on a screen helps nobody, as compressors refuse to write to a terminal.
  if (outputDir === undefined && ctx.io.stdout.isTTY && !ctx.dryRun.on) {
    throw new UsageError(
      'report: standard output is a terminal, and the report is an HTML file',
      'redirect it (mon report > report.html) or give --output-dir DIR',
    );
  }
}

/** The trends: the days recorded in the period (today's just now, when the read was whole), or why there are none. */
function trendsFrame(
  ctx: Context,
  account: Account,
  scope: Scope,
  period: Period,
  { trendsOf, dayLabel }: typeof import('../report/index.js'),
): { trends: Trends } | { noTrends: string } {
  if (!isWholeAccount(scope))
    return { noTrends: 'Trends are recorded for whole accounts: this report covers only part of one (--group).' };
  const { snapshots } = readHistory(ctx.configDir, account.key, {
    fromDay: period.fromDay,
    toDay: period.toDay,
    alertingAtEndsOnly: true,
  });
  const trends = trendsOf(snapshots);
  if (trends) return { trends };
  const first = snapshots[0]?.day;
  return {
    noTrends: first
      ? `Trends start with the first recorded day, ${dayLabel(first)}: the next days recorded will draw them.`
      : 'No day of this period was recorded: trends start with the first recorded day.',
  };
}

/**
 * The customer's name for the report: the display name saved with the profile in effect. None
 * (and a notice saying how to set one) for a profile without it, or an account given by URL:
 * the profile's own name is the provider's, not the customer's.
 */
async function displayNameOf(ctx: Context, account: { key: string; label: string }): Promise<string | undefined> {
  if (account.key.startsWith('@')) return undefined;
  const saved = (await ctx.profiles()).get(account.key)?.displayName;
  if (saved) return saved;
  ctx.notice(
    `report: profile ${account.key} has no display name, so the report names no customer; set one with \`mon profile set ${account.key} --display-name "…"\``,
  );
  return undefined;
}

/** The logo as a data: URL, checked to be an image of a known kind and not too large. */
async function logoData(file: string): Promise<string> {
  let bytes: Buffer;
  try {
    const about = await fsPromises.stat(file);
    const larger = () =>
      new UsageError(
        `--logo ${basename(file)}: larger than 1 MiB`,
        'use a smaller image: it is embedded in every report',
      );
    if (!about.isFile())
      throw new UsageError(`--logo ${basename(file)}: not a file`, 'give a PNG, JPEG, GIF, WebP or SVG file');
    if (about.size > LOGO_MAX_BYTES) throw larger();
    // At most the limit and one byte, whatever stat says: /proc/self/pagemap says 0 and is endless.
    const read = readAtMost(file, LOGO_MAX_BYTES);
    if (read === undefined) throw larger();
    bytes = read;
  } catch (error) {
    if (error instanceof UsageError) throw error;
    throw new UsageError(
      `--logo: cannot read it (${(error as NodeJS.ErrnoException).code ?? 'error'})`,
      'give a PNG, JPEG, GIF, WebP or SVG file',
    );
  }
  const type = IMAGE_TYPES.find(([, is]) => is(bytes))?.[0];
  if (!type)
    throw new UsageError(`--logo ${basename(file)}: not a PNG, JPEG, GIF, WebP or SVG image`, 'give an image file');
  return `data:${type};base64,${bytes.toString('base64')}`;
}

/** --output-dir made (with its parents) and writable, or a UsageError saying why not. */
function outputDirReady(dir: string): void {
  try {
    mkdirSync(dir, { recursive: true });
    accessSync(dir, constants.W_OK);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (typeof code !== 'string') throw error;
    throw new UsageError(
      `--output-dir: cannot write in ${dir} (${code === 'EEXIST' || code === 'ENOTDIR' ? 'not a folder' : code})`,
      'give a folder you may write in',
    );
  }
}

/** DIR/<account>.html, written whole or not at all. */
function writeReport(ctx: Context, dir: string, account: string, html: string): void {
  const file = join(dir, `${account.replace(/[^\w.-]/g, '_')}.html`);
  try {
    mkdirSync(dir, { recursive: true });
    // A report is for others to read (mailed, shared): it follows the umask, as a redirect would.
    writeFileAtomic(file, html, { mode: 0o666 });
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (typeof code !== 'string') throw error;
    throw new UsageError(
      `--output-dir: cannot write ${file} (${code})`,
      'check the folder exists and you may write there',
    );
  }
  ctx.notice(`wrote ${file}`);
}
