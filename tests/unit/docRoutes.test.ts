import {describe, test} from 'node:test';
import assert from 'node:assert/strict';
import {docId, docUrl, frontMatterField} from '../../src/contract/node/docRoutes';

describe('frontMatterField', () => {
  const cases: Array<[string, string, string | undefined]> = [
    ['---\ntitle: Create order\n---\nbody', 'title', 'Create order'],
    ['---\ntitle: "Quoted: yes"\n---\n', 'title', 'Quoted: yes'],
    ["---\nslug: '/x/y'\n---\n", 'slug', '/x/y'],
    ['---\ntitle: A\n---\nslug: /not-front-matter\n', 'slug', undefined],
    ['no front matter\nslug: /x', 'slug', undefined],
    ['---\nsidebar_label: Label\n---\n', 'label', undefined],
  ];
  for (const [text, field, expected] of cases) {
    test(`${JSON.stringify(text.slice(0, 24))} / ${field}`, () => {
      assert.equal(frontMatterField(text, field), expected);
    });
  }
});

describe('docUrl', () => {
  test('uses the file path without extension', () => {
    assert.equal(
      docUrl('docs', {relativePath: 'refund/order-refund-query.md', text: '---\ntitle: Q\n---\n'}),
      '/docs/refund/order-refund-query',
    );
    assert.equal(docId('sdks/online-JAVA.mdx'), 'sdks/online-JAVA');
  });
  test('honours an absolute slug', () => {
    assert.equal(
      docUrl('docs', {relativePath: 'general/integration-guide.mdx', text: '---\nslug: /integration-guide\n---\n'}),
      '/docs/integration-guide',
    );
    assert.equal(docUrl('/demos/', {relativePath: 'a.md', text: '---\nslug: /b\n---\n'}), '/demos/b');
  });
  test('rejects a relative slug with the file named', () => {
    assert.throws(() => docUrl('docs', {relativePath: 'x.md', text: '---\nslug: y\n---\n'}), /x\.md: relative slugs/);
  });
});
