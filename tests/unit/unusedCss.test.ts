import {describe, test} from 'node:test';
import assert from 'node:assert/strict';
import {mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync} from 'node:fs';
import {tmpdir} from 'node:os';
import path from 'node:path';
import {
  missingRequiredSelectors,
  purgeUnusedCss,
  requiredSelectors,
  withContentHash,
  withoutOverriddenRootProperties,
  withRootConstantsInlined,
} from '../../plugins/performance/unused-css';
import {resultsSheetAttribute} from '../../plugins/performance/search-on-demand/resultStyles';

const sheet = [
  ':root{--ifm-unused:1px;--vx-gap:4px;--vx-inline-only:red;--vx-widget-only:blue}',
  '.navbar{padding:var(--vx-gap)}',
  '.pills{display:flex}',
  '.dropdownList_Q1w2{color:red}',
  // The search plugin's module: the field's rules, the results' rules (one in a media query) and a rule naming both.
  '.searchInput_Ab12{background-image:none}.hitTree_kk6K{display:flex}',
  '@media (max-width:576px){.searchBar_RVTs .dropdownMenu_qbY6{width:340px}.searchHint_Zz9x{display:none}}',
  '.searchHintContainer_Pkmr,.searchClearButton_qk4g{right:0}',
  '.col--offset-3{margin-left:25%}',
  '.menu__list-item--collapsed .menu__list{display:none}',
  '.panel_Ab3x{color:red}',
  '.alert--danger{color:red}.alert--info{color:blue}',
  "[data-theme='dark'] .navbar{color:#fff}",
  '#nprogress .bar{height:2px}',
  '.token.comment{color:gray}',
  ':where(a,button):focus-visible{outline:2px solid}',
  ':where(a,[tabindex]):hover{outline:1px solid}',
].join('');

/** A built site in miniature: one page, one chunk that adds a widget's class and the collapsed state at run time. */
function builtSite(): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'unused-css-'));
  mkdirSync(path.join(dir, 'assets/css'), {recursive: true});
  mkdirSync(path.join(dir, 'assets/js'), {recursive: true});
  writeFileSync(path.join(dir, 'assets/css/styles.0123abcd.css'), sheet);
  // A page type's sheet, which the page links and the runtime names: it keeps its name and content.
  writeFileSync(path.join(dir, 'assets/css/home.9876fedc.css'), '.pills{color:var(--vx-widget-only)}');
  writeFileSync(
    path.join(dir, 'index.html'),
    '<html data-theme="light"><link rel="stylesheet" href="/assets/css/styles.0123abcd.css"><link rel="stylesheet" href="/assets/css/home.9876fedc.css"><nav class="navbar" style="color:var(--vx-inline-only)"></nav></html>',
  );
  writeFileSync(
    path.join(dir, 'assets/js/main.1234abcd.js'),
    'x({panel:"panel_Ab3x",menu:"dropdownList_Q1w2"});s({searchInput:"searchInput_Ab12",hitTree:"hitTree_kk6K",searchBar:"searchBar_RVTs",dropdownMenu:"dropdownMenu_qbY6",searchHint:"searchHint_Zz9x",searchHintContainer:"searchHintContainer_Pkmr",searchClearButton:"searchClearButton_qk4g"});n("dropdown","dropdown__menu","navbar__item");jsx("a",{tabIndex:0});jsx("button",{});clsx("menu__list-item",{"menu__list-item--collapsed":c,"menu__list":1})',
  );
  return dir;
}

describe('unused CSS removed after the build', () => {
  test('keeps what pages and scripts name and what code builds at run time; drops the rest; relinks under a new hash', async () => {
    const dir = builtSite();
    try {
      const reports = await purgeUnusedCss(dir);
      assert.equal(reports.length, 1, 'only the main sheet is purged');
      const [report] = reports;
      assert.ok(report);
      const css = readFileSync(path.join(dir, report.sheet), 'utf8');
      for (const kept of [
        '.navbar{',
        '.panel_Ab3x',
        '.menu__list-item--collapsed',
        '.alert--danger',
        '.alert--info',
        'data-theme',
        '#nprogress',
        '.token.comment',
      ]) {
        assert.ok(css.includes(kept), `${kept} is kept`);
      }
      assert.ok(css.includes('.dropdownList_Q1w2'), 'a class a script names is kept');
      for (const dropped of ['.pills', '.col--offset-3', '--ifm-unused']) assert.ok(!css.includes(dropped), `${dropped} is removed`);
      assert.ok(css.includes('.navbar{padding:4px}'), 'a constant a kept rule reads is written in its place');
      assert.ok(css.includes('--vx-inline-only'), 'a property only an inline style reads stays');
      assert.ok(css.includes('--vx-widget-only'), "a property only the widgets' sheet reads stays");
      assert.equal(report.sheet, withContentHash('assets/css/styles.0123abcd.css', css), 'the name carries the hash of the new content');
      assert.notEqual(report.sheet, 'assets/css/styles.0123abcd.css');
      // The search results' rules wait in a sheet of their own, which the main sheet's link names.
      assert.ok(report.results, 'the search results have their sheet');
      const results = readFileSync(path.join(dir, report.results.sheet), 'utf8');
      assert.equal(results, '.hitTree_kk6K{display:flex}@media (max-width:576px){.searchBar_RVTs .dropdownMenu_qbY6{width:340px}}');
      assert.equal(report.results.sheet, withContentHash('assets/css/search-results.00000000.css', results));
      for (const moved of ['.hitTree_kk6K', '.dropdownMenu_qbY6']) assert.ok(!css.includes(moved), `${moved} left the main sheet`);
      for (const stays of ['.searchInput_Ab12{', '.searchHint_Zz9x{display:none}', '.searchHintContainer_Pkmr,.searchClearButton_qk4g{'])
        assert.ok(css.includes(stays), `${stays} stays in the main sheet`);
      assert.deepEqual(
        readdirSync(path.join(dir, 'assets/css')).sort(),
        [path.basename(report.sheet), path.basename(report.results.sheet), 'home.9876fedc.css'].sort(),
        'the old sheet is gone',
      );
      assert.equal(
        readFileSync(path.join(dir, 'assets/css/home.9876fedc.css'), 'utf8'),
        '.pills{color:var(--vx-widget-only)}',
        "a page type's sheet is left alone",
      );
      const html = readFileSync(path.join(dir, 'index.html'), 'utf8');
      assert.ok(
        html.includes(`<link rel="stylesheet" href="/${report.sheet}" ${resultsSheetAttribute}=/${report.results.sheet}>`),
        "the page links the new sheet, which names the results' sheet",
      );
      assert.ok(html.includes('href="/assets/css/home.9876fedc.css"'), "the page still links its page type's sheet");
    } finally {
      rmSync(dir, {recursive: true, force: true});
    }
  });

  test('the build fails when purging removes a selector code needs at run time', async () => {
    const dir = builtSite();
    try {
      await assert.rejects(
        purgeUnusedCss(dir, {standard: [], greedy: []}),
        /removed \.alert--danger, \.alert--info, \[data-theme='dark'\], #nprogress/,
      );
    } finally {
      rmSync(dir, {recursive: true, force: true});
    }
  });

  test('the check names a required selector the sheet lacks', () => {
    const css = requiredSelectors.filter((selector) => selector !== '.navbar-sidebar--show').join('{}') + '{}';
    assert.deepEqual(missingRequiredSelectors(css), ['.navbar-sidebar--show']);
  });

  test('a build without a stylesheet is an error, not a silent pass', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'unused-css-'));
    try {
      writeFileSync(path.join(dir, 'index.html'), '<html></html>');
      await assert.rejects(purgeUnusedCss(dir), /no pages or no assets\/css\/styles/);
    } finally {
      rmSync(dir, {recursive: true, force: true});
    }
  });

  test('drops the root custom properties of Infima and the theme that our unlayered tokens set too, mode by mode', () => {
    const css = withoutOverriddenRootProperties(
      [
        '@layer docusaurus.infima{:root{--a:1;--b:2;--c:3}html[data-theme=dark]{--a:4;--c:5;--d:6}@media (min-width:997px){:root{--a:7}}.x{--a:8}}',
        '@layer docusaurus.theme-classic{:root{--only-ours:1}}',
        ":root{--a:9;--only-ours:2}[data-theme='dark']{--c:10}",
      ].join(''),
    );
    assert.equal(
      css,
      '@layer docusaurus.infima{:root{--b:2;--c:3}html[data-theme=dark]{--d:6}@media (min-width:997px){:root{--a:7}}.x{--a:8}}' +
        '@layer docusaurus.theme-classic{}' +
        ":root{--a:9;--only-ours:2}[data-theme='dark']{--c:10}",
    );
  });

  test('inlines the root variables that are constants, and only those', () => {
    const css = withRootConstantsInlined(
      [
        '@layer docusaurus.infima{:root{--pad:1rem;--size:100%;--lh:1.65;--font:system-ui,sans-serif;--gap:calc(var(--pad)*2);',
        '--link:var(--primary);--heading:var(--h1);--dark-too:#fff;--media:1;--fallback:2px;--outside:red;--set-outside:blue}',
        'html[data-theme=dark]{--dark-too:#000;--primary:#99f}@media (min-width:997px){:root{--media:2}}',
        '.a{padding:var(--pad)var(--pad);font:var(--size)/var(--lh)var(--font);margin:var(--gap)}',
        '.b{color:var(--link);font-size:var(--heading);background:var(--dark-too);order:var(--media);width:var(--fallback,1px)}',
        '.c{color:var(--outside);border-color:var(--set-outside)}}',
        ':root{--primary:#33c;--h1:2rem}.markdown h1{--h1:3rem}',
      ].join(''),
      ['<p style="color:var(--outside)">', 'x.style.setProperty("--set-outside","red")'],
    );
    // Constants: set once on the root, in no media query, read without a fallback, named nowhere else.
    assert.ok(css.includes('.a{padding:1rem 1rem;font:100%/1.65 system-ui,sans-serif;margin:calc(1rem*2)}'), css);
    assert.ok(!/--(pad|size|lh|font|gap):/.test(css), 'their definitions are gone');
    // --link reads --primary, which only root rules set: the same value everywhere, so it is inlined as a read of --primary.
    assert.ok(css.includes('.b{color:var(--primary);'), css);
    assert.ok(!css.includes('--link:'));
    // --heading reads --h1, which `.markdown h1` sets for its subtree: the root's value must stay the one inherited.
    assert.ok(css.includes('--heading:var(--h1)') && css.includes('font-size:var(--heading)'), css);
    for (const kept of ['--dark-too:#fff', '--media:1', '--fallback:2px', '--outside:red', '--set-outside:blue']) {
      assert.ok(css.includes(kept), `${kept} stays: set twice, in a media query, read with a fallback, or named outside the sheet`);
    }
  });
});
