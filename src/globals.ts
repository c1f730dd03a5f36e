import { UsageError } from './errors.js';
import { quoted } from './text/escape.js';
import type { AccountList, GlobalOptions } from './context.js';
import { OUTPUT_FORMATS, type OutputFormat } from './output/types.js';
import { parseChoice } from './validate/choice.js';

/** The root options as commander parsed them. */
export interface RawGlobals {
  profile?: string;
  profiles?: string;
  allProfiles?: boolean;
  parallel?: string;
  baseUrl?: string;
  sandbox?: boolean;
  output?: OutputFormat;
  json?: boolean;
  jq?: string;
  fields?: string;
  header?: boolean;
  expand?: string[];
  timeout?: string;
  retries?: string;
  dryRun?: boolean;
  yes?: boolean;
  quiet?: boolean;
  verbose?: boolean;
  color?: boolean;
  outputFile?: string;
}

/** Flag > environment > default, for every global option (docs/design/cli-contract.md, Global options). */
export function resolveGlobals(raw: RawGlobals, env: Record<string, string | undefined>): GlobalOptions {
  const fields = raw.fields
    ?.split(',')
    .map((field) => field.trim())
    .filter(Boolean);
  if (raw.fields !== undefined && fields?.length === 0)
    throw new UsageError('--fields: give at least one key, e.g. --fields uid,name');
  // An empty key would be sent as `expand[]=`, which asks for nothing the API knows.
  if (raw.expand?.some((key) => key.trim() === ''))
    throw new UsageError("--expand: give a key to expand (got '')", 'e.g. --expand group or --expand plugin_results');
  if (raw.output !== undefined)
    raw = {
      ...raw,
      output: parseChoice('-o/--output', raw.output, OUTPUT_FORMATS, 'e.g. -o json, or -o csv for a spreadsheet'),
    };
  // Empty, it would quietly stand for no URL at all, and MON_BASE_URL or the profile's be used.
  if (raw.baseUrl !== undefined && raw.baseUrl.trim() === '')
    throw new UsageError("--base-url: give a URL (got '')", 'e.g. --base-url https://acme.monitoring.example.com');
  const accounts = accountList(raw, env);
  return {
    // A list of accounts names each profile itself: MON_PROFILE does not apply.
    profile: accounts ? undefined : (raw.profile ?? (env.MON_PROFILE || undefined)),
    accounts,
    parallel: parallel(raw.parallel, accounts),
    baseUrl: raw.baseUrl ?? (env.MON_BASE_URL || undefined),
    sandbox: raw.sandbox === true,
    output: outputFormat(raw),
    jq: raw.jq,
    fields,
    header: raw.header !== false,
    expand: raw.expand ?? [],
    timeoutMs:
      seconds(
        raw.timeout !== undefined
          ? ['--timeout', raw.timeout]
          : env.MON_TIMEOUT
            ? ['MON_TIMEOUT', env.MON_TIMEOUT]
            : undefined,
      ) ?? 30_000,
    retries:
      count(
        raw.retries !== undefined
          ? ['--retries', raw.retries]
          : env.MON_RETRIES
            ? ['MON_RETRIES', env.MON_RETRIES]
            : undefined,
      ) ?? 5,
    dryRun: raw.dryRun === true,
    yes: raw.yes === true,
    quiet: raw.quiet === true,
    verbose: raw.verbose === true,
    color: raw.color !== false,
    outputFile: raw.outputFile,
  };
}

/** The most accounts --parallel lets run at once; 4 unless asked. */
const MAX_PARALLEL = 16;
const DEFAULT_PARALLEL = 4;

/**
 * --profiles a,b / --all-profiles / MON_PROFILES (flag > environment): the accounts a read spans.
 * `-p` names one account and --base-url or --sandbox one server, so neither flag goes with a
 * list flag; each of them does beat MON_PROFILES, as every flag beats the environment.
 */
function accountList(raw: RawGlobals, env: Record<string, string | undefined>): AccountList | undefined {
  if (raw.profiles !== undefined && raw.allProfiles === true)
    throw new UsageError(
      '--profiles and --all-profiles: give one of them',
      'drop --profiles to read every saved profile, or --all-profiles to read those named',
    );
  const flag = raw.allProfiles === true ? '--all-profiles' : raw.profiles !== undefined ? '--profiles' : undefined;
  if (flag && raw.profile !== undefined)
    throw new UsageError(
      `${flag}: names the accounts itself, so it does not go with -p/--profile`,
      `drop -p, or add its profile to the list: --profiles ${raw.profile},…`,
    );
  const oneAccount = raw.profile !== undefined || raw.baseUrl !== undefined || raw.sandbox === true;
  const text = raw.profiles ?? (flag || oneAccount ? undefined : env.MON_PROFILES || undefined);
  if (raw.allProfiles !== true && text === undefined) return undefined;
  const label = flag ?? 'MON_PROFILES';
  if (raw.baseUrl !== undefined)
    throw new UsageError(
      `${label}: each account uses its profile's base URL, so it does not go with --base-url`,
      'drop --base-url',
    );
  if (raw.sandbox === true)
    throw new UsageError(
      `${label}: reads saved profiles, so it does not go with --sandbox`,
      'drop --sandbox, or save the sandbox as a profile with `mon profile add`',
    );
  if (raw.allProfiles === true) return { all: true, source: label };
  const names = [
    ...new Set(
      text!
        .split(',')
        .map((name) => name.trim())
        .filter(Boolean),
    ),
  ];
  if (names.length === 0)
    throw new UsageError(
      `${label}: give at least one profile name (got ${quoted(text ?? '')})`,
      'e.g. --profiles acme,northwind, or --all-profiles',
    );
  return { all: false, names, source: label };
}

function parallel(text: string | undefined, accounts: AccountList | undefined): number {
  if (text === undefined) return DEFAULT_PARALLEL;
  if (!accounts)
    throw new UsageError(
      '--parallel: how many accounts are read at once, so it needs --profiles or --all-profiles',
      'add --profiles a,b or --all-profiles, or drop --parallel',
    );
  const value = Number(text);
  if (!/^\d+$/.test(text.trim()) || value < 1 || value > MAX_PARALLEL)
    throw new UsageError(
      `--parallel: must be a whole number from 1 to ${MAX_PARALLEL} (got ${quoted(text)})`,
      `e.g. --parallel ${DEFAULT_PARALLEL}`,
    );
  return value;
}

/**
 * -o, or --json; with --jq and neither, json (the filter needs JSON). `raw.output` is undefined
 * when -o was not given (main() drops commander's default): --jq with -o table, csv or tsv is
 * refused, since the filter would have no JSON to read.
 */
function outputFormat(raw: RawGlobals): OutputFormat {
  const output = raw.json ? 'json' : (raw.output ?? (raw.jq !== undefined ? 'json' : 'table'));
  if (raw.jq !== undefined && output !== 'json' && output !== 'ndjson') {
    throw new UsageError(
      `--jq: filters JSON, so it takes -o json (the default with --jq) or -o ndjson, not -o ${output}`,
      'drop -o, or use -o ndjson to filter item by item',
    );
  }
  return output;
}

function seconds(given: [string, string] | undefined): number | undefined {
  if (!given) return undefined;
  const [label, text] = given;
  const value = Number(text);
  if (!/^\d+(\.\d+)?$/.test(text.trim()) || value <= 0 || value > 3600) {
    throw new UsageError(`${label}: must be a number of seconds above 0 and at most 3600 (got ${quoted(text)})`);
  }
  return Math.round(value * 1000);
}

function count(given: [string, string] | undefined): number | undefined {
  if (!given) return undefined;
  const [label, text] = given;
  if (!/^\d+$/.test(text.trim()) || Number(text) > 10)
    throw new UsageError(`${label}: must be a whole number from 0 to 10 (got ${quoted(text)})`);
  return Number(text);
}
