import type {ReactNode} from 'react';
import clsx from 'clsx';
import type {Tone} from '../Badge';
import styles from './styles.module.css';

/**
 * A boxed message inside a widget: a result, a finding, a notice. `title` is its first line in bold.
 * `live` makes it a polite live region (a result that appears after an action); leave it off for static notes.
 * In prose pages use the theme's admonitions (:::note) instead: they follow the same tokens.
 */
export default function Callout({
  tone = 'info',
  title,
  live = false,
  className,
  children,
}: {
  readonly tone?: Tone;
  readonly title?: ReactNode;
  readonly live?: boolean;
  readonly className?: string;
  readonly children?: ReactNode;
}): ReactNode {
  return (
    <div className={clsx(styles.callout, styles[tone], className)} role={live ? 'status' : undefined} data-tone={tone}>
      {title ? <p className={styles.title}>{title}</p> : null}
      {children}
    </div>
  );
}
