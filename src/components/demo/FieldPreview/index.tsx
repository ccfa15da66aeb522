import type {ReactNode} from 'react';
import clsx from 'clsx';
import styles from './styles.module.css';

export interface FieldPreviewProps {
  /** The field's label, for example "Card number". */
  readonly label: string;
  /** What the customer has typed. */
  readonly value: string;
  /** Draw each character as a dot, as a PIN field does; screen readers hear how many were entered. */
  readonly obscured?: boolean;
  /** Monospaced, for card numbers and codes. */
  readonly code?: boolean;
  /** A short hint below the field. */
  readonly hint?: string;
}

/** A form field as it looks once filled in. Drawn only: it is not an input the reader can type into. */
export default function FieldPreview({label, value, obscured = false, code = false, hint}: FieldPreviewProps): ReactNode {
  return (
    <div className={styles.field}>
      <span className={styles.label}>{label}</span>
      <span className={clsx(styles.box, code && styles.code)}>
        {obscured ? (
          <>
            <span aria-hidden="true">{'•'.repeat(value.length)}</span>
            <span className={styles.hidden}>{value.length} characters entered</span>
          </>
        ) : (
          value
        )}
      </span>
      {hint === undefined ? null : <span className={styles.hint}>{hint}</span>}
    </div>
  );
}
