import type {ReactNode} from 'react';
import clsx from 'clsx';
import styles from './styles.module.css';

/** What a badge or a callout means; the colour follows it, never the other way round. */
export type Tone = 'neutral' | 'info' | 'success' | 'warning' | 'danger';

/** A short label: a state (PENDING, PAID), a method (POST), a finding's weight. Text, not colour alone, carries the meaning. */
export default function Badge({
  tone = 'neutral',
  className,
  children,
}: {
  readonly tone?: Tone;
  readonly className?: string;
  readonly children: ReactNode;
}): ReactNode {
  return <span className={clsx(styles.badge, styles[tone], className)}>{children}</span>;
}
