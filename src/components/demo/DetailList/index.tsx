import type {ReactNode} from 'react';
import clsx from 'clsx';
import styles from './styles.module.css';

/** One labelled value, such as a payment reference or an account number. */
export interface DetailItem {
  readonly term: string;
  readonly value: ReactNode;
  /** Monospaced, for codes and account numbers that are read character by character. */
  readonly code?: boolean;
}

export interface DetailListProps {
  readonly items: readonly DetailItem[];
}

/** Labelled values on a mock screen, as a description list. */
export default function DetailList({items}: DetailListProps): ReactNode {
  return (
    <dl className={styles.list}>
      {items.map((item, index) => (
        <div key={`${index}-${item.term}`} className={styles.item}>
          <dt>{item.term}</dt>
          <dd className={clsx(item.code && styles.code)}>{item.value}</dd>
        </div>
      ))}
    </dl>
  );
}
