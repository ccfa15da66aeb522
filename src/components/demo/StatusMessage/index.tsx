import type {ReactNode} from 'react';
import clsx from 'clsx';
import styles from './styles.module.css';

/** What the message reports; the wording says it too, the colour and icon only repeat it. */
export type StatusTone = 'success' | 'error' | 'pending' | 'warning' | 'info';

export interface StatusMessageProps {
  readonly tone: StatusTone;
  /** The main line, for example "Payment successful". */
  readonly title: string;
  /** Details below the title. */
  readonly children?: ReactNode;
  /**
   * Announce changes to screen readers (role="status"). Leave off on static pages,
   * turn on when a live demo updates the message.
   */
  readonly live?: boolean;
}

const iconPaths: Record<StatusTone, string> = {
  success: 'M5 10.5l3 3 7-7',
  error: 'M6 6l8 8M14 6l-8 8',
  pending: 'M10 5v5l3 2',
  warning: 'M10 5v6M10 14v1',
  info: 'M10 9v6M10 5v1',
};

/** A result or progress message inside a mock screen. */
export default function StatusMessage({tone, title, children, live = false}: StatusMessageProps): ReactNode {
  return (
    <div className={clsx(styles.status, styles[tone])} role={live ? 'status' : undefined}>
      <svg className={styles.icon} viewBox="0 0 20 20" width="20" height="20" aria-hidden="true" focusable="false">
        <circle cx="10" cy="10" r="9" />
        <path d={iconPaths[tone]} />
      </svg>
      <div className={styles.body}>
        <p className={styles.title}>{title}</p>
        {children === undefined ? null : <div className={styles.details}>{children}</div>}
      </div>
    </div>
  );
}
