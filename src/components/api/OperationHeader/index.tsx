import type {ReactNode} from 'react';
import type {PageOperationView} from '@site/src/contract/apiModel';
import MethodBadge from '../MethodBadge';
import styles from './styles.module.css';

/** Method, path on both hosts and the operation's description. */
/** The path as sent, including the server's base path (/v1). */
function fullPath(operation: PageOperationView): string {
  const first = operation.servers[0];
  return first ? `${new URL(first.url).pathname.replace(/\/$/, '')}${operation.path}` : operation.path;
}

export default function OperationHeader({operation}: {operation: PageOperationView}): ReactNode {
  const isWebhook = operation.kind === 'webhook';
  return (
    <section className={styles.header} aria-label={isWebhook ? 'Notification' : 'Endpoint'} data-operation-id={operation.operationId}>
      <p className={styles.endpoint}>
        <MethodBadge method={operation.method} />
        <code className={styles.path}>{isWebhook ? 'your notification URL' : fullPath(operation)}</code>
      </p>
      {isWebhook ? (
        <p className={styles.hosts}>
          Sent by the provider to the <code>notifyUrl</code> of the object, or to the default notification URL set in the
          merchant dashboard. Operation ID <code>{operation.operationId}</code>.
        </p>
      ) : (
        <dl className={styles.hosts}>
          {operation.servers.map((server) => (
            <div key={server.url} className={styles.host}>
              <dt>{server.description}</dt>
              <dd>
                <code>{`${server.url}${operation.path}`}</code>
              </dd>
            </div>
          ))}
          <div className={styles.host}>
            <dt>Operation ID</dt>
            <dd>
              <code>{operation.operationId}</code>
            </dd>
          </div>
        </dl>
      )}
      <div className={styles.description} dangerouslySetInnerHTML={{__html: operation.descriptionHtml}} />
    </section>
  );
}
