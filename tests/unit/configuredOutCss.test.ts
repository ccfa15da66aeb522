import {describe, test} from 'node:test';
import assert from 'node:assert/strict';
import {existsSync, readdirSync, readFileSync} from 'node:fs';
import path from 'node:path';
import postcss from 'postcss';
import configuredOutCssPlugin, {
  configuredOut,
  configuredOutFor,
  configuredOutPostcss,
  contentFeatureProblems,
  leaveOut,
} from '../../plugins/performance/configured-out-css';

const root = path.resolve(import.meta.dirname, '../..');
const installed = (sheet: string) => path.join(root, 'node_modules', sheet);

function classesOf(css: string): Set<string> {
  const names = new Set<string>();
  postcss.parse(css).walkRules((rule) => {
    for (const match of rule.selector.matchAll(/\.(-?[_a-zA-Z][\w-]*)/g)) names.add(match[1] ?? '');
  });
  return names;
}

describe('stylesheet rules of features the configuration turns off', () => {
  test('each listed sheet is installed, and each listed class is one of its classes (an upstream rename fails here)', () => {
    for (const entry of configuredOut) {
      const file = installed(entry.sheet);
      assert.ok(existsSync(file), `${entry.sheet} is not installed: ${entry.feature}`);
      if (!entry.classes) continue;
      const names = [...classesOf(readFileSync(file, 'utf8'))];
      assert.ok(
        names.some((name) => entry.classes?.test(name)),
        `${entry.sheet} has no class ${String(entry.classes)} any more: ${entry.feature}`,
      );
    }
  });

  test('a sheet gets the entries for its own path only, whichever the separator; our modules get none', () => {
    const infima = configuredOutFor(installed('infima/dist/css/default/default.css'));
    assert.ok(infima.length >= 3);
    assert.ok(infima.every((entry) => entry.sheet.startsWith('infima/')));
    const windowsPath = 'C:\\site\\node_modules\\@docusaurus\\theme-classic\\lib\\theme\\Footer\\Logo\\styles.module.css';
    assert.equal(configuredOutFor(windowsPath).length, 1);
    // Our Button module's local class is `.button` too: the Infima entry must not reach it.
    assert.deepEqual(configuredOutFor(path.join(root, 'src/components/ui/Button/styles.module.css')), []);
    assert.deepEqual(configuredOutFor(installed('infima/dist/css/default/default-rtl.css')), []);
  });

  test('drops the selectors naming a listed class, keeps the others of the rule, and removes at-rules left empty', () => {
    const css = postcss.parse(
      [
        '.button,.clean-btn{cursor:pointer}',
        '.button--primary{color:red}',
        '.button-group>.button{margin:0}',
        '.pagination-nav__link,.navbar{padding:0}',
        '@media (min-width:997px){.button{display:block}.navbar{height:60px}}',
        '@media print{@supports (display:grid){.button--block{display:block}}}',
        '@keyframes button{from{opacity:0}}',
      ].join(''),
    );
    leaveOut(css, [{feature: 'test', sheet: 'x.css', classes: /^button(--|-group|$)/}]);
    assert.equal(
      css.toString(),
      '.clean-btn{cursor:pointer}.pagination-nav__link,.navbar{padding:0}@media (min-width:997px){.navbar{height:60px}}@keyframes button{from{opacity:0}}',
    );
  });

  test('an entry without classes empties its sheet, custom properties included', () => {
    const css = postcss.parse(':root{--docusaurus-collapse-button-bg:transparent}.collapseSidebarButton{display:none}');
    leaveOut(css, [{feature: 'test', sheet: 'x.css'}]);
    assert.equal(css.toString(), '');
  });

  test('the plugin adds the PostCSS step, which finds the sheet by its source file', async () => {
    const plugin = configuredOutCssPlugin();
    const options = plugin.configurePostCss?.({plugins: []} as never) as unknown as {plugins: unknown[]};
    assert.equal(options.plugins.length, 1);
    const file = installed('@docusaurus/theme-classic/lib/theme/DocSidebar/Desktop/styles.module.css');
    const result = await postcss([configuredOutPostcss()]).process(readFileSync(file, 'utf8'), {from: file});
    assert.deepEqual([...classesOf(result.css)], ['sidebar'], 'the hideable and hide-on-scroll classes go; .sidebar stays');
    const untouched = await postcss([configuredOutPostcss()]).process('.navbarHidden{top:0}', {from: path.join(root, 'src/x.css')});
    assert.equal(untouched.css, '.navbarHidden{top:0}');
  });

  test('the configuration still does without each feature', async () => {
    const {default: config} = await import('../../docusaurus.config');
    const themeConfig = config.themeConfig as {
      navbar: {items: {type?: string}[]; style?: string; hideOnScroll?: boolean};
      footer: {logo?: unknown};
      docs: {sidebar: {hideable?: boolean}};
    };
    assert.ok(themeConfig.navbar.items.length > 0);
    assert.deepEqual(
      themeConfig.navbar.items.filter((item) => /dropdown/i.test(item.type ?? '')),
      [],
      'a dropdown is configured: remove the dropdown entries',
    );
    assert.deepEqual(config.i18n?.locales, ['en'], 'a second locale shows the locale dropdown: remove its entry');
    assert.equal(themeConfig.navbar.style, undefined, "a navbar style is configured: remove Infima's navbar--dark/primary entry");
    assert.equal(themeConfig.navbar.hideOnScroll, false, 'the navbar hides on scroll: remove the hideOnScroll entries');
    assert.equal(themeConfig.footer.logo, undefined, 'the footer has a logo: remove the footer logo entries');
    assert.equal(themeConfig.docs.sidebar.hideable, false, 'the docs sidebar is hideable: remove the collapsed sidebar entries');
    // Edit links and last-update lines: no content plugin (docs, demos, blog, pages) is given an edit URL or shows dates.
    const optionsOf = (entries: unknown[] | undefined) =>
      (entries ?? []).flatMap((entry) => (Array.isArray(entry) && typeof entry[1] === 'object' ? [entry[1] as object] : []));
    const contentOptions = [
      ...optionsOf(config.presets).flatMap((preset) => Object.values(preset).filter((value) => typeof value === 'object' && value)),
      ...optionsOf(config.plugins),
    ] as Record<string, unknown>[];
    assert.ok(contentOptions.filter((options) => 'path' in options).length >= 4, 'the docs, demos, blog and pages options');
    for (const options of contentOptions) {
      for (const key of ['editUrl', 'showLastUpdateTime', 'showLastUpdateAuthor']) {
        assert.ok(!options[key], `${String(options['path'])} sets ${key}: remove the EditMetaRow and Icon/Edit entries`);
      }
    }
  });

  test("no page's content has a Markdown <details> or task list, whose rules are left out", () => {
    const sources = ['docs', 'blog', 'demos', 'src/pages'].flatMap((folder) =>
      readdirSync(path.join(root, folder), {recursive: true, encoding: 'utf8'})
        .filter((file) => /\.mdx?$/.test(file))
        .map((file) => path.join(folder, file)),
    );
    assert.ok(sources.length > 50, `found ${sources.length} Markdown files`);
    const users = sources.filter((file) => /<details\b|^\s*[-*+] \[[ xX]\] /m.test(readFileSync(path.join(root, file), 'utf8')));
    assert.deepEqual(users, [], "these use Markdown's <details> or a task list: remove its entries from configured-out-css");
  });

  test('the built-page check names a page that renders a left-out content feature', () => {
    const details = '<details class="details_lb9f alert alert--info" data-collapsed="true"><summary>More</summary></details>';
    assert.deepEqual(contentFeatureProblems('docs/a/index.html', `<main>${details}</main>`).length, 1);
    assert.match(contentFeatureProblems('docs/a/index.html', '<ul class="contains-task-list">')[0] ?? '', /task list/);
    // The site's own folds are <details> too, not theme-classic's.
    assert.deepEqual(contentFeatureProblems('docs/a/index.html', '<details class="fold_Ab12"><summary>Fields</summary></details>'), []);
  });

  test("nothing renders Infima's buttons: theme-classic uses them in the error page (ours instead) and the collapse button alone", () => {
    const themeLib = installed('@docusaurus/theme-classic/lib/theme');
    const users = readdirSync(themeLib, {recursive: true, encoding: 'utf8'})
      .filter((file) => file.endsWith('.js') && /\bbutton--[a-z]|["'`]button\s/.test(readFileSync(path.join(themeLib, file), 'utf8')))
      .map((file) => file.split(path.sep).join('/'))
      .sort();
    assert.deepEqual(users, ['DocSidebar/Desktop/CollapseButton/index.js', 'ErrorPageContent.js']);
    assert.ok(existsSync(path.join(root, 'src/theme/ErrorPageContent.tsx')), 'the error page is ours (src/theme/README.md)');
    const ours = ['src', 'docs', 'blog', 'demos'].flatMap((folder) =>
      readdirSync(path.join(root, folder), {recursive: true, encoding: 'utf8'})
        .filter((file) => /\.(tsx?|mdx?)$/.test(file))
        .filter((file) => /className=["'{`][^"'}`]*\bbutton(--[\w-]+)?\b(?!_)/.test(readFileSync(path.join(root, folder, file), 'utf8')))
        .map((file) => `${folder}/${file}`),
    );
    assert.deepEqual(ours, [], "these use Infima's button classes, which the stylesheet leaves out: use src/components/ui/Button");
  });
});
