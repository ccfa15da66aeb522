import {useState, type ReactNode} from 'react';
import {useLocation} from '@docusaurus/router';
import Button, {buttonClassName} from '../Button';
import styles from './styles.module.css';

/** The twin of a page: /docs/refund -> /docs/refund.md (plugins/content/markdown-twins writes them). */
function twinOf(pathname: string): string {
  const clean = pathname.replace(/\/+$/, '');
  return clean === '' ? '/index.md' : `${clean}.md`;
}

/**
 * "View as Markdown" and "Copy page" at the top of a docs or demo page. The link is plain; the
 * copying code loads when the button is pressed, so the page's first load carries only this markup.
 */
export default function PageMarkdownActions(): ReactNode {
  const twin = twinOf(useLocation().pathname);
  const [status, setStatus] = useState('');
  const copy = async () => {
    setStatus('Copying…');
    const {copyTwin} = await import(/* webpackChunkName: "copy-page" */ './copyTwin');
    setStatus(await copyTwin(twin));
  };
  return (
    <div className={styles.actions} role="group" aria-label="This page as Markdown">
      <Button variant="quiet" size="sm" onClick={() => void copy()}>
        Copy page
      </Button>
      <a className={buttonClassName({variant: 'quiet', size: 'sm'})} href={twin} type="text/markdown">
        View as Markdown
      </a>
      <span className={styles.status} role="status" aria-live="polite">
        {status}
      </span>
    </div>
  );
}
