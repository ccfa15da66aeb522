import assert from 'node:assert/strict';
import {describe, it} from 'node:test';
import {anchorHrefs, normalisePath, sitemapLocations, unlinkedSitemapUrls} from '../../tooling/sitemapLinks';

const site = 'https://developers.example.com';
const sitemap = ['/', '/docs/refund', '/blog/archive', '/markdown-page', '/docs/orphan']
  .map((page) => `<url><loc>${site}${page}</loc><changefreq>weekly</changefreq></url>`)
  .join('');
const xml = `<?xml version="1.0" encoding="UTF-8"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">${sitemap}</urlset>`;

describe('sitemap links', () => {
  it('reads the locations of a sitemap', () => {
    assert.deepEqual(
      sitemapLocations(xml),
      ['/', '/docs/refund', '/blog/archive', '/markdown-page', '/docs/orphan'].map((page) => `${site}${page}`),
    );
  });

  it('reads anchors only, not <link> elements', () => {
    assert.deepEqual(
      anchorHrefs('<link rel="canonical" href="/x"><a class="c" href="/a">A</a><a href=\'/b#top\'>B</a><a class=x href=/c>C</a>'),
      ['/a', '/b#top', '/c'],
    );
  });

  it('normalises index.html, .html, query, fragment and trailing slash', () => {
    assert.equal(normalisePath('/docs/refund/index.html'), '/docs/refund');
    assert.equal(normalisePath('/404.html'), '/404');
    assert.equal(normalisePath('/blog/?a=1#b'), '/blog');
    assert.equal(normalisePath('/index.html'), '/');
  });

  it('names the sitemap URLs no other page links, and accepts relative, absolute and trailing-slash links', () => {
    const pages = [
      {path: '/', html: '<a href="/docs/refund/">Refund</a><link rel="canonical" href="https://developers.example.com/docs/orphan">'},
      {path: '/docs/refund', html: '<a href="../markdown-page#terms">Glossary</a><a href="https://shop.example.com/blog/archive">x</a>'},
      {path: '/docs/orphan', html: '<a href="/docs/orphan">itself</a>'},
      {path: '/blog', html: `<a href="${site}/blog/archive">Archive</a>`},
    ];
    assert.deepEqual(unlinkedSitemapUrls(xml, pages, site), [`${site}/docs/orphan`]);
    assert.deepEqual(unlinkedSitemapUrls(xml, pages.slice(0, 3), site), [`${site}/blog/archive`, `${site}/docs/orphan`]);
  });
});
