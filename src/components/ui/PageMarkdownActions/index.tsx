import {useEffect, useRef, useState, type ReactNode} from 'react';
import {useLocation} from '@docusaurus/router';
import {buttonClassName} from '../Button';
import styles from './styles.module.css';

/** The twin of a page: /docs/refund -> /docs/refund.md (plugins/content/markdown-twins writes them). */
function twinOf(pathname: string): string {
  const clean = pathname.replace(/\/+$/, '');
  return clean === '' ? '/index.md' : `${clean}.md`;
}

/**
 * One "Page" menu beside the title of a docs or demo page: copy the page as Markdown, view its
 * Markdown twin. A native <details> disclosure, so it opens by keyboard and screen reader without
 * scripts and the first paint already has it in place (it floats right of the title: no shift).
 * Escape and a click elsewhere close it. The copying code loads when the item is pressed.
 */
export default function PageMarkdownActions(): ReactNode {
  const twin = twinOf(useLocation().pathname);
  const [status, setStatus] = useState('');
  const menu = useRef<HTMLDetailsElement>(null);
  useEffect(() => {
    const close = (event: Event) => {
      const details = menu.current;
      if (!details?.open) return;
      if (event instanceof KeyboardEvent) {
        if (event.key !== 'Escape') return;
        details.open = false;
        details.querySelector('summary')?.focus();
      } else if (!details.contains(event.target as Node)) {
        details.open = false;
      }
    };
    document.addEventListener('keydown', close);
    document.addEventListener('click', close);
    return () => {
      document.removeEventListener('keydown', close);
      document.removeEventListener('click', close);
    };
  }, []);
  const copy = async () => {
    setStatus('Copying…');
    const {copyTwin} = await import(/* webpackChunkName: "copy-page" */ './copyTwin');
    setStatus(await copyTwin(twin));
  };
  return (
    <div className={styles.actions} role="group" aria-label="This page as Markdown">
      <details ref={menu} className={styles.menu}>
        <summary className={buttonClassName({variant: 'secondary', size: 'sm', className: styles.summary})}>Page</summary>
        <ul className={styles.items}>
          <li>
            <button
              type="button"
              className={buttonClassName({variant: 'quiet', size: 'sm', className: styles.item})}
              onClick={() => void copy()}
            >
              Copy page as Markdown
            </button>
          </li>
          <li>
            <a className={buttonClassName({variant: 'quiet', size: 'sm', className: styles.item})} href={twin} type="text/markdown">
              View as Markdown
            </a>
          </li>
        </ul>
      </details>
      <span className={styles.status} role="status" aria-live="polite">
        {status}
      </span>
    </div>
  );
}
