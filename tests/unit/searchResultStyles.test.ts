import {test} from 'node:test';
import assert from 'node:assert/strict';
import {readdirSync, readFileSync} from 'node:fs';
import path from 'node:path';
import {resultClasses, resultSelector} from '../../plugins/performance/search-on-demand/resultStyles';

const repoRoot = path.resolve(__dirname, '../..');
const pluginModule = require.resolve('@easyops-cn/docusaurus-search-local/dist/client/client/theme/SearchBar/SearchBar.module.css');

/** The local class names a CSS module defines (outside `:global(...)`). */
function localClasses(css: string): Set<string> {
  const withoutGlobals = css.replace(/:global\([^)]*\)/g, '').replace(/\/\*[\s\S]*?\*\//g, '');
  return new Set([...withoutGlobals.matchAll(/\.([A-Za-z][\w-]*)/g)].map((match) => match[1] ?? ''));
}

function cssModulesUnder(folder: string): string[] {
  return readdirSync(folder, {recursive: true, encoding: 'utf8'})
    .filter((file) => file.endsWith('.module.css'))
    .map((file) => path.join(folder, file));
}

test("every class the results' sheet takes is a class of the search plugin's module", () => {
  const classes = localClasses(readFileSync(pluginModule, 'utf8'));
  assert.deepEqual(
    resultClasses.filter((name) => !classes.has(name)),
    [],
  );
});

test('the search field drawn at first paint (the stand-in) renders none of the results classes', () => {
  const standIn = readFileSync(path.join(repoRoot, 'plugins/performance/search-on-demand/search-bar/client.tsx'), 'utf8');
  const used = new Set([...standIn.matchAll(/styles\.(\w+)/g)].map((match) => match[1]));
  assert.ok(used.has('searchBarContainer') && used.has('searchInput'), 'the stand-in reads its classes from the module');
  assert.deepEqual(
    resultClasses.filter((name) => used.has(name)),
    [],
  );
});

test('no other CSS module defines a class of the same name (its rules would leave the main sheet too)', () => {
  const theme = path.dirname(require.resolve('@docusaurus/theme-classic/package.json'));
  const modules = [...cssModulesUnder(path.join(repoRoot, 'src')), ...cssModulesUnder(path.join(theme, 'lib'))];
  assert.ok(modules.length > 20, `found ${modules.length} CSS modules`);
  const clashes = modules.flatMap((file) =>
    [...localClasses(readFileSync(file, 'utf8'))]
      .filter((name) => (resultClasses as readonly string[]).includes(name))
      .map((name) => `${path.relative(repoRoot, file)}: .${name}`),
  );
  assert.deepEqual(clashes, []);
});

test('the selector test takes the results classes as built, and not their neighbours', () => {
  for (const selector of ['.hitTree_kk6K', '.searchBar_RVTs .dropdownMenu_qbY6 .suggestion_fB_2.cursor_eG29', '.noResultsIcon_EBY5'])
    assert.ok(resultSelector.test(selector), selector);
  for (const selector of ['.searchInput_Ab12', '.suggestions_Xy12', '.searchHintContainer_Pkmr', '.dropdownMenu', '.hitTreeView_ab12'])
    assert.ok(!resultSelector.test(selector), selector);
});
