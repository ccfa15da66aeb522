import type {CSSProperties, ReactNode} from 'react';
import clsx from 'clsx';
import styles from './styles.module.css';

/**
 * A grid of information cards (the demo overview's flows, the test accounts page's values). A card is not a
 * control: it has no hover lift and no pointer, and only the links and buttons inside it can be pressed, so
 * nothing looks pressable that is not. `minWidth` is the narrowest a column gets before the grid drops one.
 */
export function CardGrid({
  label,
  minWidth = '17rem',
  className,
  children,
  ...data
}: {
  readonly label: string;
  readonly minWidth?: string;
  readonly className?: string;
  readonly children: ReactNode;
} & Readonly<Record<`data-${string}`, string>>): ReactNode {
  return (
    <ul className={clsx(styles.grid, className)} aria-label={label} style={{'--vx-card-min': minWidth} as CSSProperties} {...data}>
      {children}
    </ul>
  );
}

/** One card: its title, its body (grows, so the actions of a row line up) and its actions at the bottom. */
export function Card({
  title,
  actions,
  children,
}: {
  readonly title?: ReactNode;
  readonly actions?: ReactNode;
  readonly children: ReactNode;
}): ReactNode {
  return (
    <li className={styles.card}>
      {title}
      <div className={styles.body}>{children}</div>
      {actions ? <div className={styles.actions}>{actions}</div> : null}
    </li>
  );
}

/** The class of a card's title heading, whatever its level. */
export const cardTitleClassName = styles.title;
