import type {ReactNode} from 'react';
import clsx from 'clsx';
import styles from './styles.module.css';

/**
 * A labelled form field: label, the control (an input, select or textarea the caller renders with `id`),
 * a help line and an error line. Give the control `aria-describedby={describedBy(id, …)}` and
 * `aria-invalid` when `error` is set, so both lines are read with it.
 */
export default function Field({
  id,
  label,
  help,
  error,
  errorAlert = false,
  className,
  children,
}: {
  readonly id: string;
  readonly label: ReactNode;
  readonly help?: ReactNode;
  readonly error?: ReactNode;
  /** Announce the error when it appears (an error that follows an action, not typing). */
  readonly errorAlert?: boolean;
  readonly className?: string;
  readonly children: ReactNode;
}): ReactNode {
  return (
    <div className={clsx(styles.field, className)}>
      <label htmlFor={id}>{label}</label>
      {children}
      {help ? (
        <p id={`${id}-help`} className={styles.help}>
          {help}
        </p>
      ) : null}
      {error ? (
        <p id={`${id}-error`} className={styles.error} role={errorAlert ? 'alert' : undefined}>
          {error}
        </p>
      ) : null}
    </div>
  );
}

/** The class of a text input, select or textarea that sits outside a Field but must look like one. */
export const controlClassName = styles.control;

/** The ids of a field's help and error lines that exist, for the control's aria-describedby. */
export function describedBy(id: string, {help, error}: {help?: unknown; error?: unknown}): string | undefined {
  const ids = [help ? `${id}-help` : '', error ? `${id}-error` : ''].filter(Boolean);
  return ids.length > 0 ? ids.join(' ') : undefined;
}
