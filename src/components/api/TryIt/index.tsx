import {useId, useState, type ReactNode} from 'react';
import LazyTryItPanel from '@site/src/components/widgets/TryItPanel/Lazy';
import styles from './styles.module.css';

/** Panels the reader opened on this page: kept outside the component, so a re-mount does not close them. */
const opened = new Set<string>();

/**
 * The closed Try it panel of an operation page, inserted by the contract's remark plugin. Only this button
 * is in the page; the panel, the sandbox engine and the validators load when the reader opens it.
 */
export default function TryIt({operationId, summary}: {operationId: string; summary: string}): ReactNode {
  const id = useId();
  const [open, setOpen] = useState(() => opened.has(operationId));
  const toggle = () => {
    if (open) opened.delete(operationId);
    else opened.add(operationId);
    setOpen(!open);
  };
  return (
    <div className={styles.tryIt}>
      <button type="button" className={`button button--outline button--primary ${styles.opener}`} aria-expanded={open} aria-controls={`${id}-panel`} onClick={toggle}>
        {open ? 'Close Try it' : `Try ${summary} in the sandbox`}
      </button>
      <div id={`${id}-panel`}>{open ? <LazyTryItPanel operationId={operationId} /> : null}</div>
    </div>
  );
}
