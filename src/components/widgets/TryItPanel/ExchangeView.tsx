import type {ReactNode} from 'react';
import type {TryItMachine, TryItOperation} from '@site/src/lib/tryIt';
import Button from '@site/src/components/ui/Button';
import form from '@site/src/components/ui/WidgetForm/styles.module.css';
import StateDiagram from './StateDiagram';
import styles from './styles.module.css';

export type TargetId = 'browser' | 'local' | 'hosted';
export type ShopperAction = 'pay' | 'decline' | 'expire';

/** One signed call and what came back, as the panel shows it. */
export interface Exchange {
  readonly target: TargetId;
  readonly operation: TryItOperation;
  readonly canonical: string;
  readonly signatureHeader: string;
  readonly rawRequest: string;
  readonly curl: string;
  readonly status: number;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: string;
  readonly json?: {code?: string; message?: string; data?: unknown};
  readonly verified: boolean | undefined;
  readonly problems: readonly string[];
  readonly state?: {machine: string; state: string};
  readonly followUps: readonly {operationId: string; summary: string; values: Record<string, string>}[];
  readonly orderNo?: string;
}

/**
 * The response of a call: status, the checks (signature, contract, state), the state diagram with the current
 * state marked, one-click next steps, and every step of the exchange for a reader to copy.
 */
export default function ExchangeView({
  exchange,
  machines,
  onFollowUp,
  onShopper,
}: {
  exchange: Exchange;
  machines: Readonly<Record<string, TryItMachine>>;
  onFollowUp: (operationId: string, values: Record<string, string>) => void;
  onShopper: (action: ShopperAction, orderNo: string) => void;
}): ReactNode {
  const machine = exchange.state ? machines[exchange.state.machine] : undefined;
  const ok = exchange.status < 300;
  return (
    <div className={styles.exchange}>
      <p className={ok ? form.pass : form.fail}>
        <strong>
          HTTP {exchange.status} {exchange.json?.code ?? ''}
        </strong>
        {exchange.json?.message ? ` ${exchange.json.message}` : ''}
      </p>
      <ul className={styles.checks} aria-label="Checks of the response">
        <li>
          {exchange.verified === undefined
            ? 'The response is not signed.'
            : exchange.verified
              ? 'Its signature verifies with the provider test key.'
              : 'Its signature does NOT verify with the provider test key.'}
        </li>
        <li>
          {exchange.problems.length === 0 ? 'It matches the contract.' : `It does not match the contract: ${exchange.problems.join('; ')}`}
        </li>
        {exchange.state ? (
          <li>
            The {exchange.state.machine.replace(/Status$/, '').toLowerCase()} is now <strong>{exchange.state.state}</strong>.
          </li>
        ) : null}
      </ul>
      {machine && exchange.state ? (
        <div className={styles.states}>
          <p className={styles.statesTitle}>States of {exchange.state.machine}</p>
          <ol aria-label={`States of ${exchange.state.machine}`}>
            {machine.states.map((state) => (
              <li
                key={state.name}
                aria-current={state.name === exchange.state?.state ? 'step' : undefined}
                className={state.name === exchange.state?.state ? styles.current : undefined}
              >
                <code>{state.name}</code>
                {state.terminal ? ' (final)' : ''}
                {state.name === exchange.state?.state
                  ? `: next ${
                      machine.transitions
                        .filter((transition) => transition.from === state.name)
                        .map((transition) => transition.to)
                        .join(', ') || 'nothing, it is final'
                    }`
                  : ''}
              </li>
            ))}
          </ol>
          {/* The list first, so the current state and its next ones read right under the checks; the drawing below. */}
          <StateDiagram name={exchange.state.machine} machine={machine} state={exchange.state.state} />
        </div>
      ) : null}
      {ok && (exchange.orderNo || exchange.followUps.length > 0) ? (
        <div>
          <p className={styles.statesTitle}>Next</p>
          {/* Two groups, each named: what the shopper (or time) does, and the calls your server makes next. */}
          {exchange.orderNo && exchange.state?.state === 'PENDING' ? (
            <div className={styles.nextGroup} role="group" aria-label="As the shopper">
              <p className={styles.groupTitle} aria-hidden="true">
                As the shopper
              </p>
              <div className={styles.buttons}>
                <Button variant="secondary" size="sm" onClick={() => onShopper('pay', exchange.orderNo ?? '')}>
                  Pay as the shopper
                </Button>
                <Button variant="secondary" size="sm" onClick={() => onShopper('decline', exchange.orderNo ?? '')}>
                  Pay with a declined card
                </Button>
                {/* Not offered on the hosted target yet: there a clock move is the merchant's own, signed (hosted.ts); no journey covers it from here. */}
                {exchange.target !== 'hosted' ? (
                  <Button variant="secondary" size="sm" onClick={() => onShopper('expire', exchange.orderNo ?? '')}>
                    Let it expire
                  </Button>
                ) : null}
              </div>
            </div>
          ) : null}
          {exchange.followUps.length > 0 ? (
            <div className={styles.nextGroup} role="group" aria-label="API calls">
              <p className={styles.groupTitle} aria-hidden="true">
                API calls
              </p>
              <div className={styles.buttons}>
                {exchange.followUps.map((followUp) => (
                  <Button
                    key={followUp.operationId}
                    variant="secondary"
                    size="sm"
                    onClick={() => onFollowUp(followUp.operationId, followUp.values)}
                  >
                    {followUp.summary}
                  </Button>
                ))}
              </div>
            </div>
          ) : null}
        </div>
      ) : null}
      <details className={styles.details}>
        <summary>Canonical string and signature</summary>
        <pre tabIndex={0} aria-label="Canonical string">
          {exchange.canonical}
        </pre>
        <pre tabIndex={0} aria-label="X-Signature">
          {exchange.signatureHeader}
        </pre>
      </details>
      <details className={styles.details}>
        <summary>Raw HTTP request</summary>
        <pre tabIndex={0} aria-label="Raw HTTP request">
          {exchange.rawRequest}
        </pre>
      </details>
      <details className={styles.details}>
        <summary>As a curl command that signs (bash and openssl)</summary>
        <pre tabIndex={0} aria-label="curl command">
          {exchange.curl}
        </pre>
      </details>
      <details className={styles.details} open>
        <summary>Response</summary>
        <pre tabIndex={0} aria-label="Response headers">
          {Object.entries(exchange.headers)
            .map(([name, value]) => `${name}: ${value}`)
            .join('\n')}
        </pre>
        <pre tabIndex={0} aria-label="Response body">
          {exchange.json ? JSON.stringify(exchange.json, null, 2) : exchange.body}
        </pre>
      </details>
    </div>
  );
}
