import {describe, test} from 'node:test';
import assert from 'node:assert/strict';
import {mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync} from 'node:fs';
import {tmpdir} from 'node:os';
import path from 'node:path';
import {missingRequiredSelectors, purgeUnusedCss, requiredSelectors, withContentHash} from '../../plugins/performance/unused-css';

const sheet = [
  ':root{--ifm-unused:1px;--vx-gap:4px;--vx-inline-only:red;--vx-widget-only:blue}',
  '.navbar{padding:var(--vx-gap)}',
  '.pills{display:flex}',
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
  // A lazily loaded chunk's sheet: the runtime names it, so it keeps its name and content.
  writeFileSync(path.join(dir, 'assets/css/widget-styles.9876fedc.css'), '.pills{color:var(--vx-widget-only)}');
  writeFileSync(
    path.join(dir, 'index.html'),
    '<html data-theme="light"><link rel="stylesheet" href="/assets/css/styles.0123abcd.css"><nav class="navbar" style="color:var(--vx-inline-only)"></nav></html>',
  );
  writeFileSync(
    path.join(dir, 'assets/js/main.1234abcd.js'),
    'x({panel:"panel_Ab3x"});jsx("a",{tabIndex:0});jsx("button",{});clsx("menu__list-item",{"menu__list-item--collapsed":c,"menu__list":1})',
  );
  return dir;
}

describe('unused CSS removed after the build', () => {
  test('keeps what pages and scripts name and what code builds at run time; drops the rest; relinks under a new hash', async () => {
    const dir = builtSite();
    try {
      const [report] = await purgeUnusedCss(dir);
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
      for (const dropped of ['.pills', '.col--offset-3', '--ifm-unused']) assert.ok(!css.includes(dropped), `${dropped} is removed`);
      assert.ok(css.includes('--vx-gap'), 'a property a kept rule reads stays');
      assert.ok(css.includes('--vx-inline-only'), 'a property only an inline style reads stays');
      assert.ok(css.includes('--vx-widget-only'), "a property only the widgets' sheet reads stays");
      assert.equal(report.sheet, withContentHash('assets/css/styles.0123abcd.css', css), 'the name carries the hash of the new content');
      assert.notEqual(report.sheet, 'assets/css/styles.0123abcd.css');
      assert.deepEqual(
        readdirSync(path.join(dir, 'assets/css')).sort(),
        [path.basename(report.sheet), 'widget-styles.9876fedc.css'].sort(),
        'the old sheet is gone',
      );
      assert.equal(
        readFileSync(path.join(dir, 'assets/css/widget-styles.9876fedc.css'), 'utf8'),
        '.pills{color:var(--vx-widget-only)}',
        'a sheet no page links is left alone',
      );
      assert.ok(readFileSync(path.join(dir, 'index.html'), 'utf8').includes(`href="/${report.sheet}"`), 'the page links the new sheet');
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
      await assert.rejects(purgeUnusedCss(dir), /no pages or no stylesheet/);
    } finally {
      rmSync(dir, {recursive: true, force: true});
    }
  });
});
