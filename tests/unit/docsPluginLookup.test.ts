import {describe, test} from 'node:test';
import assert from 'node:assert/strict';
import {matchPath} from 'react-router';
import type {GlobalPluginData} from '@docusaurus/plugin-content-docs/client';
import {getActivePlugin, holdsPath} from '../../plugins/performance/docs-plugin-lookup/activePlugin';

const plugin = (basePath: string) => ({path: basePath, versions: [], breadcrumbs: true}) as unknown as GlobalPluginData;

describe('docs plugin lookup without localeCompare', () => {
  const site = {default: plugin('/docs'), demos: plugin('/demos')};
  const nested = {docs: plugin('/docs'), api: plugin('/docs/api'), root: plugin('/')};

  test('finds the instance whose base path holds the page', () => {
    assert.equal(getActivePlugin(site, '/docs/createorder')?.pluginId, 'default');
    assert.equal(getActivePlugin(site, '/demos/dynqr')?.pluginId, 'demos');
    assert.equal(getActivePlugin(site, '/blog/long-blog-post'), undefined);
  });

  test('prefers the longest base path, on whole path segments', () => {
    assert.equal(getActivePlugin(nested, '/docs/api/refund')?.pluginId, 'api');
    assert.equal(getActivePlugin(nested, '/docs/apis')?.pluginId, 'docs');
    assert.equal(getActivePlugin(nested, '/blog')?.pluginId, 'root');
  });

  test('matches base paths as react-router matchPath does for the original (exact: false, strict: false)', () => {
    const bases = ['/', '/docs', '/docs/', '/docs/api', '/Demos'];
    const paths = ['/', '/docs', '/docs/', '/docs/api', '/docs/api/', '/docs/apis', '/DOCS/createorder', '/demos/dynqr', '/documents', '/blog'];
    for (const base of bases) {
      for (const pathname of paths) {
        const expected = matchPath(pathname, {path: base, exact: false, strict: false}) !== null;
        assert.equal(holdsPath(base, pathname), expected, `${base} holds ${pathname}`);
      }
    }
  });

  test('with failfast, a page outside every instance is a clear error', () => {
    assert.throws(() => getActivePlugin(site, '/blog', {failfast: true}), /No docs plugin instance serves "\/blog".*\/docs, \/demos/);
  });
});
