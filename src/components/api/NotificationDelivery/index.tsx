import type {ReactNode} from 'react';
import type {PageOperationView} from '@site/src/contract/apiModel';

/** How the merchant acknowledges a notification and when the provider retries it. */
export default function NotificationDelivery({operation}: {operation: PageOperationView}): ReactNode {
  const delivery = operation.delivery;
  if (!delivery) return null;
  return (
    <div data-section="delivery">
      {delivery.route && (
        <p>
          Sent to: {delivery.route}. {delivery.withoutUrl}
        </p>
      )}
      <p>{delivery.acknowledgement}</p>
      <p>{delivery.summary}</p>
      <ol>
        {delivery.retrySchedule.map((delay, index) => (
          <li key={`${index}-${delay}`}>
            Retry {index + 1}: {delay} after the previous attempt
          </li>
        ))}
      </ol>
    </div>
  );
}
