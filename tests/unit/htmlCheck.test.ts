import assert from 'node:assert/strict';
import {test} from 'node:test';
import {createHtmlChecker, isRedirectPage, normalisedMarkup} from '../../tooling/htmlCheck';

const check = createHtmlChecker();
const page = (body: string) =>
  `<!doctype html><html lang=en><head><meta charset=utf-8><title>Page | Veloxa Pay</title></head><body><main><h1>Page</h1>${body}</main></body></html>`;
const rules = (body: string) => check(page(body), 'page.html').map((problem) => problem.rule);

test('a well-formed page passes, minified as the build writes it (optional end tags left out)', () => {
  assert.deepEqual(rules('<h2>Fields</h2><p>Intro<table><tr><th>Name<th>Type<tr><td>a<td>string</table><ul><li>one<li>two</ul>'), []);
});

test('the structural accessibility rules are on', () => {
  assert.ok(rules('<h4>Skipped levels</h4>').includes('heading-level'));
  assert.ok(rules('<span><p>A paragraph in a span</p></span>').includes('element-permitted-content'));
  assert.ok(rules('<p id=a>One</p><p id=a>Two</p>').includes('no-dup-id'));
  assert.ok(rules('<div role=region aria-label=Table>1</div><div role=region aria-label=Table>2</div>').includes('unique-landmark'));
  assert.ok(rules('<img src=a.svg>').includes('wcag/h37'));
  assert.ok(rules('<input type=text id=q>').includes('input-missing-label'));
  assert.ok(rules('<a href=/x></a>').includes('wcag/h30'));
});

test('an inactive tab panel is not seen, as assistive technology does not see it', () => {
  assert.deepEqual(rules('<div role=tabpanel><div role=region aria-label=Hosts>a</div></div><div role=tabpanel hidden><div role=region aria-label=Hosts>b</div></div>'), []);
  assert.doesNotMatch(normalisedMarkup('<div hidden><p>gone</div><p>kept'), /gone/);
});

test('only the theme code-line markup is let through', () => {
  assert.deepEqual(rules('<pre><code><div>line 1</div></code></pre>'), []);
  assert.ok(rules('<pre><code><section>line 1</section></code></pre>').includes('element-permitted-content'));
});

test('client-side redirect pages are recognised', () => {
  assert.equal(isRedirectPage('<!DOCTYPE html><meta charset="UTF-8"><meta http-equiv="refresh" content="0; url=/docs/x">'), true);
  assert.equal(isRedirectPage(page('<p>Hello')), false);
});
