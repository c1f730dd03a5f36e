import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

/**
 * Sizes a reader takes in at once: no file of src/ over MAX_FILE_LINES lines, and no function over
 * MAX_FUNCTION_LINES lines unless it is data (a table written as code, one line per entry), listed
 * in DATA_SHAPED with the reason. Functions are declarations, methods, constructors, accessors,
 * arrow functions and function expressions, found with the TypeScript parser (each file parsed
 * once, nothing type-checked); a function's lines run from its first token (its doc comment not
 * counted) to its last, the functions inside it included.
 */
const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const SRC = join(ROOT, 'src');
const MAX_FILE_LINES = 400;
const MAX_FUNCTION_LINES = 80;

/** 'src/path:function name' of each long function that is data, with why its length is the data's. */
const DATA_SHAPED = new Map<string, string>([
  // The computer object of api-v2.5, one line per documented field: as long as the API's list.
  ['src/sandbox/render.ts:renderComputer', 'one line per field of the documented computer object'],
]);

type FunctionNode =
  | ts.FunctionDeclaration
  | ts.MethodDeclaration
  | ts.ConstructorDeclaration
  | ts.GetAccessorDeclaration
  | ts.SetAccessorDeclaration
  | ts.ArrowFunction
  | ts.FunctionExpression;

function isFunction(node: ts.Node): node is FunctionNode {
  return (
    ts.isFunctionDeclaration(node) ||
    ts.isMethodDeclaration(node) ||
    ts.isConstructorDeclaration(node) ||
    ts.isGetAccessorDeclaration(node) ||
    ts.isSetAccessorDeclaration(node) ||
    ts.isArrowFunction(node) ||
    ts.isFunctionExpression(node)
  );
}

/** A function's name: its own, else that of the variable, property or member it is assigned to. */
function nameOf(node: FunctionNode, file: ts.SourceFile): string {
  if (ts.isConstructorDeclaration(node)) return 'constructor';
  if (node.name) return node.name.getText(file);
  const { parent } = node;
  if (ts.isVariableDeclaration(parent) || ts.isPropertyAssignment(parent) || ts.isPropertyDeclaration(parent))
    return parent.name.getText(file);
  return '(anonymous)';
}

interface Measured {
  /** 'src/path:name', as DATA_SHAPED lists it. */
  key: string;
  /** 'src/path:line' of its first line. */
  at: string;
  lines: number;
}

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    return entry.isDirectory() ? sources(path) : entry.name.endsWith('.ts') ? [path] : [];
  });
}

/** Each file's length in lines, and each of its functions'. */
function measure(path: string): { name: string; lines: number; functions: Measured[] } {
  const name = relative(ROOT, path);
  const text = readFileSync(path, 'utf8');
  const file = ts.createSourceFile(name, text, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
  const lineOf = (pos: number) => file.getLineAndCharacterOfPosition(pos).line + 1;
  const functions: Measured[] = [];
  const visit = (node: ts.Node): void => {
    if (isFunction(node) && node.body) {
      const first = lineOf(node.getStart(file));
      functions.push({
        key: `${name}:${nameOf(node, file)}`,
        at: `${name}:${first}`,
        lines: lineOf(node.getEnd()) - first + 1,
      });
    }
    ts.forEachChild(node, visit);
  };
  visit(file);
  return { name, lines: file.getLineStarts().length - (text.endsWith('\n') ? 1 : 0), functions };
}

const files = sources(SRC).map(measure);
const functions = files.flatMap((file) => file.functions);

describe('sizes', () => {
  it('reads the source tree', () => {
    expect(files.length).toBeGreaterThan(100);
    expect(functions.some((fn) => fn.key === 'src/main.ts:main')).toBe(true);
  });

  it(`no file of src/ is over ${MAX_FILE_LINES} lines`, () => {
    const long = files
      .filter((file) => file.lines > MAX_FILE_LINES)
      .map((file) => `${file.name}:1 is ${file.lines} lines long`);
    expect(long, `files over ${MAX_FILE_LINES} lines:\n${long.join('\n')}\n`).toEqual([]);
  });

  it(`no function is over ${MAX_FUNCTION_LINES} lines unless it is data`, () => {
    const long = functions
      .filter((fn) => fn.lines > MAX_FUNCTION_LINES && !DATA_SHAPED.has(fn.key))
      .map((fn) => `${fn.at} ${fn.key.slice(fn.key.lastIndexOf(':') + 1)} is ${fn.lines} lines long`);
    expect(
      long,
      `functions over ${MAX_FUNCTION_LINES} lines (shorten them, or list one that is data in DATA_SHAPED):\n${long.join('\n')}\n`,
    ).toEqual([]);
  });

  it('lists in DATA_SHAPED only functions that exist', () => {
    const keys = new Set(functions.map((fn) => fn.key));
    expect([...DATA_SHAPED.keys()].filter((key) => !keys.has(key))).toEqual([]);
  });
});
