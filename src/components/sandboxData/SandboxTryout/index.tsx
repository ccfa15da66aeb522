import {loadBrowserHost} from '@site/src/sandbox/hosts/browser/load';
import {useState, type ReactNode} from 'react';
import Button from '@site/src/components/ui/Button';
import styles from './styles.module.css';

/** One call or action of the walk-through, as the reader sees it. */
interface Step {
  readonly label: string;
  readonly outcome: string;
}

type State =
  | {readonly status: 'idle'}
  | {readonly status: 'running'; readonly steps: readonly Step[]}
  | {readonly status: 'done'; readonly steps: readonly Step[]; readonly orders: number}
  | {readonly status: 'failed'; readonly message: string};

/** Loads the sandbox engine (its own chunk, a few dozen kB) only when the reader asks for it. */
const loadSandbox = () => loadBrowserHost().then((module) => module.browserSandbox());

/**
 * Runs a payment through the sandbox engine inside this page: Create order, the shopper pays, a partial
 * refund, the clock moves on, and the notifications arrive in an inbox. State stays in this browser
 * (IndexedDB), so a reload keeps the orders; Reset empties it.
 */
export default function SandboxTryout(): ReactNode {
  const [state, setState] = useState<State>({status: 'idle'});

  const run = async () => {
    const steps: Step[] = [];
    const record = (label: string, outcome: string) => {
      steps.push({label, outcome});
      setState({status: 'running', steps: [...steps]});
    };
    setState({status: 'running', steps});
    try {
      const sandbox = await loadSandbox();
      const merchantOrderNo = `ORD-${Date.now()}`;
      const created = await sandbox.call('POST', '/v1/orders', {
        merchantOrderNo,
        amount: {value: 2500, currency: 'USD'},
        scene: 'HOSTED_PAYPAGE',
        subject: 'Sandbox walk-through',
        returnUrl: 'https://shop.example.com/return',
        notifyUrl: 'https://shop.example.com/payments/notify',
      });
      record(
        `POST /v1/orders ${merchantOrderNo}`,
        `HTTP ${created.status} ${created.json.code}, order ${(created.json.data as {order?: {status?: string}} | undefined)?.order?.status ?? '?'}`,
      );
      const card = sandbox.fixtures.payingCard;
      const paid = await sandbox.target.act('shopper.pay', {clientId: sandbox.clientId, merchantOrderNo, method: 'CARD', cardNumber: card});
      record(
        `The shopper pays with test card ${card}`,
        paid.ok ? `order ${(paid.value as {status: string}).status}` : `${paid.code}: ${paid.message}`,
      );
      const refund = await sandbox.call('POST', `/v1/orders/${merchantOrderNo}/refunds`, {
        merchantRefundNo: `RFD-${Date.now()}`,
        amount: {value: 500, currency: 'USD'},
      });
      record(
        `POST /v1/orders/${merchantOrderNo}/refunds (5.00 USD)`,
        `HTTP ${refund.status} ${refund.json.code}, refund ${(refund.json.data as {status?: string} | undefined)?.status ?? '?'}`,
      );
      await sandbox.target.act('clock.advance', {seconds: 5});
      const order = await sandbox.call('GET', `/v1/orders/${merchantOrderNo}`);
      record(
        'The sandbox clock moves on 5 seconds; GET the order',
        `order ${(order.json.data as {status?: string} | undefined)?.status ?? '?'}`,
      );
      const events = sandbox.inbox.slice(-3).map((entry) => (JSON.parse(entry.body) as {eventType: string}).eventType);
      record("Notifications in this page's inbox, signed with the provider test key", events.join(', ') || 'none');
      setState({status: 'done', steps: [...steps], orders: sandbox.engine.snapshot(sandbox.clientId)?.orders.length ?? 0});
    } catch (error) {
      setState({status: 'failed', message: `The sandbox could not run: ${error instanceof Error ? error.message : String(error)}`});
    }
  };

  const reset = async () => {
    try {
      const sandbox = await loadSandbox();
      await sandbox.target.act('control.reset', {});
      setState({status: 'done', steps: [{label: 'Reset', outcome: 'the sandbox in this browser is empty again'}], orders: 0});
    } catch (error) {
      setState({status: 'failed', message: `Reset failed: ${error instanceof Error ? error.message : String(error)}`});
    }
  };

  return (
    <section className={styles.tryout} aria-label="Sandbox in your browser">
      <div className={styles.actions}>
        <Button variant="primary" onClick={() => void run()} disabled={state.status === 'running'}>
          Run a payment in your browser
        </Button>
        <Button variant="quiet" onClick={() => void reset()} disabled={state.status === 'running'}>
          Reset the browser sandbox
        </Button>
      </div>
      <div aria-live="polite">
        {state.status === 'failed' ? <p className={styles.error}>{state.message}</p> : null}
        {state.status === 'running' || state.status === 'done' ? (
          <ol className={styles.steps}>
            {state.steps.map((step) => (
              <li key={step.label}>
                {step.label}: <strong>{step.outcome}</strong>
              </li>
            ))}
          </ol>
        ) : null}
        {state.status === 'done' ? <p>Orders in this browser&apos;s sandbox: {state.orders}</p> : null}
      </div>
    </section>
  );
}
