import type {ReactNode} from 'react';
import clsx from 'clsx';
import styles from './styles.module.css';

/** How the panel is drawn: a card, an embedded frame from another site, or a sheet sliding over the page. */
export type ScreenPanelKind = 'card' | 'frame' | 'sheet';

export interface ScreenPanelProps {
  /** Visible label at the top, for example "Payment by Veloxa Pay" or the frame's host. */
  readonly label: string;
  /** Default "card". */
  readonly kind?: ScreenPanelKind;
  readonly children?: ReactNode;
}

/** A labelled part of a mock screen: an embedded cashier frame, a native payment sheet or a printed sign. */
export default function ScreenPanel({label, kind = 'card', children}: ScreenPanelProps): ReactNode {
  return (
    <div className={clsx(styles.panel, styles[kind])}>
      <p className={styles.label}>{label}</p>
      {children}
    </div>
  );
}
