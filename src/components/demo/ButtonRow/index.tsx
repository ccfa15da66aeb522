import type {ReactNode} from 'react';
import clsx from 'clsx';
import styles from './styles.module.css';

/** One button of a mock screen. */
export interface DemoButton {
  /** The button text, for example "Pay 12.50 USD". */
  readonly label: string;
  /** Primary for the main action (default), secondary for the others. */
  readonly variant?: 'primary' | 'secondary';
  /** Drawn as unavailable, for example before a form is complete. */
  readonly disabled?: boolean;
  /**
   * Makes it a real, focusable button. Without a handler the button is only drawn,
   * so static demos have no controls that do nothing.
   */
  readonly onPress?: () => void;
}

export interface ButtonRowProps {
  readonly buttons: readonly DemoButton[];
  /** One button per line, full width, as on a phone. */
  readonly stacked?: boolean;
}

/** The actions at the bottom of a mock screen. */
export default function ButtonRow({buttons, stacked = false}: ButtonRowProps): ReactNode {
  return (
    <div className={clsx(styles.row, stacked && styles.stacked)}>
      {buttons.map((button, index) => {
        const className = clsx(
          styles.button,
          button.variant === 'secondary' ? styles.secondary : styles.primary,
          button.disabled && styles.disabled,
        );
        return button.onPress === undefined ? (
          <span key={`${index}-${button.label}`} className={clsx(className, styles.drawn)}>
            {button.label}
          </span>
        ) : (
          <button key={`${index}-${button.label}`} type="button" className={className} disabled={button.disabled} onClick={button.onPress}>
            {button.label}
          </button>
        );
      })}
    </div>
  );
}
