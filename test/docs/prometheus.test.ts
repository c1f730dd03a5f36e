import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { METRIC_FAMILIES } from '../../src/output/metric-families.js';
import { hasProgram } from '../helpers/programs.js';

/**
 * What mon ships for Prometheus and Grafana (docs/prometheus/rules.yml, docs/grafana/mon.json)
 * asks only for what mon exports: every expression names a family of METRIC_FAMILIES and only
 * labels those families have. A renamed family or label fails here, not on a user's dashboard.
 */
const root = fileURLToPath(new URL('../../', import.meta.url));
const RULES = `${root}docs/prometheus/rules.yml`;
const PROMTOOL = hasProgram('promtool', ['promtool', '--version']);

const rules = [...readFileSync(RULES, 'utf8').matchAll(/^\s+expr: (.+)$/gm)].map((match) => match[1]!);
const dashboard = JSON.parse(readFileSync(`${root}docs/grafana/mon.json`, 'utf8')) as {
  panels: { title: string; targets: { expr: string }[] }[];
  templating: { list: { query?: { query: string } | string }[] };
};
const panelExprs = dashboard.panels.flatMap((panel) => panel.targets.map((target) => target.expr));
const variableExprs = dashboard.templating.list.flatMap((variable) =>
  typeof variable.query === 'object' ? [variable.query.query] : [],
);

const FAMILIES = new Set<string>(METRIC_FAMILIES.map((family) => family.name));
const LABELS = new Set<string>(METRIC_FAMILIES.flatMap((family) => [...family.labels]));

/** The mon_ names an expression reads, and the labels it matches or groups by. */
function reads(expr: string): { families: string[]; labels: string[] } {
  const families = [...expr.matchAll(/\bmon_[a-z_]+/g)].map((match) => match[0]);
  const matchers = [...expr.matchAll(/\{([^}]*)\}/g)].flatMap((match) =>
    [...match[1]!.matchAll(/([a-z_]+)\s*(=~|!=|!~|=)/g)].map((one) => one[1]!),
  );
  const grouped = [...expr.matchAll(/\b(?:by|without)\s*\(([^)]*)\)/g)].flatMap((match) =>
    match[1]!
      .split(',')
      .map((label) => label.trim())
      .filter(Boolean),
  );
  const functions = [...expr.matchAll(/label_values\(\s*mon_[a-z_]+\s*,\s*([a-z_]+)\s*\)/g)].map((match) => match[1]!);
  return { families, labels: [...matchers, ...grouped, ...functions] };
}

describe('the Prometheus rules and the Grafana dashboard', () => {
  it('have the expressions they promise', () => {
    expect(rules.length).toBeGreaterThanOrEqual(5);
    expect(panelExprs.length).toBeGreaterThanOrEqual(8);
  });

  it.each([...rules, ...panelExprs, ...variableExprs].map((expr) => [expr]))(
    '%s reads only families and labels mon exports',
    (expr) => {
      const { families, labels } = reads(expr);
      expect(families.length).toBeGreaterThan(0);
      for (const family of families) expect(FAMILIES, family).toContain(family);
      for (const label of labels) expect(LABELS, label).toContain(label);
    },
  );

  it('cover an account down, a computer missing for a day, alerts for an hour, expirations within 30 days, stale figures', () => {
    const text = readFileSync(RULES, 'utf8');
    expect(text).toMatch(/expr: mon_up == 0/);
    expect(text).toMatch(/expr: mon_computers_missing > 0\n\s+for: 24h/);
    expect(text).toMatch(/status="Alert", muted="false"\}\) > 0\n\s+for: 1h/);
    expect(text).toMatch(/expr: mon_expirations\{window="30d"\} > 0/);
    expect(text).toMatch(/expr: time\(\) - mon_last_success_timestamp_seconds > /);
  });

  it.runIf(PROMTOOL)('promtool check rules passes', () => {
    const check = spawnSync('promtool', ['check', 'rules', RULES], { encoding: 'utf8' });
    expect(check.status, `${check.stdout}${check.stderr}`).toBe(0);
    expect(check.stdout).toMatch(/SUCCESS: \d+ rules found/);
  });
});
