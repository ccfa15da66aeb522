import {describe, test} from 'node:test';
import assert from 'node:assert/strict';
import {readdirSync, readFileSync, statSync} from 'node:fs';
import {createRequire} from 'node:module';
import path from 'node:path';
import {versionMetadataModule} from '../../plugins/performance/slim-docs-metadata';

const require = createRequire(import.meta.url);
const {withoutDocDescriptions} = require('../../plugins/performance/slim-docs-metadata/loader.js') as {
  withoutDocDescriptions: (json: string) => string;
};

// The shape plugin-content-docs 3.x writes (toVersionMetadataProp in its lib/props.js).
const metadata = {
  version: {
    pluginId: 'default',
    version: 'current',
    docsSidebars: {docs: [{type: 'link', href: '/docs/integration-guide', label: 'Integration guide', docId: 'general/integration-guide'}]},
    docs: {
      'general/integration-guide': {
        id: 'general/integration-guide',
        title: 'Integration guide',
        description: 'How to integrate.',
        sidebar: 'docs',
      },
      createorder: {id: 'createorder', title: 'Create order', description: 'Create an order.', sidebar: 'docs'},
    },
  },
};

describe('slim docs metadata', () => {
  test('drops each doc description and keeps ids, titles, sidebars and the sidebar items', () => {
    const slim = JSON.parse(withoutDocDescriptions(JSON.stringify(metadata))) as typeof metadata;
    assert.deepEqual(slim.version.docs.createorder, {id: 'createorder', title: 'Create order', sidebar: 'docs'});
    assert.deepEqual(slim.version.docsSidebars, metadata.version.docsSidebars);
    assert.equal(slim.version.pluginId, 'default');
  });

  test('fails on a module that is not version metadata, so an upgrade that changes it is noticed', () => {
    assert.throws(() => withoutDocDescriptions(JSON.stringify({docs: {}})), /no version\.docs/);
  });

  test('matches the metadata modules of both docs instances and nothing else', () => {
    assert.match('/site/.docusaurus/docusaurus-plugin-content-docs/default/p/docs-175.json', versionMetadataModule);
    assert.match('C:\\site\\.docusaurus\\docusaurus-plugin-content-docs\\demos\\p\\demos-67b.json', versionMetadataModule);
    assert.doesNotMatch(
      '/site/.docusaurus/docusaurus-plugin-content-docs/default/site-docs-createorder-md-1a2.json',
      versionMetadataModule,
    );
    assert.doesNotMatch('/site/.docusaurus/docusaurus-plugin-content-blog/default/p/blog-archive-f05.json', versionMetadataModule);
  });

  test('no page renders the theme component that reads the descriptions (DocCard)', () => {
    // DocCard reads a doc's description through useDocById; category index pages and DocCardList render it.
    const files = (dir: string): string[] =>
      readdirSync(dir).flatMap((name) => {
        const file = path.join(dir, name);
        return statSync(file).isDirectory() ? files(file) : /\.(mdx?|tsx?|js)$/.test(name) ? [file] : [];
      });
    const readers = ['docs', 'demos', 'src', 'sidebars']
      .flatMap(files)
      .filter((file) => /DocCard|generated-index|useDocById|useCurrentSidebarCategory/.test(readFileSync(file, 'utf8')));
    assert.deepEqual(readers, [], 'these files would show docs without their descriptions: remove plugins/performance/slim-docs-metadata');
  });
});
