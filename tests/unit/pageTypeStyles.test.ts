import {describe, test} from 'node:test';
import assert from 'node:assert/strict';
import {existsSync, readdirSync, readFileSync, statSync} from 'node:fs';
import path from 'node:path';
import {styleGroups, styleGroupTest, type StyleGroup} from '../../plugins/performance/page-type-styles';

const root = path.resolve(import.meta.dirname, '../..');
const sourceFolders = ['src', 'docs', 'blog', 'demos'];
const sourceFile = /\.(tsx?|mdx?)$/;
const themeClassic = path.join(root, 'node_modules/@docusaurus/theme-classic/lib/theme');

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

const sourceFiles = sourceFolders.flatMap((folder) =>
  readdirSync(path.join(root, folder), {recursive: true, encoding: 'utf8'})
    .map((file) => path.join(root, folder, file))
    .filter((file) => sourceFile.test(file)),
);

/** The path of a source file as the groups name it: under src/ without the prefix, else from the repository root. */
function groupPath(file: string): string {
  const relative = path.relative(root, file).split(path.sep).join('/');
  return relative.startsWith('src/') ? relative.slice('src/'.length) : relative;
}

/** Every file reached by static imports from `roots`. */
function reachedFrom(roots: readonly string[]): Set<string> {
  const reached = new Set<string>();
  const queue = [...roots];
  for (let file = queue.pop(); file !== undefined; file = queue.pop()) {
    if (reached.has(file)) continue;
    reached.add(file);
    if (sourceFile.test(file)) queue.push(...staticImports(file));
  }
  return reached;
}

const inFolders = (file: string, folders: readonly string[]) => folders.some((folder) => groupPath(file).startsWith(`${folder}/`));

describe('stylesheets by page type', () => {
  const widgets = styleGroups.find((group) => group.name === 'widgets') as StyleGroup;

  test('no server-rendered page imports a CSS module of the widgets sheet, which arrives only with the widget', () => {
    // A widget's own files are reached only through imports (its chunk is loaded by import()); so is the live demo's panel.
    const roots = sourceFiles
      .filter((file) => !inFolders(file, widgets.folders))
      .filter((file) => !groupPath(file).startsWith('components/demo/live/') || file.endsWith('index.tsx'));
    const early = [...reachedFrom(roots)].filter((file) => styleGroupTest(widgets).test(file)).map((file) => path.relative(root, file));
    assert.deepEqual(early, [], 'these would be missing at first paint on the pages that render them');
  });

  for (const group of styleGroups.filter((candidate) => candidate.importedFrom.length > 0)) {
    test(`the ${group.name} sheet's modules are imported only by code of ${group.pages}`, () => {
      const outside = sourceFiles.filter(
        (file) => !inFolders(file, group.folders) && !group.importedFrom.some((prefix) => groupPath(file).startsWith(prefix)),
      );
      const reached = [...reachedFrom(outside)].filter((file) => styleGroupTest(group).test(file)).map((file) => path.relative(root, file));
      assert.deepEqual(reached, [], `other pages would load the ${group.name} sheet, or the layout would draw late`);
    });
  }

  test("each group's folders hold a CSS module its pattern matches; no pattern matches a shared module; groups do not overlap", () => {
    for (const group of styleGroups) {
      const pattern = styleGroupTest(group);
      for (const folder of group.folders) {
        const modules = readdirSync(path.join(root, 'src', folder)).filter((file) => file.endsWith('.css'));
        assert.ok(modules.length > 0, `${group.name}: src/${folder} has no CSS module`);
        for (const file of modules) assert.ok(pattern.test(path.join(root, 'src', folder, file)), `${group.name}: src/${folder}/${file}`);
      }
      for (const folder of group.themeFolders ?? []) {
        const modules = readdirSync(path.join(themeClassic, folder), {recursive: true, encoding: 'utf8'}).filter((file) =>
          file.endsWith('.css'),
        );
        assert.ok(modules.length > 0, `${group.name}: theme-classic's ${folder} has no CSS module (renamed upstream?)`);
        for (const file of modules) assert.ok(pattern.test(path.join(themeClassic, folder, file)), `${group.name}: ${folder}/${file}`);
      }
      for (const folder of group.packageFolders ?? []) {
        const modules = readdirSync(path.join(root, 'node_modules', folder)).filter((file) => file.endsWith('.css'));
        assert.ok(modules.length > 0, `${group.name}: ${folder} has no CSS module (moved upstream?)`);
        for (const file of modules)
          assert.ok(pattern.test(path.join(root, 'node_modules', folder, file)), `${group.name}: ${folder}/${file}`);
      }
      // The 404 page's content also renders in the docs' route chunk (an unknown docs path), and 404.html links no route chunk's sheet.
      for (const shared of [
        'components/ui/Field',
        'components/ui/Button',
        'components/ui/TableScroller',
        'theme/AnnouncementBar',
        'theme/NotFound/Content',
      ]) {
        assert.ok(!pattern.test(path.join(root, 'src', shared, 'styles.module.css')), `${group.name} takes ${shared}`);
      }
      for (const layoutPart of ['Navbar/Search', 'AnnouncementBar', 'TOC', 'CodeBlock/Content', 'Admonition/Layout']) {
        assert.ok(
          !pattern.test(path.join(themeClassic, layoutPart, 'styles.module.css')),
          `${group.name} takes theme-classic's ${layoutPart}`,
        );
      }
    }
    // The search bar is in every page's navbar: only the search page's module may leave the main sheet.
    const searchBar = path.join(
      root,
      'node_modules/@easyops-cn/docusaurus-search-local/dist/client/client/theme/SearchBar/SearchBar.module.css',
    );
    assert.ok(
      styleGroups.every((group) => !styleGroupTest(group).test(searchBar)),
      'a group takes the search bar',
    );
    const folders = styleGroups.flatMap((group) => [...group.folders, ...(group.themeFolders ?? []), ...(group.packageFolders ?? [])]);
    assert.equal(new Set(folders).size, folders.length, 'a folder is in two groups');
  });

  test("the tag lists, in the blog's sheet, are reached from no docs page: theme-classic's docs users of them are replaced or unbuilt", () => {
    const tagModules = /^(Tag|TagsListInline|TagsListByLetter)$/;
    const importers = readdirSync(themeClassic, {recursive: true, encoding: 'utf8'})
      .filter((file) => file.endsWith('.js'))
      .filter((file) =>
        [...readFileSync(path.join(themeClassic, file), 'utf8').matchAll(/from\s+['"]@theme\/([\w/]+)['"]/g)].some((match) =>
          tagModules.test(match[1] ?? ''),
        ),
      )
      .map((file) => path.dirname(file).split(path.sep).join('/'))
      .filter((folder) => !/^(Blog|Tag)/.test(folder))
      .sort();
    // DocTagsListPage and DocTagDocListPage are routed only for docs with tags, which src/theme/DocItem/Footer refuses.
    assert.deepEqual(importers, ['DocItem/Footer', 'DocTagsListPage']);
    const footer = readFileSync(path.join(root, 'src/theme/DocItem/Footer/index.tsx'), 'utf8');
    assert.ok(
      !/@theme\/Tag/.test(footer) && /throw/.test(footer),
      "the docs' footer is ours: no tag list, and it throws on a doc with tags",
    );
  });
});
