import type {ReactNode} from 'react';
import styles from './styles.module.css';

/**
 * A table's own horizontal scroll box. A table wider than a phone's column then scrolls inside
 * the article instead of widening the whole page (which a mobile browser answers by zooming the
 * page out). Focusable and labelled, so a keyboard user can scroll it too (axe:
 * scrollable-region-focusable); the label names the table for screen readers' region list.
 */
export default function TableScroller({label, children}: {label: string; children: ReactNode}): ReactNode {
  return (
    <div className={styles.scroller} tabIndex={0} role="region" aria-label={label}>
      {children}
    </div>
  );
}
