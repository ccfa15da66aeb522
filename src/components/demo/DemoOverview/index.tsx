import type {ReactNode} from 'react';
import Link from '@docusaurus/Link';
import Badge from '@site/src/components/ui/Badge';
import {Card, CardGrid, cardTitleClassName} from '@site/src/components/ui/CardGrid';
import {demoFlows, demoPage} from '../demoFlows';
import styles from './styles.module.css';

/** The checkout flows side by side, one card each from the one list (demoFlows.ts), each opening its demo. */
export default function DemoOverview(): ReactNode {
  return (
    <CardGrid label="The checkout flows compared">
      {demoFlows.map((flow) => (
        <Card
          key={flow.id}
          title={
            <h3 className={cardTitleClassName} id={`flow-${flow.id}`}>
              {flow.title}
              {flow.live ? <Badge tone="success">Live</Badge> : null}
            </h3>
          }
          actions={
            <Link to={demoPage(flow)} aria-describedby={`flow-${flow.id}`}>
              {flow.live ? 'Open the live demo' : 'Open the demo'}
            </Link>
          }
        >
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
        </Card>
      ))}
    </CardGrid>
  );
}
