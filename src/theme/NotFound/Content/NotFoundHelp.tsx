import {useEffect, useId, useState, type ReactNode} from 'react';
import {useLocation} from '@docusaurus/router';
import useBaseUrl from '@docusaurus/useBaseUrl';
import Link from '@docusaurus/Link';
import Button from '@site/src/components/ui/Button';
import {controlClassName} from '@site/src/components/ui/Field';
import {nearestPages, searchWords, type SitePage} from '@site/src/lib/nearestPages';
import styles from './styles.module.css';

/** A search box (the site's search page) filled with the words of the address. */
export function NotFoundSearch(): ReactNode {
  const id = useId();
  const {pathname} = useLocation();
  const searchPage = useBaseUrl('/search');
  return (
    <form className={styles.search} action={searchPage} method="get" role="search" aria-label="Search the portal">
      <label htmlFor={`${id}-q`}>Search the portal</label>
      <div className={styles.searchRow}>
        <input id={`${id}-q`} className={controlClassName} name="q" type="search" defaultValue={searchWords(pathname)} />
        <Button type="submit" variant="primary">
          Search
        </Button>
      </div>
    </form>
  );
}

/**
 * What the section shows before (and instead of) near matches: pages most readers come for. Checked against the
 * site's page list by content.spec.ts (each path exists, with this title).
 */
export const popularPages: readonly SitePage[] = [
  {path: '/docs/createorder', title: 'Create order'},
  {path: '/docs/general/test-accounts', title: 'Sandbox test accounts'},
  {path: '/docs/payment/payment-result-notification', title: 'Payment result notification'},
];

type Near = readonly SitePage[] | 'loading' | 'failed';

/** The section's heading and one-line note for what is known so far (short: the note is clamped to one line). */
function describe(near: Near): {title: string; note: string} {
  if (near === 'loading') return {title: 'Popular pages', note: 'Looking for near addresses…'};
  if (near === 'failed') return {title: 'Popular pages', note: 'No page list: try the search.'};
  if (near.length === 0) return {title: 'Popular pages', note: 'No address is close to this one.'};
  return {title: 'Did you mean', note: near.length < popularPages.length ? 'Nearest first, then popular.' : 'Nearest first.'};
}

/** Exactly as many rows as popularPages: the near matches first, then popular pages they do not already name. */
function rows(near: Near): readonly SitePage[] {
  const first = Array.isArray(near) ? near.slice(0, popularPages.length) : [];
  const rest = popularPages.filter((page) => !first.some((match) => match.path === page.path));
  return [...first, ...rest].slice(0, popularPages.length);
}

/**
 * The pages nearest to the address. The page list is the build's own index of every page (/markdown-twins.json,
 * written by plugins/content/markdown-twins), fetched only on this page, so the near matches are known only after
 * the first paint. The section is there from the first paint, with a fixed number of one-line rows (popular pages
 * first), and the matches replace rows in place: it never changes height, so it can sit high enough to be in a
 * phone's first screen without anything jumping (layout-stability.spec.ts, content.spec.ts).
 */
export function NearPages(): ReactNode {
  const {pathname} = useLocation();
  const indexUrl = useBaseUrl('/markdown-twins.json');
  const [near, setNear] = useState<Near>('loading');

  useEffect(() => {
    let live = true;
    fetch(indexUrl)
      .then(async (response) => {
        if (!response.ok) throw new Error(String(response.status));
        const pages = (await response.json()) as SitePage[];
        if (live) setNear(nearestPages(pathname, pages, popularPages.length));
      })
      .catch(() => {
        if (live) setNear('failed');
      });
    return () => {
      live = false;
    };
  }, [indexUrl, pathname]);

  const {title, note} = describe(near);
  return (
    <section className={styles.near} aria-labelledby="near-pages-title" data-near-pages={Array.isArray(near) ? near.length : near}>
      <h2 id="near-pages-title" className={styles.nearTitle}>
        {title}
      </h2>
      <p className={styles.nearNote} aria-live="polite">
        {note}
      </p>
      <ul className={styles.nearList}>
        {rows(near).map((page) => (
          <li key={page.path}>
            <Link to={page.path} className={styles.nearLink}>
              {page.title}
            </Link>
            <span className={styles.path}>{page.path}</span>
          </li>
        ))}
      </ul>
    </section>
  );
}
