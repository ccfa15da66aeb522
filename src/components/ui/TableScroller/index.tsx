import type {ReactNode} from 'react';
import clsx from 'clsx';
import styles from './styles.module.css';

interface Props {
  /** Names the table for screen readers' region list. */
  readonly label: string;
  readonly className?: string;
  /**
   * Below 600 px the rows read as stacked cards (each cell under its column's name, from the cell's
   * data-label) and the box no longer scrolls, so the caption stays in view with the table.
   */
  readonly cardsOnPhone?: boolean;
  readonly children: ReactNode;
}

/**
 * A table's own horizontal scroll box. A table wider than a phone's column then scrolls inside
 * the article instead of widening the whole page (which a mobile browser answers by zooming the
 * page out). Focusable and labelled, so a keyboard user can scroll it too (axe:
 * scrollable-region-focusable); the label names the table for screen readers' region list.
 */
export default function TableScroller({label, className, cardsOnPhone = false, children}: Props): ReactNode {
  const classes = clsx(styles.scroller, cardsOnPhone && styles.cards, className);
  return (
    <div className={classes} tabIndex={0} role="region" aria-label={label}>
      {children}
    </div>
  );
}
