import {useId, useState, type ReactNode} from 'react';
import Button from '../Button';
import styles from './styles.module.css';

/** Panels the reader opened on this page, by key: kept outside the component, so a re-mount does not close them. */
const opened = new Set<string>();

/**
 * A button that opens a panel below it, closed by default (Try it, the notification simulator). Only the
 * button is in the page; the panel, a lazy widget, is rendered (and its chunk fetched) once it is opened.
 */
export default function PanelOpener({kind, panelKey, openLabel, closeLabel, children}: {
  /** What the panel is (try-it, notification-simulator): named on the wrapper for page styles and tests. */
  kind: string;
  panelKey: string;
  openLabel: string;
  closeLabel: string;
  children: () => ReactNode;
}): ReactNode {
  const id = useId();
  const key = `${kind}:${panelKey}`;
  const [open, setOpen] = useState(() => opened.has(key));
  const toggle = () => {
    if (open) opened.delete(key);
    else opened.add(key);
    setOpen(!open);
  };
  return (
    <div className={styles.wrapper} data-panel={kind}>
      <Button variant="secondary" className={styles.opener} aria-expanded={open} aria-controls={`${id}-panel`} onClick={toggle}>
        {open ? closeLabel : openLabel}
      </Button>
      <div id={`${id}-panel`}>{open ? children() : null}</div>
    </div>
  );
}
