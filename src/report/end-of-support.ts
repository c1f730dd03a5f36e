/**
 * When vendors stop supporting each operating system the report names, so it can flag systems
 * "past end of support" or whose support "ends within 6 months". One row per system: a pattern
 * over the API's `os_version`, the last day of support, where the date comes from, and when the
 * entry was last compared with that source. Apple publishes no end dates: a macOS release is
 * taken to be supported until the third release after it ships (Apple updates the latest
 * three), which is an estimate and says so. Keep it current: a wrong date misleads a customer.
 */
export interface EndOfSupport {
  /** Matched against os_version. */
  match: RegExp;
  system: string;
  /** The last day of support, YYYY-MM-DD. */
  ends: string;
  source: string;
  /** When this row was last compared with its source, YYYY-MM-DD. */
  checked: string;
  /** Said beside the date where the date is not the vendor's own. */
  note?: string;
}

const MS_LIFECYCLE = 'Microsoft Lifecycle (learn.microsoft.com/lifecycle)';
const APPLE = 'estimated: Apple publishes no end dates and updates the latest three macOS releases';

export const END_OF_SUPPORT: readonly EndOfSupport[] = [
  { match: /Windows 10\b/i, system: 'Windows 10', ends: '2025-10-14', source: MS_LIFECYCLE, checked: '2026-11-28' },
  {
    match: /Windows 11 (Home|Pro)\b.*\b23H2\b/i,
    system: 'Windows 11 Home/Pro 23H2',
    ends: '2025-11-11',
    source: MS_LIFECYCLE,
    checked: '2026-11-28',
    note: 'a free feature update to a newer version restores support',
  },
  {
    match: /Windows 11 (Home|Pro)\b.*\b24H2\b/i,
    system: 'Windows 11 Home/Pro 24H2',
    ends: '2026-10-13',
    source: MS_LIFECYCLE,
    checked: '2026-11-28',
    note: 'a free feature update to a newer version restores support',
  },
  {
    match: /Windows Server 2016\b/i,
    system: 'Windows Server 2016',
    ends: '2027-01-12',
    source: MS_LIFECYCLE,
    checked: '2026-11-28',
  },
  {
    match: /Windows Server 2019\b/i,
    system: 'Windows Server 2019',
    ends: '2029-01-09',
    source: MS_LIFECYCLE,
    checked: '2026-11-28',
  },
  {
    match: /Windows Server 2022\b/i,
    system: 'Windows Server 2022',
    ends: '2031-10-14',
    source: MS_LIFECYCLE,
    checked: '2026-11-28',
  },
  {
    match: /macOS (Big Sur|11)\b/i,
    system: 'macOS 11 Big Sur',
    ends: '2023-09-26',
    source: APPLE,
    checked: '2026-11-28',
    note: 'estimated',
  },
  {
    match: /macOS (Monterey|12)\b/i,
    system: 'macOS 12 Monterey',
    ends: '2024-09-16',
    source: APPLE,
    checked: '2026-11-28',
    note: 'estimated',
  },
  {
    match: /macOS (Ventura|13)\b/i,
    system: 'macOS 13 Ventura',
    ends: '2025-09-15',
    source: APPLE,
    checked: '2026-11-28',
    note: 'estimated',
  },
  {
    match: /macOS (Sonoma|14)\b/i,
    system: 'macOS 14 Sonoma',
    ends: '2026-09-15',
    source: APPLE,
    checked: '2026-11-28',
    note: 'estimated',
  },
  {
    match: /macOS (Sequoia|15)\b/i,
    system: 'macOS 15 Sequoia',
    ends: '2027-09-15',
    source: APPLE,
    checked: '2026-11-28',
    note: 'estimated',
  },
  {
    match: /Ubuntu 20\.04/i,
    system: 'Ubuntu 20.04 LTS',
    ends: '2025-05-31',
    source: 'Canonical (ubuntu.com/about/release-cycle), standard support',
    checked: '2026-11-28',
  },
  {
    match: /Ubuntu 22\.04/i,
    system: 'Ubuntu 22.04 LTS',
    ends: '2027-06-01',
    source: 'Canonical (ubuntu.com/about/release-cycle), standard support',
    checked: '2026-11-28',
  },
  {
    match: /Ubuntu 24\.04/i,
    system: 'Ubuntu 24.04 LTS',
    ends: '2029-05-31',
    source: 'Canonical (ubuntu.com/about/release-cycle), standard support',
    checked: '2026-11-28',
  },
  {
    match: /Debian GNU\/Linux 11\b/i,
    system: 'Debian 11',
    ends: '2026-08-31',
    source: 'Debian LTS (wiki.debian.org/LTS)',
    checked: '2026-11-28',
  },
  {
    match: /Debian GNU\/Linux 12\b/i,
    system: 'Debian 12',
    ends: '2028-06-30',
    source: 'Debian LTS (wiki.debian.org/LTS)',
    checked: '2026-11-28',
  },
  {
    match: /Rocky Linux 8\b/i,
    system: 'Rocky Linux 8',
    ends: '2029-05-31',
    source: 'Rocky Enterprise Software Foundation (rockylinux.org)',
    checked: '2026-11-28',
  },
  {
    match: /Rocky Linux 9\b/i,
    system: 'Rocky Linux 9',
    ends: '2032-05-31',
    source: 'Rocky Enterprise Software Foundation (rockylinux.org)',
    checked: '2026-11-28',
  },
];

/** How far ahead an end of support is flagged. */
export const ENDS_SOON_MONTHS = 6;

/** The row of an OS, or undefined when the table does not know it. */
export function endOfSupportOf(os: string): EndOfSupport | undefined {
  return END_OF_SUPPORT.find((row) => row.match.test(os));
}

/** 'past' when support ended before `nowMs`, 'soon' when it ends within six months, else undefined. */
export function supportState(row: EndOfSupport, nowMs: number): 'past' | 'soon' | undefined {
  const ends = Date.parse(`${row.ends}T23:59:59Z`);
  if (ends < nowMs) return 'past';
  const soon = new Date(nowMs);
  soon.setUTCMonth(soon.getUTCMonth() + ENDS_SOON_MONTHS);
  return ends <= soon.getTime() ? 'soon' : undefined;
}
