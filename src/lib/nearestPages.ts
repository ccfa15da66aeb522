/**
 * The pages nearest to an address that does not exist, for the not-found page: by edit distance between
 * paths, so /docs/creatorder finds /docs/createorder and /docs/refnd finds /docs/refund. Pure; the page
 * feeds it the site's own page list (/markdown-twins.json: every page of the route contract and the extra pages).
 */

export interface SitePage {
  readonly path: string;
  readonly title: string;
}

/** Levenshtein distance between two strings (insert, delete, substitute: 1 each). */
export function editDistance(a: string, b: string): number {
  let previous = Array.from({length: b.length + 1}, (_, index) => index);
  for (let i = 1; i <= a.length; i += 1) {
    const current = [i];
    for (let j = 1; j <= b.length; j += 1) {
      current[j] = Math.min((previous[j] ?? 0) + 1, (current[j - 1] ?? 0) + 1, (previous[j - 1] ?? 0) + (a[i - 1] === b[j - 1] ? 0 : 1));
    }
    previous = current;
  }
  return previous[b.length] ?? 0;
}

const normalise = (path: string) =>
  path
    .toLowerCase()
    .replace(/\.html?$|\.md$/, '')
    .replace(/\/+$/, '') || '/';
const lastSegment = (path: string) => path.split('/').filter(Boolean).at(-1) ?? '';

/**
 * Up to `count` pages, nearest first. A page counts as near when either the whole path or its last segment
 * is within a third of its length of the missing one (a typo, a moved page), so a far-off address gets none.
 */
export function nearestPages(missing: string, pages: readonly SitePage[], count = 3): SitePage[] {
  const target = normalise(missing);
  const targetLast = lastSegment(target);
  // A page that differs only in case or a trailing slash scores 0: it is the one the reader wanted.
  const scored = pages
    .map((page) => {
      const path = normalise(page.path);
      const whole = editDistance(target, path) / Math.max(target.length, path.length, 1);
      const last = targetLast ? editDistance(targetLast, lastSegment(path)) / Math.max(targetLast.length, lastSegment(path).length, 1) : 1;
      return {page, score: Math.min(whole, last + 0.01)};
    })
    .filter(({score}) => score <= 1 / 3)
    .sort((a, b) => a.score - b.score || a.page.path.length - b.page.path.length);
  return scored.slice(0, count).map(({page}) => page);
}

/** Words of a missing address for a search box: its last segment, dashes and underscores as spaces. */
export function searchWords(missing: string): string {
  return decodeURIComponent(lastSegment(normalise(missing)))
    .replace(/[-_]+/g, ' ')
    .trim();
}
