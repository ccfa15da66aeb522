import {useEffect, useLayoutEffect, useRef, useState, type ReactNode} from 'react';
import {useLocation} from '@docusaurus/router';
import clsx from 'clsx';
import {buttonClassName} from '../Button';
import styles from './styles.module.css';

/** useLayoutEffect in the browser, nothing on the server (where layout effects only warn). */
const useBrowserLayoutEffect = typeof window === 'undefined' ? () => undefined : useLayoutEffect;

/** The element a #fragment names, or null. */
function fragmentTarget(hash: string): Element | null {
  if (hash.length < 2) return null;
  try {
    return document.getElementById(decodeURIComponent(hash.slice(1)));
  } catch {
    return null; // a malformed %-escape in the URL
  }
}

/**
 * The body of a long section below its heading, which the reader can fold: a native <details>, so its
 * <summary> is a keyboard-operable disclosure button whose expanded state assistive technology reads, and so
 * the browser itself opens it for find-in-page and for a #fragment inside it (before it scrolls there).
 * It also opens when a link or a client-side navigation lands on the section's heading or inside it (the
 * table of contents, search results), and for printing. `defaultOpen` is the server's markup, kept through
 * hydration, so nothing moves while the page loads.
 */
export default function Fold({
  title,
  defaultOpen = false,
  children,
}: {
  readonly title: string;
  readonly defaultOpen?: boolean;
  readonly children: ReactNode;
}): ReactNode {
  const [open, setOpen] = useState(defaultOpen);
  const details = useRef<HTMLDetailsElement>(null);
  const {hash} = useLocation();

  const toggled = (isOpen: boolean) => {
    setOpen(isOpen);
    // The theme's code blocks decide whether to offer word wrap by measuring themselves on resize; one drawn
    // while folded measured nothing. A resize event makes the blocks just shown measure again.
    if (isOpen) window.dispatchEvent(new Event('resize'));
  };

  // The browser may have opened it before hydration (a #fragment inside it on load): adopt what it shows.
  useBrowserLayoutEffect(() => {
    if (details.current?.open) setOpen(true);
  }, []);

  // A landing on the heading just above, or anywhere inside: open, then put the target where it was aimed.
  useEffect(() => {
    const reveal = (fragment: string) => {
      const element = details.current;
      const target = fragmentTarget(fragment);
      if (!element || !target || element.open) return;
      const inside = element.contains(target);
      if (!inside && element.previousElementSibling !== target) return;
      element.open = true;
      setOpen(true);
      if (inside) target.scrollIntoView({block: 'start'});
    };
    reveal(hash);
    const onHashChange = () => reveal(window.location.hash);
    // A click on a link to the fragment already in the URL fires no hashchange.
    const onClick = (event: MouseEvent) => {
      const link = event.target instanceof Element ? event.target.closest('a[href^="#"]') : null;
      if (link) reveal(link.getAttribute('href') ?? '');
    };
    const onPrint = () => {
      if (details.current) details.current.open = true;
    };
    window.addEventListener('hashchange', onHashChange);
    document.addEventListener('click', onClick);
    window.addEventListener('beforeprint', onPrint);
    return () => {
      window.removeEventListener('hashchange', onHashChange);
      document.removeEventListener('click', onClick);
      window.removeEventListener('beforeprint', onPrint);
    };
  }, [hash]);

  return (
    <details ref={details} className={styles.fold} open={open} onToggle={(event) => toggled(event.currentTarget.open)} data-fold="">
      <summary className={clsx(buttonClassName({variant: 'quiet', size: 'sm'}), styles.summary)} data-twin-skip="">
        <span className={styles.marker} aria-hidden="true">
          {open ? '▾' : '▸'}
        </span>
        {open ? `Fold “${title}”` : `Show “${title}”`}
      </summary>
      {children}
    </details>
  );
}
