/**
 * The engine stays legible (issue 30): no file in src/sandbox/engine over 400 lines, no function over 80,
 * measured with the TypeScript compiler's own parser, so a function is every function-like node (declarations,
 * methods, arrows, accessors) and its length runs from its first line to its last.
 */
import {test} from 'node:test';
import assert from 'node:assert/strict';
import {readdirSync, readFileSync} from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import {repoRoot} from '../support/routeContract';

const engineDir = path.join(repoRoot, 'src', 'sandbox', 'engine');
const maxFileLines = 400;
const maxFunctionLines = 80;

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, {withFileTypes: true}).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(full);
    return /\.tsx?$/.test(entry.name) && !entry.name.endsWith('.d.ts') ? [full] : [];
  });
}

/** Every function-like node longer than `limit` lines, as "file:line name (n lines)". */
export function longFunctions(file: string, text: string, limit: number): string[] {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  const found: string[] = [];
  const visit = (node: ts.Node): void => {
    if (ts.isFunctionLike(node) && 'body' in node && node.body) {
      const first = source.getLineAndCharacterOfPosition(node.getStart(source)).line;
      const last = source.getLineAndCharacterOfPosition(node.getEnd()).line;
      const lines = last - first + 1;
      const name =
        node.name && ts.isIdentifier(node.name)
          ? node.name.text
          : ts.isPropertyAssignment(node.parent) && ts.isIdentifier(node.parent.name)
            ? node.parent.name.text
            : '(anonymous)';
      if (lines > limit) found.push(`${path.relative(repoRoot, file)}:${first + 1} ${name} (${lines} lines)`);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

const files = sourceFiles(engineDir);

test('the measure finds what it should: a long function, and no false alarm on a short one', () => {
  const long = `function big() {\n${'  call();\n'.repeat(85)}}\nconst small = () => 1;\n`;
  assert.deepEqual(longFunctions(path.join(repoRoot, 'x.ts'), long, maxFunctionLines), ['x.ts:1 big (87 lines)']);
  assert.ok(files.length >= 20, `only ${files.length} engine files found`);
});

test(`no engine file is over ${maxFileLines} lines`, () => {
  const over = files
    .map((file) => ({file: path.relative(repoRoot, file), lines: readFileSync(file, 'utf8').split('\n').length}))
    .filter((entry) => entry.lines > maxFileLines);
  assert.deepEqual(over, []);
});

test(`no engine function is over ${maxFunctionLines} lines`, () => {
  assert.deepEqual(
    files.flatMap((file) => longFunctions(file, readFileSync(file, 'utf8'), maxFunctionLines)),
    [],
  );
});
