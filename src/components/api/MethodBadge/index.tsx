import type {ReactNode} from 'react';
import clsx from 'clsx';
import styles from './styles.module.css';

/** An operation's HTTP method as a coloured label (POST, GET, DELETE), the same on the endpoint block and in the reference. */
export default function MethodBadge({method}: {readonly method: string}): ReactNode {
  return <span className={clsx(styles.method, styles[method.toLowerCase()])}>{method.toUpperCase()}</span>;
}
