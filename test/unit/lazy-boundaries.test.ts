import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

/**
 * Lazy loading stays at a few build-level boundaries: every `import(` (or `require(`) in src/ loads one of the
 * modules below, each with the start-up cost that earns it. Anything else is a static import, so
 * the call graph reads from the top of each file. A module that is itself loaded lazily may
 * import statically: its imports are evaluated only when it is (esbuild keeps them in its init).
 *
 * Figures: instructions (callgrind, Node 22, V8's hash and random seeds fixed so that runs
 * repeat) of `mon computers list --json` against the 10,000-computer sandbox, with the bundle's
 * code cache warm, in a build where the module is imported statically by src/main.ts, less the
 * same run of the build as it is (one run each: a figure under about 3 M is within what two code
 * caches of one bundle differ by); `--help` is `mon computers --help`, for what a one-request
 * command loads anyway. A plain request costs about 290 M on that measure.
 */
interface Boundary {
  /** What import() loads: a path from src/ ('output/jq.ts'), a package or a built-in module. */
  target: string;
  /** Only from these files or folders of src/ (a folder ends with '/'); anywhere when absent. */
  from?: readonly string[];
  /** What a plain command would pay at start-up if the import were static. */
  figure: string;
}

/** The report (src/report/index.ts: its collection, HTML and trends) imported statically. */
const REPORT = '+0.6 M';
/** The server layer (src/server/, node:http) imported statically. */
const SERVER = '+128 M, measured as src/server/index.ts imported statically';

const BOUNDARIES: readonly Boundary[] = [
  // The sandbox, dist/sandbox.cjs: a file of its own that a request never reads.
  { target: 'sandbox/index.ts', figure: '+146 M: dist/sandbox.cjs read and compiled at every start' },
  // jq (jq-wasm, required from node_modules).
  { target: 'output/jq.ts', figure: '+7.4 M (`--help`: +9.1 M)' },
  // The report: the collection, the HTML page and its charts.
  { target: 'report/index.ts', from: ['commands/report.ts'], figure: REPORT },
  // The completion generators.
  { target: 'completion/scripts.ts', figure: '+11.5 M for the two' },
  { target: 'completion/live.ts', figure: '+11.5 M for the two' },
  // conf and its JSON-schema validator (dist/conf.cjs), only for a command that saves a profile.
  { target: 'config/store.ts', figure: '+148 M: dist/conf.cjs, with ajv' },
  // The API client with undici: `--help`, `--version`, --dry-run and completion send nothing.
  { target: 'api/client.ts', figure: '`--help`: +32 M (undici); a request loads it anyway' },
  // The input checks with zod.
  { target: 'validate/input.ts', figure: '`--help`: +2.0 M (zod); a request checks its answer with zod anyway' },
  // The renderers: render.ts for every answer, and in table.ts cli-table3, chalk and the width
  // measure (string-width) for a table only.
  { target: 'output/render.ts', figure: '`--help`: +0.1 M; every answer loads it, but it loads the table kit below' },
  { target: 'cli-table3', from: ['output/table.ts'], figure: '+5.8 M' },
  { target: 'chalk', from: ['output/table.ts'], figure: '+6.1 M' },
  // string-width, required (synchronously: a table is drawn in one go) for the first text that
  // is not all one-column characters.
  {
    target: 'string-width',
    from: ['output/width.ts'],
    figure: '+290 M of a one-page table (804 → 514 M): its load sets up Intl.Segmenter',
  },
  // The prompt's readline: the commands import src/io/prompt.ts at the top.
  {
    target: 'node:readline/promises',
    from: ['io/prompt.ts'],
    figure: '+6.5 M (`--help`: +8.4 M), measured as src/io/prompt.ts imported statically',
  },
  // The servers (`metrics serve`, `events listen`) with node:http, and node:net where the input
  // reader opens a socket on a named pipe.
  { target: 'metrics/serve.ts', from: ['commands/metrics.ts'], figure: SERVER },
  { target: 'events/run.ts', from: ['commands/events.ts'], figure: SERVER },
  { target: 'node:net', from: ['io/user-input.ts'], figure: '`--help`: +0.4 M; a request loads it anyway (undici)' },
  // --output-file's file, whose temporary is named with node:crypto.
  { target: 'output/output-file.ts', from: ['pipeline.ts'], figure: '+43 M (node:crypto)' },
  // `mon api --include`'s reason phrases, node:http's STATUS_CODES.
  { target: 'node:http', from: ['commands/api.ts'], figure: '+20 M' },
  // A compressed answer's decoder, node:zlib, only for a body that has a Content-Encoding.
  { target: 'node:zlib', from: ['api/response-cap.ts'], figure: '+3.2 M, 1% of a request that is not compressed' },
];

const SRC = fileURLToPath(new URL('../../src/', import.meta.url));

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    return entry.isDirectory() ? sources(path) : entry.name.endsWith('.ts') ? [path] : [];
  });
}

interface Site {
  /** The importing file, from src/. */
  file: string;
  line: number;
  /** What it loads: a path from src/, a package or a built-in, or the expression when it is not a string. */
  target: string;
}

/** Every import() call of src/ (a type's `import('…').T` is no call and is left out). */
function lazySites(): Site[] {
  return sources(SRC).flatMap((path) => {
    const file = relative(SRC, path);
    const source = ts.createSourceFile(path, readFileSync(path, 'utf8'), ts.ScriptTarget.Latest, true);
    const sites: Site[] = [];
    const visit = (node: ts.Node): void => {
      // import('…'), and require('…'), which loads as late and as hidden.
      if (
        ts.isCallExpression(node) &&
        (node.expression.kind === ts.SyntaxKind.ImportKeyword ||
          (ts.isIdentifier(node.expression) && node.expression.text === 'require'))
      ) {
        const [argument] = node.arguments;
        const specifier = argument && ts.isStringLiteralLike(argument) ? argument.text : undefined;
        const target =
          specifier === undefined
            ? (argument?.getText(source) ?? '')
            : specifier.startsWith('.')
              ? relative(SRC, resolve(dirname(path), specifier.replace(/\.js$/, '.ts')))
              : specifier;
        sites.push({ file, line: source.getLineAndCharacterOfPosition(node.getStart(source)).line + 1, target });
      }
      ts.forEachChild(node, visit);
    };
    visit(source);
    return sites;
  });
}

const allowed = (site: Site, boundary: Boundary): boolean =>
  boundary.target === site.target &&
  (boundary.from === undefined ||
    boundary.from.some((from) => (from.endsWith('/') ? site.file.startsWith(from) : site.file === from)));

describe('lazy loading stays at the build boundaries', () => {
  const sites = lazySites();

  it('finds the import() calls of src/', () => {
    expect(sites.some((site) => site.file === 'runtime.ts' && site.target === 'api/client.ts')).toBe(true);
  });

  it('every import() loads a boundary', () => {
    const outside = sites
      .filter((site) => !BOUNDARIES.some((boundary) => allowed(site, boundary)))
      .map((site) => `${site.file}:${site.line} import('${site.target}')`);
    expect(outside).toEqual([]);
  });

  it('every boundary is still loaded lazily somewhere, and names a file that exists', () => {
    const unused = BOUNDARIES.filter((boundary) => !sites.some((site) => allowed(site, boundary))).map(
      (boundary) => boundary.target,
    );
    expect(unused).toEqual([]);
    const files = new Set(sources(SRC).map((path) => relative(SRC, path)));
    const missing = BOUNDARIES.filter((b) => b.target.endsWith('.ts') && !files.has(b.target)).map((b) => b.target);
    expect(missing).toEqual([]);
  });
});
