/**
 * plugins/performance/docs-plugin-lookup swaps the docs plugin's internal client module docsClientUtils.js for
 * its own (docsClientUtils.ts), by the relative request the docs client imports it with. Upstream
 * can break that in two ways the build does not always report:
 * - the module gains, loses or renames an export: the replacement must export the same names;
 * - the docs client imports it by another request: the replacement is then silently skipped.
 */
import {describe, test} from 'node:test';
import assert from 'node:assert/strict';
import {readFileSync} from 'node:fs';
import {createRequire} from 'node:module';
import path from 'node:path';
import ts from 'typescript';

const siteDir = path.resolve(__dirname, '../..');
const siteRequire = createRequire(path.join(siteDir, 'package.json'));
const originalFile = siteRequire.resolve('@docusaurus/plugin-content-docs/lib/client/docsClientUtils.js');
const docsClientFile = siteRequire.resolve('@docusaurus/plugin-content-docs/lib/client/index.js');
const replacementFile = path.join(siteDir, 'plugins/performance/docs-plugin-lookup/docsClientUtils.ts');

function parse(file: string): ts.SourceFile {
  return ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, false, file.endsWith('.ts') ? ts.ScriptKind.TS : ts.ScriptKind.JS);
}

const isExported = (node: ts.Node) => ts.canHaveModifiers(node) && (ts.getModifiers(node) ?? []).some((modifier) => modifier.kind === ts.SyntaxKind.ExportKeyword);

/** The names a module exports, read from its syntax: declarations marked `export` and `export {…}` lists. */
function exportNames(file: string): string[] {
  const names: string[] = [];
  for (const statement of parse(file).statements) {
    if (ts.isExportDeclaration(statement)) {
      if (!statement.exportClause || !ts.isNamedExports(statement.exportClause)) {
        throw new Error(`${file}: \`export *\` hides the names it exports; list them.`);
      }
      if (!statement.isTypeOnly) {
        names.push(...statement.exportClause.elements.filter((element) => !element.isTypeOnly).map((element) => element.name.text));
      }
    } else if (ts.isExportAssignment(statement)) {
      names.push('default');
    } else if (isExported(statement)) {
      if (ts.isVariableStatement(statement)) {
        for (const {name} of statement.declarationList.declarations) {
          if (!ts.isIdentifier(name)) throw new Error(`${file}: a destructured export; list its names here.`);
          names.push(name.text);
        }
      } else if ((ts.isFunctionDeclaration(statement) || ts.isClassDeclaration(statement)) && statement.name) {
        names.push(statement.name.text);
      }
    }
  }
  return names.sort();
}

/** Module requests a file imports from, with the names it imports from each. */
function importsOf(file: string): Map<string, string[]> {
  const imports = new Map<string, string[]>();
  for (const statement of parse(file).statements) {
    if (ts.isImportDeclaration(statement) && ts.isStringLiteral(statement.moduleSpecifier)) {
      const bindings = statement.importClause?.namedBindings;
      const names = bindings && ts.isNamedImports(bindings) ? bindings.elements.map((element) => (element.propertyName ?? element.name).text) : [];
      imports.set(statement.moduleSpecifier.text, names);
    }
  }
  return imports;
}

describe('docs client replacement (plugins/performance/docs-plugin-lookup)', () => {
  test('exports the same names as the docs plugin module it stands in for', () => {
    const original = exportNames(originalFile);
    assert.ok(original.length > 0, `no export found in ${originalFile}`);
    assert.deepEqual(
      exportNames(replacementFile),
      original,
      `${path.relative(siteDir, originalFile)} changed its exports. Re-export the new names from ${path.relative(siteDir, replacementFile)} ` +
        `(or re-implement the ones that changed), and check that getActivePlugin still has the original's signature and answers.`,
    );
  });

  test('the docs client still imports that module by the relative request the plugin replaces', () => {
    const requests = [...importsOf(docsClientFile).entries()].filter(([request]) => /^\.\/docsClientUtils(\.js)?$/.test(request));
    assert.equal(
      requests.length,
      1,
      `${path.relative(siteDir, docsClientFile)} no longer imports "./docsClientUtils": plugins/performance/docs-plugin-lookup/index.ts matches that request, ` +
        `so its replacement would be skipped without an error. Update the request it matches (and this test).`,
    );
    const replaced = new Set(exportNames(replacementFile));
    const missing = (requests[0]?.[1] ?? []).filter((name) => !replaced.has(name));
    assert.deepEqual(missing, [], 'the docs client imports names the replacement does not export');
  });
});
