/**
 * `mon report`: a customer report of one account, or one per account with --profiles and
 * --all-profiles, as one self-contained HTML file (src/report). Declared here; the work is
 * loaded only when it runs.
 */
import { basename, join } from 'node:path';
import type { Context } from '../context.js';
import { UsageError } from '../errors.js';
import { verb } from '../spec/spec.js';
import { GROUP_OPTION } from './selectors.js';

/** A logo larger than this would make a report too heavy to mail. */
const LOGO_MAX_BYTES = 1024 * 1024;

/** What a logo may be, by its first bytes: the report embeds it as a data: URL. */
const IMAGE_TYPES: readonly [string, (head: Buffer) => boolean][] = [
  ['image/png', (head) => head.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))],
  ['image/jpeg', (head) => head[0] === 0xff && head[1] === 0xd8 && head[2] === 0xff],
  ['image/gif', (head) => head.subarray(0, 4).toString('latin1') === 'GIF8'],
  ['image/webp', (head) => head.subarray(0, 4).toString('latin1') === 'RIFF' && head.subarray(8, 12).toString('latin1') === 'WEBP'],
  ['image/svg+xml', (head) => /^(\uFEFF)?\s*(<\?xml[^>]*>\s*)?(<!--[\s\S]*?-->\s*)*<svg[\s>]/i.test(head.subarray(0, 512).toString('utf8'))],
];

export const report = verb({
  name: 'report',
  summary: 'A customer report as one self-contained HTML file',
  description:
    'One HTML file with no script and nothing external (the logo is embedded), so it opens offline, mails as an attachment and prints to PDF on A4 or Letter: the account at a glance (the counts of `mon status`), charts (platforms, operating systems, boot volume use, unmuted alerts by group, expirations by month for twelve months), the computers needing attention (missing, and unmuted alerts and warnings), expirations in the next 90 days, and the inventory. Computer names link to the service\'s own page where the API gives one. On stdout, or with --output-dir one file per account named after it (needed with --profiles and --all-profiles). With --since: what the API\'s own timestamps tell of that time (computers registered since); mon keeps no history for trends and says so.',
  options: [
    GROUP_OPTION,
    { flags: '--since <when>', description: 'also show what changed since WHEN, as far as the API\'s timestamps tell (30d, 2w, an ISO 8601 time)', rule: { type: 'since' } },
    { flags: '--title <text>', description: 'the report\'s title (default: "Fleet report")', rule: { type: 'text', max: 200, nonEmpty: true } },
    { flags: '--logo <file>', description: 'a PNG, JPEG, GIF, WebP or SVG image shown at the top, embedded (at most 1 MiB)', rule: { type: 'text', max: 4096, nonEmpty: true } },
    { flags: '--footer <text>', description: 'a line at the foot of the report, e.g. your company\'s name', rule: { type: 'text', max: 500, nonEmpty: true } },
    { flags: '--output-dir <dir>', description: 'write <account>.html there instead of printing (one file per account)', rule: { type: 'text', max: 4096, nonEmpty: true } },
  ],
  jsonOutput: false,
  reads: true,
  examples: [
    'mon report > fleet.html',
    'mon report --title "Acme Design — November" --logo logo.png --footer "Northwind IT Services" > acme.html',
    'mon --all-profiles report --output-dir reports/2026-11 --since 30d',
  ],
  async run({ opts }, ctx) {
    if (ctx.output.account && opts.outputDir === undefined) {
      throw new UsageError('report: one file per account across accounts: give --output-dir DIR', 'e.g. mon --all-profiles report --output-dir reports');
    }
    if (ctx.globals.output !== 'table') throw new UsageError(`-o ${ctx.globals.output}: \`mon report\` writes HTML`, 'drop -o; for figures use `mon status -o json` or -o openmetrics');
    if (ctx.globals.fields !== undefined) throw new UsageError('--fields: `mon report` writes its own HTML, whose sections are fixed', 'drop --fields; for chosen figures use `mon status -o json --fields …`');
    const logo = opts.logo === undefined ? undefined : await logoData(opts.logo);
    // A folder that cannot take the report is exit 2 before the reads, not after them.
    if (opts.outputDir !== undefined && !ctx.globals.dryRun) await outputDirReady(opts.outputDir);
    const client = await ctx.client();
    const { plannedStatusRequests } = await import('../fleet/status.js');
    const { showDryRun } = await import('./actions.js');
    const scope = { groups: opts.group };
    if (await showDryRun(ctx, plannedStatusRequests(client, scope))) return;
    const { accountName } = await import('../runtime.js');
    const account = await accountName(ctx);
    const [{ collectReport }, { renderReport }, { createProgress }, { VERSION }, { readingComputers }] = await Promise.all([
      import('../report/collect.js'),
      import('../report/html.js'),
      import('../output/progress.js'),
      import('../version.js'),
      import('../fleet/selection.js'),
    ]);
    const progress = createProgress(ctx.io.stderr, ctx.now, ctx.globals.quiet);
    let data;
    try {
      data = await collectReport(client, account, scope, ctx.now(), opts.since === undefined ? undefined : opts.since * 1000, (read) => progress.update(readingComputers(read)));
    } finally {
      progress.done();
    }
    const html = renderReport(data, { title: opts.title ?? 'Fleet report', ...(logo && { logo }), ...(opts.footer && { footer: opts.footer }), version: VERSION });
    if (opts.outputDir === undefined) {
      ctx.io.stdout.write(html);
      return;
    }
    await writeReport(ctx, opts.outputDir, account, html);
  },
});

/** The logo as a data: URL, checked to be an image of a known kind and not too large. */
async function logoData(file: string): Promise<string> {
  const { stat } = await import('node:fs/promises');
  const { readAtMost } = await import('../config/trust.js');
  let bytes: Buffer;
  try {
    const about = await stat(file);
    const larger = () => new UsageError(`--logo ${basename(file)}: larger than 1 MiB`, 'use a smaller image: it is embedded in every report');
    if (!about.isFile()) throw new UsageError(`--logo ${basename(file)}: not a file`, 'give a PNG, JPEG, GIF, WebP or SVG file');
    if (about.size > LOGO_MAX_BYTES) throw larger();
    // At most the limit and one byte, whatever stat says: /proc/self/pagemap says 0 and is endless.
    const read = readAtMost(file, LOGO_MAX_BYTES);
    if (read === undefined) throw larger();
    bytes = read;
  } catch (error) {
    if (error instanceof UsageError) throw error;
    throw new UsageError(`--logo: cannot read it (${(error as NodeJS.ErrnoException).code ?? 'error'})`, 'give a PNG, JPEG, GIF, WebP or SVG file');
  }
  const type = IMAGE_TYPES.find(([, is]) => is(bytes))?.[0];
  if (!type) throw new UsageError(`--logo ${basename(file)}: not a PNG, JPEG, GIF, WebP or SVG image`, 'give an image file');
  return `data:${type};base64,${bytes.toString('base64')}`;
}

/** --output-dir made (with its parents) and writable, or a UsageError saying why not. */
async function outputDirReady(dir: string): Promise<void> {
  const { accessSync, constants, mkdirSync } = await import('node:fs');
  try {
    mkdirSync(dir, { recursive: true });
    accessSync(dir, constants.W_OK);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (typeof code !== 'string') throw error;
    throw new UsageError(`--output-dir: cannot write in ${dir} (${code === 'EEXIST' || code === 'ENOTDIR' ? 'not a folder' : code})`, 'give a folder you may write in');
  }
}

/** DIR/<account>.html, written whole or not at all. */
async function writeReport(ctx: Context, dir: string, account: string, html: string): Promise<void> {
  const { mkdirSync } = await import('node:fs');
  const { writeFileAtomic } = await import('../config/files.js');
  const file = join(dir, `${account.replace(/[^\w.-]/g, '_')}.html`);
  try {
    mkdirSync(dir, { recursive: true });
    writeFileAtomic(file, html);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (typeof code !== 'string') throw error;
    throw new UsageError(`--output-dir: cannot write ${file} (${code})`, 'check the folder exists and you may write there');
  }
  ctx.notice(`wrote ${file}`);
}
