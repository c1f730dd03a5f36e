import type { ApiClient, PreparedRequest } from '../api/client.js';
import { MAX_PER_PAGE } from '../api/paginate.js';
import type { HttpMethod } from '../api/endpoints.js';
import type { Context } from '../context.js';
import { redact } from '../api/redact.js';
import { UsageError } from '../errors.js';
import { drained } from '../output/drain.js';
import { parseChoice } from '../validate/choice.js';
import { MAX_INT32 } from '../validate/when.js';
import { confirmDeletion } from '../io/confirm.js';
import { verb } from '../spec/spec.js';
import { quoted } from '../text/escape.js';

const METHODS: readonly HttpMethod[] = ['GET', 'POST', 'PUT', 'DELETE', 'PATCH'];
/** --paginate asks for the largest page the API serves (api-v2.5, Limits: per_page at most 100). */
const PAGINATE_PER_PAGE = MAX_PER_PAGE;

/** `-F key=value` -> [key, value], split at the first '='; keys are sent exactly as typed. */
export function parseField(text: string): [string, string] {
  const at = text.indexOf('=');
  if (at <= 0)
    throw new UsageError(
      `-F/--field: ${quoted(text)} is not key=value`,
      'e.g. -F status=missing or -F note[body]=hello',
    );
  const key = text.slice(0, at);
  // Keys do not belong in shell history or `ps` (docs/design/cli-contract.md): the client adds api_key itself.
  if (key === 'api_key')
    throw new UsageError('-F/--field: api_key is added from the profile or MON_API_KEY; do not pass it');
  return [key, text.slice(at + 1)];
}

function checkMethod(word: string): HttpMethod {
  return parseChoice('<method>', word, METHODS);
}

function checkPath(path: string): string {
  if (/^[a-z][a-z\d+.-]*:/i.test(path)) {
    throw new UsageError(
      `<path>: give a path such as /v2.5/computers, not a URL (${quoted(path)})`,
      'the base URL comes from the profile, --base-url or MON_BASE_URL',
    );
  }
  const version = /^\/*(v\d+(?:\.\d+)*)(?:[/?#]|$)/.exec(path)?.[1];
  if (version !== undefined && version !== 'v2.5')
    throw new UsageError(`<path>: mon speaks API v2.5 only, not ${version}`);
  // As -F api_key: a key typed into a command line is in shell history and `ps`, and the request
  // would carry two.
  const query = path.includes('?') ? new URLSearchParams(path.slice(path.indexOf('?') + 1).split('#')[0]) : undefined;
  if (query?.has('api_key'))
    throw new UsageError('<path>: api_key is added from the profile or MON_API_KEY; do not put it in the query string');
  return path;
}

/** Prints a decoded body as received (Output.raw): pretty JSON, or one compact line per item with -o ndjson; --fields keeps those keys. */
function printBody(ctx: Context, data: unknown): Promise<void> {
  const { output, fields, jq } = ctx.globals;
  return ctx.output.raw(data, {
    format: output === 'ndjson' ? 'ndjson' : 'json',
    fields,
    compact: jq !== undefined,
    out: ctx.io.stdout,
    now: ctx.now,
  });
}

/**
 * `-i`: the status line and the headers as received, then a blank line, as curl -i and
 * gh api -i print them (undici speaks HTTP/1.1 to the API).
 */
async function printHead(ctx: Context, status: number, headers: Record<string, string>): Promise<void> {
  // node:http for its table of reasons alone: a plain request never loads it (test/perf/startup.test.ts).
  const { STATUS_CODES } = await import('node:http');
  const lines = [
    `HTTP/1.1 ${status}${STATUS_CODES[status] ? ` ${STATUS_CODES[status]}` : ''}`,
    ...Object.entries(headers).map(([name, value]) => `${name}: ${value}`),
  ];
  // A Link or Location header built from the request URL could carry the key, and a server may
  // echo it in a header of its own.
  const { endpoint } = await ctx.target();
  ctx.io.stdout.write(`${redact(lines.join('\n'), endpoint === 'sandbox' ? undefined : endpoint.apiKey)}\n\n`);
}

/**
 * `--paginate`: every page of the list through the one paginator (src/api/paginate.ts, whose
 * rule says where a list ends), printed as one JSON array (or ndjson lines as pages arrive).
 */
async function paginate(ctx: Context, client: ApiClient, prepared: PreparedRequest): Promise<void> {
  const { searchParams } = prepared.url;
  const page = Number(searchParams.get('page') ?? '1');
  if (!Number.isInteger(page) || page < 1 || page > MAX_INT32)
    throw new UsageError(`-F page=${searchParams.get('page') ?? ''}: must be a whole number from 1 to ${MAX_INT32}`);
  const perPage = Number(searchParams.get('per_page') ?? PAGINATE_PER_PAGE);
  const ndjson = ctx.globals.output === 'ndjson';
  const items: unknown[] = [];
  let first = true;
  for await (const { data, number } of client.pagesOf(prepared, {
    all: true,
    page,
    perPage: Number.isInteger(perPage) && perPage > 0 ? perPage : undefined,
  })) {
    if (!Array.isArray(data)) {
      // Not a list: nothing to follow. Print it as it came.
      if (!first) throw new UsageError(`--paginate: page ${number} of ${prepared.url.pathname} is not a JSON array`);
      ctx.notice('--paginate: the answer is not a list; printed as received');
      await printBody(ctx, data);
      return;
    }
    first = false;
    if (ndjson) {
      await printBody(ctx, data);
      await drained(ctx.io.stdout, ctx.signal);
    } else items.push(...(data as unknown[]));
  }
  if (!ndjson) await printBody(ctx, items);
}

/** `mon api METHOD PATH`: any request, for what the command table lacks (docs/design/cli-contract.md). */
export const api = verb({
  name: 'api',
  summary: 'Send any request to the API, print the JSON answer',
  // Paragraphs, each one line: help wraps them to its width (a line broken here would be broken again there).
  description: [
    'The method may be left out for a GET (mon api /groups is mon api GET /groups). The path may leave out /v2.5 (/computers is /v2.5/computers) and may carry a query string.',
    'Fields go to the query string for GET and to the form body otherwise; keys are sent as typed (note[body]=hi, platform[]=mac), api_key is added from the profile.',
    'The answer is printed as pretty JSON whatever -o says, except -o ndjson (one line per item); a 204 prints nothing. With -i the status line and the response headers (x-total, x-next-page, ...) come first.',
    'A DELETE asks for confirmation on a terminal and needs --yes in scripts, like every delete.',
  ].join('\n\n'),
  args: [
    {
      name: 'method',
      description: 'GET, POST, PUT, DELETE or PATCH (any case); GET when left out',
      omittable: { value: 'GET', accepts: /^(get|post|put|delete|patch)$/i },
    },
    {
      name: 'path',
      description: 'e.g. /v2.5/computers or /computers',
      rule: { type: 'text', max: 2048, nonEmpty: true },
    },
  ],
  options: [
    {
      flags: '-F, --field <key=value>',
      description: 'a parameter (repeatable): query string for GET, form body otherwise',
      repeatable: true,
    },
    {
      flags: '--paginate',
      description: 'GET only: follow the pagination headers to the last page (per_page 100) and print one JSON array',
    },
    { flags: '-i, --include', description: 'print the status line and the response headers before the body' },
  ],
  // Across accounts (--profiles) with GET only: the other methods change things.
  reads: (input) => input.args.method?.toUpperCase() === 'GET',
  examples: [
    'mon api /groups',
    'mon api GET /computers -F status=missing -F platform[]=mac',
    'mon api get /v2.5/users --paginate',
    'mon api -i GET /computers -F per_page=10',
    'mon api POST /notes -F note[group_id]=g_3f9a2c -F "note[body]=Office move on Friday"',
    'mon api DELETE /v2.5/notes/n_7c1e --yes',
  ],
  async run({ args, opts }, ctx) {
    const method = checkMethod(args.method!);
    const path = checkPath(args.path!);
    const fields = (opts.field ?? []).map(parseField);
    if (opts.paginate === true && method !== 'GET')
      throw new UsageError(`--paginate: only a GET can be paginated, not ${method}`);
    if (opts.paginate === true && opts.include === true) {
      throw new UsageError(
        '--include: shows the headers of one answer, not of every page with --paginate',
        'drop --paginate and pick the page with -F page=N',
      );
    }
    // The head is text before the JSON: a filter could not read the two together.
    if (opts.include === true && ctx.globals.jq !== undefined)
      throw new UsageError(
        '--include: prints headers, which are not JSON, so it does not go with --jq',
        'drop one of them',
      );
    if (opts.include === true && !ctx.output.ownStdout)
      throw new UsageError(
        '--include: prints the headers of one answer, not of one per account',
        'drop --include, or run it with -p NAME',
      );
    const client = await ctx.client();
    // No route: the response is printed as received, with no schema to check it against.
    const prepared = client.prepareRaw(method, path);
    for (const [key, value] of fields) {
      if (method === 'GET') prepared.url.searchParams.append(key, value);
      else prepared.form.push([key, value]);
    }
    if (await ctx.dryRun.shows(prepared)) return;
    if (method === 'DELETE') await confirmDeletion(ctx, async () => `the item at ${prepared.url.pathname}`);
    if (opts.paginate === true) {
      await paginate(ctx, client, prepared);
      return;
    }
    const { status, headers, data } = await client.send(prepared);
    if (opts.include === true) await printHead(ctx, status, headers);
    if (data !== undefined) await printBody(ctx, data);
  },
});
