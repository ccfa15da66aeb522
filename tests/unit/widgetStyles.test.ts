import {describe, test} from 'node:test';
import assert from 'node:assert/strict';
import {existsSync, readdirSync, readFileSync, statSync} from 'node:fs';
import path from 'node:path';
import {lazyWidgetStyleFolders, lazyWidgetStyleTest} from '../../plugins/performance/widget-styles';

const root = path.resolve(import.meta.dirname, '../..');
const sourceFolders = ['src', 'docs', 'blog', 'demos'];
const sourceFile = /\.(tsx?|mdx?)$/;

function resolveImport(from: string, specifier: string): string | undefined {
  let base: string;
  if (specifier.startsWith('@site/')) base = path.join(root, specifier.slice('@site/'.length));
  else if (specifier.startsWith('.')) base = path.resolve(path.dirname(from), specifier);
  else return undefined;
  for (const candidate of [base, `${base}.tsx`, `${base}.ts`, path.join(base, 'index.tsx'), path.join(base, 'index.ts')]) {
    if (existsSync(candidate) && statSync(candidate).isFile()) return candidate;
  }
  return undefined;
}

/** The files a file imports statically: `import x from`, `import {x} from`, `import './a.css'`, `export ... from`; not `import type` or `import()`. */
function staticImports(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  const specifiers = [...text.matchAll(/^\s*(?:import(?!\s+type\b)(?:[\s\S]*?\sfrom)?|export\s[^;]*?\sfrom)\s*['"]([^'"]+)['"]/gm)].flatMap(
    (match) => (match[1] ? [match[1]] : []),
  );
  return specifiers.map((specifier) => resolveImport(file, specifier)).filter((resolved): resolved is string => resolved !== undefined);
}

/** Every file the server-rendered pages reach without a dynamic import(): what lands in route chunks and main. */
function serverRenderedFiles(): Set<string> {
  const roots = sourceFolders.flatMap((folder) =>
    readdirSync(path.join(root, folder), {recursive: true, encoding: 'utf8'})
      .map((file) => path.join(root, folder, file))
      // A widget's own files are reached only through imports; everything else can be a page, a theme part or what they import.
      .filter(
        (file) =>
          sourceFile.test(file) &&
          !lazyWidgetStyleFolders.some((folder) => file.includes(`${path.sep}components${path.sep}${folder}${path.sep}`)),
      )
      .filter((file) => !file.includes(`${path.sep}components${path.sep}demo${path.sep}live${path.sep}`) || file.endsWith('index.tsx')),
  );
  const reached = new Set<string>();
  const queue = [...roots];
  for (let file = queue.pop(); file !== undefined; file = queue.pop()) {
    if (reached.has(file)) continue;
    reached.add(file);
    if (sourceFile.test(file)) queue.push(...staticImports(file));
  }
  return reached;
}

describe('widget styles in a second sheet', () => {
  test('no server-rendered page imports a CSS module that goes into the second sheet', () => {
    const reached = serverRenderedFiles();
    const early = [...reached].filter((file) => lazyWidgetStyleTest.test(file)).map((file) => path.relative(root, file));
    assert.deepEqual(early, [], 'these would be missing at first paint on the pages that render them');
  });

  test('each listed folder has a CSS module the pattern matches, and the pattern matches nothing else', () => {
    for (const folder of lazyWidgetStyleFolders) {
      assert.ok(lazyWidgetStyleTest.test(path.join(root, 'src/components', folder, 'styles.module.css')), folder);
    }
    assert.ok(!lazyWidgetStyleTest.test(path.join(root, 'src/components/widgets/SandboxConsole/styles.module.css')));
    assert.ok(!lazyWidgetStyleTest.test(path.join(root, 'src/components/ui/WidgetForm/styles.module.css')));
  });
});
