import assert from 'node:assert/strict';
import {mkdtempSync, writeFileSync} from 'node:fs';
import {tmpdir} from 'node:os';
import path from 'node:path';
import {test} from 'node:test';
import {checkHtmlFiles, checkHtmlFilesInParallel, createHtmlChecker, isRedirectPage, normalisedMarkup} from '../../tooling/htmlCheck';

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
  assert.deepEqual(
    rules(
      '<div role=tabpanel><div role=region aria-label=Hosts>a</div></div><div role=tabpanel hidden><div role=region aria-label=Hosts>b</div></div>',
    ),
    [],
  );
  assert.doesNotMatch(normalisedMarkup('<div hidden><p>gone</div><p>kept'), /gone/);
});

test('only the theme code-line markup is let through: a line, not block content inside it or other elements', () => {
  assert.deepEqual(rules('<pre><code><div class=token-line><span class=token>line</span> 1</div></code></pre>'), []);
  assert.ok(rules('<pre><code><section>line 1</section></code></pre>').includes('element-permitted-content'));
  assert.ok(rules('<pre><code><div><p>line 1</p></div></code></pre>').includes('element-permitted-content'));
  assert.deepEqual(rules('<div><div>a block outside code</div></div>'), []);
});

test('client-side redirect pages are recognised', () => {
  assert.equal(isRedirectPage('<!DOCTYPE html><meta charset="UTF-8"><meta http-equiv="refresh" content="0; url=/docs/x">'), true);
  assert.equal(isRedirectPage(page('<p>Hello')), false);
});

test('the pages shared out among processes give what one process gives, in the order of the files', async () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'html-check-'));
  const bodies = [
    '<p>Fine',
    '<h4>Skipped levels</h4>',
    '<p id=a>One</p><p id=a>Two</p>',
    '<p>Fine too',
    '<img src=a.svg><input type=text id=q>',
  ];
  const files = bodies.map((body, index) => {
    const file = path.join(dir, `page-${index}.html`);
    writeFileSync(file, page(body));
    return file;
  });
  files.push(path.join(dir, 'redirect.html'));
  writeFileSync(files.at(-1) ?? '', '<!DOCTYPE html><meta charset="UTF-8"><meta http-equiv="refresh" content="0; url=/docs/x">');
  const alone = checkHtmlFiles(files);
  assert.equal(alone.checked, bodies.length);
  assert.deepEqual(
    new Set(alone.problems.map((problem) => path.basename(problem.file))),
    new Set(['page-1.html', 'page-2.html', 'page-4.html']),
  );
  assert.deepEqual(await checkHtmlFilesInParallel(files, 2), alone);
});
