import type {ReactNode} from 'react';
import CodeSpans from '@site/src/components/ui/CodeSpans';
import {formatSeconds} from '@site/src/lib/sandboxDataText';
import type {PaymentEndingRule, SandboxPageData, UnansweredVariant} from '@site/src/sandbox/engine/rules/types';
import OutcomeText, {EventList, OperationName, after} from '../OutcomeText';
import SandboxTable, {requireSandboxData} from '../SandboxTable';
import styles from './styles.module.css';

type Data = SandboxPageData<'payments' | 'refunds' | 'payouts' | 'clientReadTimeoutSeconds'>;

interface Props {
  readonly data: Data;
  /** Which amount decides: the order's, the refund's or the payout's. */
  readonly flow: 'payments' | 'refunds' | 'payouts';
  /** Two columns (ending, what happens), for the demos; the full table otherwise. */
  readonly brief?: boolean;
}

function EndingCell({ending, isDefault}: {ending: string; isDefault: boolean}): ReactNode {
  return (
    <th scope="row">
      <code>{ending}</code>
      {isDefault ? <span className={styles.note}>and any ending not listed</span> : null}
    </th>
  );
}

function Variant({label, variant}: {label: string; variant: UnansweredVariant}): ReactNode {
  return (
    <p className={styles.variant}>
      <span className={styles.label}>{label}:</span> <CodeSpans text={variant.description} />
    </p>
  );
}

/** The order's path for a payment rule, in statuses. */
function OrderPath({rule}: {rule: PaymentEndingRule}): ReactNode {
  switch (rule.kind) {
    case 'REJECTED':
      return 'No order is created.';
    case 'DECLINED':
      return (
        <>
          <code>PENDING</code>, <code>lastAttempt</code> <code>FAILED</code> with <code>{rule.failureCode}</code>
        </>
      );
    case 'UNANSWERED':
      return (
        <>
          {rule.payer ? (
            <>
              <code>PENDING</code>, then <code>{rule.payer.orderStatus}</code> (<code>{rule.payer.closeReason}</code>)
            </>
          ) : null}
          {rule.createOrder ? (
            <>
              ; in Create order scenes <code>PROCESSING</code>, then <code>{rule.createOrder.orderStatus}</code> (
              <code>{rule.createOrder.closeReason}</code>)
            </>
          ) : null}
        </>
      );
    case 'FAILED':
      return (
        <>
          <code>PROCESSING</code>, then <code>{rule.orderStatus}</code>, <code>lastAttempt</code> <code>FAILED</code> with{' '}
          <code>{rule.failureCode}</code>
        </>
      );
    default: {
      if (rule.at === 'CREATE_ORDER') {
        return (
          <>
            As for <code>{rule.then}</code>
          </>
        );
      }
      return (rule.processingSeconds ?? 0) > 0 ? (
        <>
          <code>PROCESSING</code>, then <code>{rule.orderStatus}</code>
        </>
      ) : (
        <code>{rule.orderStatus}</code>
      );
    }
  }
}

function PaymentEvents({rule, data}: {rule: PaymentEndingRule; data: Data}): ReactNode {
  if (rule.kind === 'UNANSWERED') {
    return (
      <>
        <EventList events={rule.payer?.events ?? []} />; in Create order scenes <EventList events={rule.createOrder?.events ?? []} />
      </>
    );
  }
  if (rule.at === 'CREATE_ORDER' && rule.then !== undefined) {
    const target = data.payments.endings.rules.find((candidate) => candidate.ending === rule.then);
    return <EventList events={target?.events ?? []} />;
  }
  return <EventList events={rule.events ?? []} />;
}

function PaymentTiming({rule, data}: {rule: PaymentEndingRule; data: Data}): ReactNode {
  if (rule.kind === 'REJECTED') return 'In the call';
  if (rule.kind === 'UNANSWERED') {
    return (
      <>
        At the order&apos;s <code>expiresAt</code>
      </>
    );
  }
  if (rule.responseDelaySeconds !== undefined) {
    return `Response after ${formatSeconds(rule.responseDelaySeconds)}; a ${data.clientReadTimeoutSeconds}-second read timeout trips first`;
  }
  const seconds = rule.processingSeconds ?? 0;
  return seconds === 0 ? 'At once' : `After ${formatSeconds(seconds)}`;
}

function PaymentOutcome({rule, data}: {rule: PaymentEndingRule; data: Data}): ReactNode {
  if (rule.kind === 'REJECTED') {
    return (
      <>
        <strong>Rejected in the call</strong>: <OperationName id={rule.operation ?? 'createOrder'} operations={data.operations} /> answers{' '}
        <code>{rule.resultCode}</code>. Nothing is created or sent, and the merchant order number stays free.
      </>
    );
  }
  return (
    <>
      <CodeSpans text={rule.summary} />
      {rule.kind === 'UNANSWERED' ? (
        <>
          {rule.payer ? <Variant label="Payer scenes" variant={rule.payer} /> : null}
          {rule.createOrder ? <Variant label="QR_PAY and DIRECT_PAY" variant={rule.createOrder} /> : null}
        </>
      ) : null}
    </>
  );
}

function Payments({data, brief}: {data: Data; brief: boolean}): ReactNode {
  const {rules, default: fallback} = data.payments.endings;
  const caption = 'Payments: the last two digits of the order amount, in minor units';
  if (brief) {
    return (
      <SandboxTable label="Payment amount endings" caption={caption} columns={['Amount ends in', 'What happens']}>
        {rules.map((rule) => (
          <tr key={rule.ending}>
            <EndingCell ending={rule.ending} isDefault={rule.ending === fallback} />
            <td>
              <CodeSpans text={rule.summary} />
            </td>
          </tr>
        ))}
      </SandboxTable>
    );
  }
  return (
    <SandboxTable
      label="Payment amount endings"
      caption={caption}
      columns={['Amount ends in', 'Outcome', 'Order', 'Notifications', 'When']}
    >
      {rules.map((rule) => (
        <tr key={rule.ending} data-ending={rule.ending}>
          <EndingCell ending={rule.ending} isDefault={rule.ending === fallback} />
          <td>
            <PaymentOutcome rule={rule} data={data} />
          </td>
          <td>
            <OrderPath rule={rule} />
          </td>
          <td>
            <PaymentEvents rule={rule} data={data} />
          </td>
          <td>
            <PaymentTiming rule={rule} data={data} />
          </td>
        </tr>
      ))}
    </SandboxTable>
  );
}

function Refunds({data}: {data: Data}): ReactNode {
  const {rules, default: fallback} = data.refunds.endings;
  return (
    <SandboxTable
      label="Refund amount endings"
      caption="Refunds: the last two digits of the refund amount"
      columns={['Refund ends in', 'Outcome', 'Applies to']}
    >
      {rules.map((rule) => (
        <tr key={rule.ending} data-ending={rule.ending}>
          <EndingCell ending={rule.ending} isDefault={rule.ending === fallback} />
          <td>
            <OutcomeText outcome={rule} operations={data.operations} operation="refundOrder" />
          </td>
          <td>{rule.origins?.includes('REVOKE') === false ? 'Refund order only' : 'Refund order, and the refunds Revoke order creates'}</td>
        </tr>
      ))}
    </SandboxTable>
  );
}

function Payouts({data}: {data: Data}): ReactNode {
  const {rules, default: fallback} = data.payouts.endings;
  const {products} = data.payouts;
  return (
    <SandboxTable
      label="Payout amount endings"
      caption="Wallet transfers, bank transfers and card payouts: the last two digits of the payout amount"
      columns={['Payout ends in', 'Outcome']}
    >
      {rules.map((rule) => (
        <tr key={rule.ending} data-ending={rule.ending}>
          <EndingCell ending={rule.ending} isDefault={rule.ending === fallback} />
          <td>
            {rule.kind === 'REJECTED' ? (
              <OutcomeText outcome={{...rule, operations: products.map((product) => product.operation)}} operations={data.operations} />
            ) : (
              <>
                <OutcomeText
                  outcome={{...rule, processingSeconds: rule.processingSeconds ?? 0}}
                  operations={data.operations}
                  events={products.map((product) => product.events[rule.status ?? 'SUCCEEDED'])}
                  eventsJoin="or"
                />
                {rule.processingSeconds === undefined ? (
                  <span className={styles.note}>
                    The payee decides the delay:{' '}
                    {products
                      .map(
                        (product, index) => `${index > 0 ? ', ' : ''}${product.product.toLowerCase()} ${after(product.processingSeconds)}`,
                      )
                      .join('')}{' '}
                    by default.
                  </span>
                ) : null}
              </>
            )}
          </td>
        </tr>
      ))}
    </SandboxTable>
  );
}

/** The amount endings of one flow, from api/sandbox.yaml. */
export default function SandboxEndings({data: given, flow, brief = false}: Props): ReactNode {
  const data = requireSandboxData(given, 'SandboxEndings');
  if (flow === 'refunds') return <Refunds data={data} />;
  if (flow === 'payouts') return <Payouts data={data} />;
  return <Payments data={data} brief={brief} />;
}
