import type {ReactNode} from 'react';
import Link from '@docusaurus/Link';
import {demoFlows, demoPage} from '../demoFlows';
import styles from './styles.module.css';

/** The checkout flows side by side, one card each from the one list (demoFlows.ts), each opening its demo. */
export default function DemoOverview(): ReactNode {
  return (
    <ul className={styles.grid} aria-label="The checkout flows compared">
      {demoFlows.map((flow) => (
        <li key={flow.id} className={styles.card}>
          <h3 className={styles.title} id={`flow-${flow.id}`}>
            {flow.title}
            {flow.live ? <span className={styles.badge}>Live</span> : null}
          </h3>
          <dl className={styles.facts}>
            <dt>Scene</dt>
            <dd>
              <code>{flow.scene}</code>
            </dd>
            <dt>The shopper&apos;s device</dt>
            <dd>{flow.device}</dd>
            <dt>Who redirects</dt>
            <dd>{flow.redirects}</dd>
            <dt>Who asks for the result</dt>
            <dd>{flow.polls}</dd>
            <dt>Who waits for the notification</dt>
            <dd>{flow.waits}</dd>
            <dt>The notification that ends it</dt>
            <dd>
              {flow.endsWith.map((event, index) => (
                <span key={event}>
                  {index > 0 ? ' or ' : null}
                  <code>{event}</code>
                </span>
              ))}
            </dd>
          </dl>
          <Link className={styles.open} to={demoPage(flow)} aria-describedby={`flow-${flow.id}`}>
            {flow.live ? 'Open the live demo' : 'Open the demo'}
          </Link>
        </li>
      ))}
    </ul>
  );
}
