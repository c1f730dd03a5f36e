/**
 * `mon report` end to end: spawned as a provider's monthly job runs it, against a sandbox with a
 * fixed clock (so the same data gives the same file), and looked at as a person sees it: headless
 * Chromium (Debian's chromium, which .ci/run installs) renders it at A4 width, and the page's
 * text and charts are read from what the browser drew.
 */
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type RunningSandbox } from '../../src/sandbox/server.js';
import { findProgram, hasProgram } from '../helpers/programs.js';
import { runMain } from '../helpers/run-main.js';
import { MON_BIN, runMon, tempConfigDir, tempDir } from '../helpers/run-mon.js';
import { onTerminal } from '../helpers/terminal.js';

const HAS_CHROMIUM = hasProgram('chromium');
const CHROMIUM = findProgram('chromium') ?? 'chromium';
const CHROMIUM_FLAGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--hide-scrollbars',
];

/** Renders the file in Chromium: the DOM as the browser holds it, and a screenshot at A4 width (794 px at 96 dpi). */
function inChromium(file: string): { dom: string; png: string } {
  const profile = tempDir('mon-chromium-');
  const png = join(profile, 'page.png');
  const run = (extra: string[]) =>
    execFileSync(CHROMIUM, [...CHROMIUM_FLAGS, `--user-data-dir=${profile}`, ...extra, `file://${file}`], {
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'ignore'],
      timeout: 60_000,
    });
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
    other = await startSandbox({
      port: 0,
      now: () => NOW,
      seed: 5,
      computers: 9,
      apiKey: 'sbx_live_second_0123456789ab',
    });
  });
  afterAll(async () => {
    await sandbox.close();
    await other.close();
  });

  it('is one self-contained file whose counts are those of status -o json, and the same file again on the same data', async () => {
    const [first, second, status] = [
      await runMon(['report', '--title', 'Acme — November', '--footer', 'Northwind IT Services'], {
        env: env(sandbox),
      }),
      await runMon(['report', '--title', 'Acme — November', '--footer', 'Northwind IT Services'], {
        env: env(sandbox),
      }),
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
    const cards = Object.fromEntries(
      [...html.matchAll(/<span class="n[^"]*">([\d,]+)<\/span><span class="what">([^<]+)<\/span>/g)].map(
        ([, n, what]) => [what!.replace(/ \(.*/, ''), Number(n!.replace(/,/g, ''))],
      ),
    );
    expect(cards).toEqual({
      computers: report.computers.total,
      'not reporting': report.computers.missing,
      'hidden from the dashboard': report.computers.hidden,
      'open alerts': report.plugin_results.alerts,
      'open warnings': report.plugin_results.warnings,
      'muted checks': report.plugin_results.muted,
    });
    expect(html).toContain(`Inventory (${report.computers.total})`);
    expect(html).toContain(`Not reporting (${report.computers.missing})`);
    expect(html).toContain(
      `Open alerts and warnings (${report.plugin_results.alerts + report.plugin_results.warnings})`,
    );
    expect(html).toContain(`Expired warranties and licences (${report.expirations.expired})`);
    expect(textOf(html)).toContain('Northwind IT Services');
  });

  it.runIf(HAS_CHROMIUM)(
    'renders in Chromium at A4 width: the counts are on the page and every chart drew bars with labels',
    async () => {
      const dir = tempDir('mon-report-');
      const file = join(dir, 'report.html');
      // The browser is under test here: mon runs in-process.
      const run = await runMain(['report'], { env: env(sandbox) });
      writeFileSync(file, run.stdout);
      const status = JSON.parse((await runMain(['status', '-o', 'json'], { env: env(sandbox) })).stdout);
      const { dom, png } = inChromium(file);
      const text = textOf(dom);
      expect(text).toContain(`${status.computers.total} computers`);
      expect(text).toMatch(new RegExp(`${status.computers.missing} not reporting`));
      const section = /<section id="charts">([\s\S]*?)<\/section>/.exec(dom)![1]!;
      const charts = [...section.matchAll(/<figure[^>]*>([\s\S]*?)<\/figure>/g)].map(([, figure]) => figure!);
      expect(charts).toHaveLength(5);
      for (const chart of charts) {
        expect(chart).toMatch(/<svg[^>]*viewBox="0 0 \d+ \d+"/);
        const labels = [...chart.matchAll(/<(?:text|tspan)[^>]*>([^<]+)<\/(?:text|tspan)>/g)].map(([, label]) => label);
        expect(labels.length).toBeGreaterThan(1);
        // At least one bar with a size: the chart drew something.
        expect([...chart.matchAll(/<rect[^>]*(?:width|height)="([1-9]\d*)"/g)].length).toBeGreaterThan(0);
      }
      // A page that drew: a PNG of real size (an empty page is a few KB).
      expect(readFileSync(png).subarray(1, 4).toString()).toBe('PNG');
      expect(statSync(png).size).toBeGreaterThan(60_000);
    },
  );
  it('one file per account with --all-profiles --output-dir, named after the profile; without the folder, exit 2 and nothing read', async () => {
    const config = tempConfigDir();
    const profiles = { MON_CONFIG_DIR: config, HOME: config };
    for (const [name, one] of [
      ['acme', sandbox],
      ['northwind', other],
    ] as const) {
      expect(
        (
          await runMain(['profile', 'add', name, '--base-url', one.url, '--api-key-stdin'], {
            env: profiles,
            input: `${one.apiKey}\n`,
          })
        ).code,
      ).toBe(0);
    }
    const out = tempDir('mon-reports-');
    expect(
      (await runMain(['profile', 'set', 'northwind', '--display-name', 'Northwind Clinic Ltd'], { env: profiles }))
        .code,
    ).toBe(0);
    const run = await runMon(['--all-profiles', 'report', '--output-dir', join(out, '2026-11'), '--since', '30d'], {
      env: profiles,
    });
    expect(run.code).toBe(0);
    expect(run.stdout).toBe('');
    expect(readdirSync(join(out, '2026-11')).sort()).toEqual(['acme.html', 'northwind.html']);
    const northwind = readFileSync(join(out, '2026-11', 'northwind.html'), 'utf8');
    expect(northwind).toContain('Inventory (9)');
    // The customer's name, never the profile's; the period in the title; the zone named.
    expect(northwind).toMatch(
      /<p class="sub"><strong class="customer">Northwind Clinic Ltd<\/strong> · as of \d{1,2} [A-Z][a-z]{2} \d{4} · times in UTC<\/p>/,
    );
    expect(northwind).toMatch(/<h1>Fleet report — \d{1,2} [A-Z][a-z]{2}( \d{4})? – \d{1,2} [A-Z][a-z]{2} \d{4}<\/h1>/);
    expect(textOf(/<header>[\s\S]*<\/header>/.exec(northwind)![0])).not.toContain('northwind');
    expect(northwind).not.toContain('mon keeps no history');
    // acme has no display name: no customer named, and the run says how to set one.
    expect(readFileSync(join(out, '2026-11', 'acme.html'), 'utf8')).not.toContain('class="customer"');
    expect(run.stderr).toContain('profile acme has no display name');

    const requests = sandbox.requests.length;
    const refused = await runMon(['--all-profiles', 'report'], { env: profiles });
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(/give --output-dir DIR/);
    expect(sandbox.requests.length).toBe(requests);
  });

  it('--output-dir files follow the umask (a colleague may read them); the config folder stays 0600', async () => {
    const config = tempConfigDir();
    const out = tempDir('mon-reports-');
    for (const [umask, mode] of [
      ['022', 0o644],
      ['077', 0o600],
      ['002', 0o664],
    ] as const) {
      const dir = join(out, umask);
      // The shell sets the umask and hands over to mon, as a cron job's shell does (asynchronous:
      // the sandbox answers from this process).
      const inShell = (words: string[], input = '') =>
        new Promise<{ code: number | null; stderr: string }>((resolve, reject) => {
          const child = spawn('sh', ['-c', `umask ${umask}; exec "$0" "$@"`, process.execPath, MON_BIN, ...words], {
            env: { PATH: process.env.PATH ?? '', HOME: config, MON_CONFIG_DIR: config },
          });
          let stderr = '';
          child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
          child.on('error', reject);
          child.on('close', (code) => resolve({ code, stderr }));
          child.stdin.end(input);
        });
      const added = await inShell(
        ['profile', 'add', `u${umask}`, '--base-url', sandbox.url, '--api-key-stdin'],
        `${sandbox.apiKey}\n`,
      );
      expect(added.code, added.stderr).toBe(0);
      const report = await inShell(['-p', `u${umask}`, 'report', '--output-dir', dir]);
      expect(report.code, report.stderr).toBe(0);
      const [file] = readdirSync(dir);
      expect(statSync(join(dir, file!)).mode & 0o777).toBe(mode);
    }
    expect(statSync(join(config, 'config.json')).mode & 0o777).toBe(0o600);
  }, 120_000);

  it('on a terminal without --output-dir: refused, exit 2, saying to redirect or give --output-dir; nothing read', async () => {
    const requests = sandbox.requests.length;
    const { code, screen } = await onTerminal(['report'], env(sandbox), '');
    expect(code).toBe(2);
    expect(screen.replace(/\r/g, '')).toContain(
      'mon: report: standard output is a terminal, and the report is an HTML file — redirect it (mon report > report.html) or give --output-dir DIR\n',
    );
    expect(screen).not.toContain('<html');
    expect(sandbox.requests.length).toBe(requests);
  });

  it('embeds a logo as data, and refuses a file that is not an image or is too large (exit 2, nothing sent)', async () => {
    const dir = tempDir('mon-logo-');
    const png = join(dir, 'logo.png');
    writeFileSync(
      png,
      Buffer.from(
        'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==',
        'base64',
      ),
    );
    const withLogo = await runMon(['report', '--logo', png], { env: env(sandbox) });
    expect(withLogo.code).toBe(0);
    expect(withLogo.stdout).toContain('<img src="data:image/png;base64,iVBORw0KGgo');

    const text = join(dir, 'logo.txt');
    writeFileSync(text, 'not an image');
    const big = join(dir, 'big.png');
    writeFileSync(big, Buffer.alloc(1024 * 1024 + 1));
    const requests = sandbox.requests.length;
    for (const [file, message] of [
      [text, /^mon: --logo logo\.txt: not a PNG, JPEG, GIF, WebP or SVG image/],
      [big, /^mon: --logo big\.png: larger than 1 MiB/],
      [dir, /^mon: --logo mon-logo-\w+: not a file/],
    ] as const) {
      const run = await runMon(['report', '--logo', file], { env: env(sandbox) });
      expect(run.code).toBe(2);
      expect(run.stderr).toMatch(message);
    }
    expect(sandbox.requests.length).toBe(requests);
  });

  it.runIf(existsSync('/proc/self/pagemap'))(
    'a logo whose size says 0 and that never ends (a link to /proc/self/pagemap) is refused, read no further than its limit',
    async () => {
      const dir = tempDir('mon-logo-');
      const link = join(dir, 'logo.png');
      symlinkSync('/proc/self/pagemap', link);
      const requests = sandbox.requests.length;
      // Read whole, this grew mon by gigabytes; the hang bound is the test's timeout.
      const run = await runMon(['report', '--logo', link], { env: env(sandbox) });
      expect(run.code).toBe(2);
      expect(run.stderr).toMatch(/^mon: --logo(: cannot read it \(EINVAL\)| logo\.png: larger than 1 MiB) — /);
      expect(sandbox.requests.length).toBe(requests);
    },
  );

  it.each([
    [
      ['--output-dir', '/etc/passwd'],
      'mon: --output-dir: cannot write in /etc/passwd (not a folder) — give a folder you may write in\n',
    ],
    [
      ['--fields', 'computers'],
      'mon: --fields: `mon report` writes its own HTML, whose sections are fixed — drop --fields; for chosen figures use `mon status -o json --fields …`\n',
    ],
    [
      ['--period', '2026-13'],
      "mon: --period: '2026-13' is not a month as YYYY-MM, e.g. 2026-11 — `mon report --help` shows its options\n",
    ],
    [
      ['--period', '2026-11', '--since', '30d'],
      'mon: --period and --since cannot be used together — `mon report --help` shows its options\n',
    ],
  ])('%j: exit 2 before anything is read', async (args, line) => {
    const requests = sandbox.requests.length;
    const run = await runMain(['report', ...args], { env: env(sandbox) });
    expect(run).toEqual({ code: 2, stdout: '', stderr: line });
    expect(sandbox.requests.length).toBe(requests);
  });
});
