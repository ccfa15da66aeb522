import {useId, useState, type ReactNode} from 'react';
import LazyNotificationSimulatorPanel from '@site/src/components/widgets/NotificationSimulatorPanel/Lazy';
import styles from './styles.module.css';

/** Simulators the reader opened on this page: kept outside the component, so a re-mount does not close them. */
const opened = new Set<string>();

/**
 * The closed notification simulator of a notification page, inserted by the contract's remark plugin. Only
 * this button is in the page; the panel, the sandbox engine and the validators load when the reader opens it.
 */
export default function NotificationSimulator({operationId, summary, scenarios}: {operationId: string; summary: string; scenarios: readonly string[]}): ReactNode {
  const id = useId();
  const [open, setOpen] = useState(() => opened.has(operationId));
  const toggle = () => {
    if (open) opened.delete(operationId);
    else opened.add(operationId);
    setOpen(!open);
  };
  return (
    <div className={styles.simulator}>
      <button type="button" className={`button button--outline button--primary ${styles.opener}`} aria-expanded={open} aria-controls={`${id}-panel`} onClick={toggle}>
        {open ? 'Close the simulator' : `Simulate a ${summary.replace(/^[A-Z](?=[a-z])/, (first) => first.toLowerCase())}`}
      </button>
      <div id={`${id}-panel`}>{open ? <LazyNotificationSimulatorPanel operationId={operationId} scenarios={scenarios} /> : null}</div>
    </div>
  );
}
