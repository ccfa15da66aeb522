/**
 * Finds sitemap URLs that no page of the build links to: a page a reader (or a crawler starting
 * from the home page) cannot reach. Run by scripts/checkHtml.ts (npm run check:html).
 */
import {readFileSync, readdirSync} from 'node:fs';
import path from 'node:path';

/** The `<loc>` URLs of a sitemap.xml. */
export function sitemapLocations(xml: string): string[] {
  return [...xml.matchAll(/<loc>\s*([^<\s]+)\s*<\/loc>/g)].map((match) => (match[1] ?? '').replace(/&amp;/g, '&'));
}

/** The `href` of every `<a>` of an HTML page (not `<link>`: a canonical or feed link is no way in for a reader). */
export function anchorHrefs(html: string): string[] {
  // Minified pages leave attribute values unquoted where they can (`<a class=x href=/docs/refund>`).
  return [...html.matchAll(/<a\b[^>]*?\shref=(?:"([^"]*)"|'([^']*)'|([^\s"'>]+))/gi)].map((match) =>
    (match[1] ?? match[2] ?? match[3] ?? '').replace(/&amp;/g, '&'),
  );
}

/** A site path as compared: no query or fragment, no `index.html`, `.html` or trailing slash. */
export function normalisePath(pathname: string): string {
  const trimmed = pathname
    .replace(/[?#].*$/, '')
    .replace(/\/index\.html$/, '/')
    .replace(/\.html$/, '')
    .replace(/\/+$/, '');
  return trimmed === '' ? '/' : trimmed;
}

export interface BuiltPage {
  /** The page's own URL path, e.g. "/docs/refund". */
  readonly path: string;
  readonly html: string;
}

/**
 * The sitemap URLs linked from no page but themselves. The home page is where a crawl starts, so it
 * needs no link. `siteUrl` is the site's origin and base path, without a trailing slash.
 */
export function unlinkedSitemapUrls(sitemapXml: string, pages: readonly BuiltPage[], siteUrl: string): string[] {
  const base = new URL(`${siteUrl}/`);
  const basePath = base.pathname.replace(/\/$/, '');
  const sitePath = (href: string, from: string): string | undefined => {
    let url: URL;
    try {
      url = new URL(href, new URL(`${basePath}${from}`, base));
    } catch {
      return undefined;
    }
    if (url.origin !== base.origin || (!url.pathname.startsWith(`${basePath}/`) && url.pathname !== basePath)) return undefined;
    return normalisePath(url.pathname.slice(basePath.length) || '/');
  };
  const linked = new Set<string>();
  for (const page of pages) {
    for (const href of anchorHrefs(page.html)) {
      const target = sitePath(href, page.path);
      if (target !== undefined && target !== normalisePath(page.path)) linked.add(target);
    }
  }
  return sitemapLocations(sitemapXml).filter((loc) => {
    const target = sitePath(loc, '/');
    return target !== undefined && target !== '/' && !linked.has(target);
  });
}

/** Reads build-dir/sitemap.xml and every built HTML page, and returns the sitemap URLs no page links. */
export function checkSitemapLinks(buildDir: string, siteUrl: string): string[] {
  const pages = readdirSync(buildDir, {recursive: true, encoding: 'utf8'})
    .filter((file) => file.endsWith('.html'))
    .map((file) => ({path: normalisePath(`/${file.split(path.sep).join('/')}`), html: readFileSync(path.join(buildDir, file), 'utf8')}));
  return unlinkedSitemapUrls(readFileSync(path.join(buildDir, 'sitemap.xml'), 'utf8'), pages, siteUrl);
}
