import assert from 'node:assert/strict';
import {test} from 'node:test';
import {coveringPages, isStylingHook, stylingHooks} from '../support/pageCoverage';

test('styling hooks are CSS-module classes, theme classes and Infima modifiers', () => {
  for (const hook of [
    'fieldTable_x9Q1',
    'codeBlock_bY9V',
    'theme-admonition-tip',
    'alert--warning',
    'button--primary',
    'get_MDQZ',
    'code___Q2',
    'menu__link',
    'table-of-contents__link',
  ]) {
    assert.equal(isStylingHook(hook), true, hook);
  }
  for (const plain of ['token', 'keyword', 'navbar', 'col', 'language-json', 'margin-top', 'clean-list']) {
    assert.equal(isStylingHook(plain), false, plain);
  }
});

test('hooks are read from quoted and unquoted class attributes', () => {
  const html =
    '<div class=wrapper_AbC1><p class="alert alert--info theme-admonition">x</p><span class=token>y</span><i data-class=fake_ABCD></i></div>';
  assert.deepEqual([...stylingHooks(html)].sort(), ['alert--info', 'theme-admonition', 'wrapper_AbC1']);
});

test('the cover starts with the seeds and adds the page that covers most of the rest until all are covered', () => {
  const pages = new Map([
    ['/a', new Set(['x_1111', 'y_2222'])],
    ['/b', new Set(['x_1111', 'y_2222', 'z_3333', 'w_4444'])],
    ['/c', new Set(['v_5555'])],
    ['/d', new Set(['z_3333'])],
  ]);
  assert.deepEqual(coveringPages(pages), ['/b', '/c']);
  assert.deepEqual(coveringPages(pages, ['/d']), ['/d', '/b', '/c']);
  const covered = new Set(coveringPages(pages, ['/a']).flatMap((page) => [...(pages.get(page) ?? [])]));
  assert.equal(covered.size, 5);
  assert.throws(() => coveringPages(pages, ['/missing']), /not among the pages/);
});
