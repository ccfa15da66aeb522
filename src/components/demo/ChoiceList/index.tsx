import type {ReactNode} from 'react';
import clsx from 'clsx';
import styles from './styles.module.css';

/** One option, such as a payment method or a wallet. */
export interface Choice {
  readonly label: string;
  readonly description?: string;
  /** Drawn as the chosen option, with the word "Selected". */
  readonly selected?: boolean;
}

export interface ChoiceListProps {
  /** Accessible name of the list, for example "Payment methods". */
  readonly label: string;
  readonly choices: readonly Choice[];
}

/** A list of options on a mock screen with the chosen one marked in words, not colour alone. */
export default function ChoiceList({label, choices}: ChoiceListProps): ReactNode {
  return (
    <ul className={styles.list} aria-label={label} role="list">
      {choices.map((choice, index) => (
        <li key={`${index}-${choice.label}`} className={clsx(styles.choice, choice.selected && styles.selected)}>
          <span className={styles.mark} aria-hidden="true" />
          <span className={styles.text}>
            <span className={styles.label}>{choice.label}</span>
            {choice.description === undefined ? null : <span className={styles.description}>{choice.description}</span>}
          </span>
          {choice.selected ? <span className={styles.badge}>Selected</span> : null}
        </li>
      ))}
    </ul>
  );
}
