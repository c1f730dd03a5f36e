/**
 * `mon report` end to end: spawned as a provider's monthly job runs it, against a sandbox with a
 * fixed clock (so the same data gives the same file), and looked at as a person sees it: headless
 * Chromium (Debian's chromium, which .ci/run installs) renders it at A4 width, and the page's
 * text and charts are read from what the browser drew.
 */
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type RunningSandbox } from '../../src/sandbox/server.js';
import { findProgram, hasProgram } from '../helpers/programs.js';
import { runMain } from '../helpers/run-main.js';
import { runMon, tempConfigDir, tempDir } from '../helpers/run-mon.js';

const HAS_CHROMIUM = hasProgram('chromium');
const CHROMIUM = findProgram('chromium') ?? 'chromium';
const CHROMIUM_FLAGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--hide-scrollbars'];

/** Renders the file in Chromium: the DOM as the browser holds it, and a screenshot at A4 width (794 px at 96 dpi). */
function inChromium(file: string): { dom: string; png: string } {
  const profile = tempDir('mon-chromium-');
  const png = join(profile, 'page.png');
  const run = (extra: string[]) => execFileSync(CHROMIUM, [...CHROMIUM_FLAGS, `--user-data-dir=${profile}`, ...extra, `file://${file}`], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'], timeout: 60_000 });
  const dom = run(['--dump-dom', '--virtual-time-budget=2000']);
  run(['--window-size=794,3000', `--screenshot=${png}`]);
  return { dom, png };
}

/** The visible text of an HTML fragment: tags dropped, entities read, space folded. */
const textOf = (html: string): string =>
  html
    .replace(/<style[\s\S]*?<\/style>/g, ' ')
    .replace(/<[^>]+>/g, ' ')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&amp;/g, '&')
    .replace(/\s+/g, ' ');

describe('mon report', () => {
  let sandbox: RunningSandbox;
  let other: RunningSandbox;
  const NOW = Date.parse('2026-11-20T09:00:00Z');
  const env = (one: RunningSandbox) => ({ MON_BASE_URL: one.url, MON_API_KEY: one.apiKey });

  beforeAll(async () => {
    sandbox = await startSandbox({ port: 0, now: () => NOW });
    other = await startSandbox({ port: 0, now: () => NOW, seed: 5, computers: 9, apiKey: 'sbx_live_second_0123456789ab' });
  });
  afterAll(async () => {
    await sandbox.close();
    await other.close();
  });

  it('is one self-contained file whose counts are those of status -o json, and the same file again on the same data', async () => {
    const [first, second, status] = [
      await runMon(['report', '--title', 'Acme — November', '--footer', 'Northwind IT Services'], { env: env(sandbox) }),
      await runMon(['report', '--title', 'Acme — November', '--footer', 'Northwind IT Services'], { env: env(sandbox) }),
      // What it is held against, in-process.
      await runMain(['status', '-o', 'json'], { env: env(sandbox) }),
    ];
    expect(first.stderr).toBe('');
    expect(first.code).toBe(0);
    expect(second.stdout).toBe(first.stdout);
    const html = first.stdout;
    // Nothing runs and nothing is fetched: no script, no external stylesheet, font or image.
    expect(html).not.toMatch(/<script|<link|<iframe|<object|<embed|@import|url\(|\bon\w+=/i);
    expect(html).not.toMatch(/<img[^>]+src="(?!data:)/);
    expect([...html.matchAll(/href="([^"]*)"/g)].every(([, href]) => /^https?:\/\//.test(href!))).toBe(true);
    const report = JSON.parse(status.stdout);
    const cards = Object.fromEntries([...html.matchAll(/<span class="n[^"]*">([\d,]+)<\/span><span class="what">([^<]+)<\/span>/g)].map(([, n, what]) => [what!.replace(/ \(.*/, ''), Number(n!.replace(/,/g, ''))]));
    expect(cards).toEqual({
      computers: report.computers.total,
      missing: report.computers.missing,
      hidden: report.computers.hidden,
      'alerts, unmuted': report.plugin_results.alerts,
      'warnings, unmuted': report.plugin_results.warnings,
      'muted plugin results': report.plugin_results.muted,
    });
    expect(html).toContain(`Inventory (${report.computers.total})`);
    expect(html).toContain(`Missing (${report.computers.missing})`);
    expect(html).toContain(`Alerts and warnings (${report.plugin_results.alerts + report.plugin_results.warnings})`);
    expect(textOf(html)).toContain('Northwind IT Services');
  });

  it.runIf(HAS_CHROMIUM)('renders in Chromium at A4 width: the counts are on the page and every chart drew bars with labels', async () => {
    const dir = tempDir('mon-report-');
    const file = join(dir, 'report.html');
    // The browser is under test here: mon runs in-process.
    const run = await runMain(['report'], { env: env(sandbox) });
    writeFileSync(file, run.stdout);
    const status = JSON.parse((await runMain(['status', '-o', 'json'], { env: env(sandbox) })).stdout);
    const { dom, png } = inChromium(file);
    const text = textOf(dom);
    expect(text).toContain(`${status.computers.total} computers`);
    expect(text).toMatch(new RegExp(`${status.computers.missing} missing`));
    const charts = [...dom.matchAll(/<figure[^>]*>([\s\S]*?)<\/figure>/g)].map(([, figure]) => figure!);
    expect(charts).toHaveLength(5);
    for (const chart of charts) {
      expect(chart).toMatch(/<svg[^>]*viewBox="0 0 \d+ \d+"/);
      const labels = [...chart.matchAll(/<text[^>]*>([^<]+)<\/text>/g)].map(([, label]) => label);
      expect(labels.length).toBeGreaterThan(1);
      // At least one bar with a size: the chart drew something.
      expect([...chart.matchAll(/<rect[^>]*(?:width|height)="([1-9]\d*)"/g)].length).toBeGreaterThan(0);
    }
    // A page that drew: a PNG of real size (an empty page is a few KB).
    expect(readFileSync(png).subarray(1, 4).toString()).toBe('PNG');
    expect(statSync(png).size).toBeGreaterThan(60_000);
  });
  it('one file per account with --all-profiles --output-dir, named after the profile; without the folder, exit 2 and nothing read', async () => {
    const config = tempConfigDir();
    const profiles = { MON_CONFIG_DIR: config, HOME: config };
    for (const [name, one] of [['acme', sandbox], ['northwind', other]] as const) {
      expect((await runMain(['profile', 'add', name, '--base-url', one.url, '--api-key-stdin'], { env: profiles, input: `${one.apiKey}\n` })).code).toBe(0);
    }
    const out = tempDir('mon-reports-');
    const run = await runMon(['--all-profiles', 'report', '--output-dir', join(out, '2026-11'), '--since', '30d'], { env: profiles });
    expect(run.code).toBe(0);
    expect(run.stdout).toBe('');
    expect(readdirSync(join(out, '2026-11')).sort()).toEqual(['acme.html', 'northwind.html']);
    const northwind = readFileSync(join(out, '2026-11', 'northwind.html'), 'utf8');
    expect(northwind).toContain('Inventory (9)');
    expect(northwind).toMatch(/<p class="sub">northwind · \d{4}-\d\d-\d\d<\/p>/);
    expect(northwind).toContain('mon keeps no history');

    const requests = sandbox.requests.length;
    const refused = await runMon(['--all-profiles', 'report'], { env: profiles });
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(/give --output-dir DIR/);
    expect(sandbox.requests.length).toBe(requests);
  });

  it('embeds a logo as data, and refuses a file that is not an image or is too large (exit 2, nothing sent)', async () => {
    const dir = tempDir('mon-logo-');
    const png = join(dir, 'logo.png');
    writeFileSync(png, Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==', 'base64'));
    const withLogo = await runMon(['report', '--logo', png], { env: env(sandbox) });
    expect(withLogo.code).toBe(0);
    expect(withLogo.stdout).toContain('<img src="data:image/png;base64,iVBORw0KGgo');

    const text = join(dir, 'logo.txt');
    writeFileSync(text, 'not an image');
    const big = join(dir, 'big.png');
    writeFileSync(big, Buffer.alloc(1024 * 1024 + 1));
    const requests = sandbox.requests.length;
    for (const [file, message] of [[text, /^mon: --logo logo\.txt: not a PNG, JPEG, GIF, WebP or SVG image/], [big, /^mon: --logo big\.png: larger than 1 MiB/], [dir, /^mon: --logo mon-logo-\w+: not a file/]] as const) {
      const run = await runMon(['report', '--logo', file], { env: env(sandbox) });
      expect(run.code).toBe(2);
      expect(run.stderr).toMatch(message);
    }
    expect(sandbox.requests.length).toBe(requests);
  });

  it.each([
    [['--output-dir', '/etc/passwd'], 'mon: --output-dir: cannot write in /etc/passwd (not a folder) — give a folder you may write in\n'],
    [['--fields', 'computers'], 'mon: --fields: `mon report` writes its own HTML, whose sections are fixed — drop --fields; for chosen figures use `mon status -o json --fields …`\n'],
  ])('%j: exit 2 before anything is read', async (args, line) => {
    const requests = sandbox.requests.length;
    const run = await runMain(['report', ...args], { env: env(sandbox) });
    expect(run).toEqual({ code: 2, stdout: '', stderr: line });
    expect(sandbox.requests.length).toBe(requests);
  });
});
