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
 * The pages nearest to the address. The page list is the build's own index of every page (/markdown-twins.json,
 * written by plugins/content/markdown-twins), fetched only on this page, so how many are near is known only after
 * the first paint. No space is kept for them: they come last in the page's flow (beside the rest on a wide screen),
 * where their arrival moves nothing the reader sees (layout-stability.spec.ts).
 */
export function NearPages(): ReactNode {
  const {pathname} = useLocation();
  const indexUrl = useBaseUrl('/markdown-twins.json');
  const [near, setNear] = useState<readonly SitePage[] | 'loading' | 'failed'>('loading');

  useEffect(() => {
    let live = true;
    fetch(indexUrl)
      .then(async (response) => {
        if (!response.ok) throw new Error(String(response.status));
        const pages = (await response.json()) as SitePage[];
        if (live) setNear(nearestPages(pathname, pages));
      })
      .catch(() => {
        if (live) setNear('failed');
      });
    return () => {
      live = false;
    };
  }, [indexUrl, pathname]);

  return (
    <div className={styles.near} aria-live="polite">
      {Array.isArray(near) && near.length > 0 ? (
        <>
          <h2 className={styles.nearTitle}>Did you mean</h2>
          <ul>
            {near.map((page) => (
              <li key={page.path}>
                <Link to={page.path}>{page.title}</Link> <span className={styles.path}>{page.path}</span>
              </li>
            ))}
          </ul>
        </>
      ) : (
        <p className={styles.nearNote}>
          {near === 'loading'
            ? 'Looking for pages with an address like this one…'
            : 'No page has an address close to this one: search the portal, or start from a section.'}
        </p>
      )}
    </div>
  );
}
