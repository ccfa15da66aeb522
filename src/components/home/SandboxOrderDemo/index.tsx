import {useState, type ReactNode} from 'react';
import useIsBrowser from '@docusaurus/useIsBrowser';
import useBaseUrl from '@docusaurus/useBaseUrl';
import Button from '@site/src/components/ui/Button';
import Badge, {type Tone} from '@site/src/components/ui/Badge';
import type {DemoEvent} from './run';
import styles from './styles.module.css';

type Events = Partial<{[Step in DemoEvent['step']]: Extract<DemoEvent, {step: Step}>}>;
type RunState = {readonly status: 'idle' | 'running' | 'done'} | {readonly status: 'failed'; readonly message: string};

/** The engine, the contract's Try it data and this flow, in a chunk of their own: nothing of it is in the home page's first load. */
const loadRunner = () => import(/* webpackChunkName: "home-sandbox-order" */ './run');

const stateTone = (state: string): Tone =>
  state === 'PAID' ? 'success' : state === 'PENDING' || state === 'PROCESSING' ? 'warning' : state === 'CLOSED' ? 'danger' : 'neutral';

function requestText(request: Extract<DemoEvent, {step: 'request'}>['request']): string {
  const headers = Object.entries(request.headers).map(([name, value]) => `${name}: ${value}`);
  return [`${request.method} ${request.target}`, ...headers, '', JSON.stringify(JSON.parse(request.body), null, 2)].join('\n');
}

function prettyJson(text: string): string {
  try {
    return JSON.stringify(JSON.parse(text), null, 2);
  } catch {
    return text;
  }
}

/** One step of the flow: a fixed-height box, so the panel keeps its size from first paint to the end. */
function Step({index, title, done, children}: {index: number; title: string; done: boolean; children: ReactNode}): ReactNode {
  return (
    <li className={styles.step} data-done={done} data-step={index}>
      <p className={styles.stepTitle}>
        <span className={styles.stepNumber} aria-hidden="true">
          {index}
        </span>
        {title}
      </p>
      <div className={styles.stepBody}>{children}</div>
    </li>
  );
}

/**
 * The home page's live example: one press creates a signed order as the sandbox's test merchant in this
 * browser, pays it as the shopper and shows the signed notification arriving and verifying.
 */
export default function SandboxOrderDemo(): ReactNode {
  const providerKeyUrl = useBaseUrl('/test-vectors/provider-test-public.pem');
  const [events, setEvents] = useState<Events>({});
  const [run, setRun] = useState<RunState>({status: 'idle'});
  // Disabled until hydrated: a press before React is listening would be lost without a word.
  const ready = useIsBrowser();

  const start = async () => {
    setEvents({});
    setRun({status: 'running'});
    try {
      const {runSandboxOrder} = await loadRunner();
      await runSandboxOrder(providerKeyUrl, (event) => setEvents((current) => ({...current, [event.step]: event})));
      setRun({status: 'done'});
    } catch (error) {
      setRun({status: 'failed', message: error instanceof Error ? error.message : String(error)});
    }
  };

  const {request, response, paid, notification} = events;
  /** The first step without its result: where a failed run stopped. */
  const stoppedAt = [request, response, paid, notification].findIndex((event) => !event) + 1;
  /**
   * What a step will show, in its box until it runs, so the four boxes read as the flow before anything happens.
   * A failed run says why in the box of the step it stopped at, so no line of the panel is kept empty for it.
   */
  const waiting = (index: number, preview: string) =>
    run.status === 'failed' && index === stoppedAt ? (
      <span className={styles.waiting} data-failed="">
        The sandbox could not finish: {run.message}
      </span>
    ) : (
      <span className={styles.waiting}>{run.status === 'running' ? 'Working…' : preview}</span>
    );
  return (
    <section className={styles.panel} aria-labelledby="sandbox-order-title" data-run={run.status}>
      <div className={styles.head}>
        <div>
          <h2 id="sandbox-order-title" className={styles.title}>
            Try it now: a real signed order
          </h2>
          <p className={styles.lede}>Runs in this browser against the sandbox engine. No account, nothing sent anywhere.</p>
        </div>
        <Button variant="primary" onClick={() => void start()} disabled={!ready || run.status === 'running'}>
          {run.status === 'done' || run.status === 'failed'
            ? 'Create another sandbox order'
            : run.status === 'running'
              ? 'Creating and paying…'
              : 'Create a sandbox order'}
        </Button>
      </div>
      {/* Read out by screen readers; on screen the button and the four steps show the same progress. */}
      <p className="sr-only" role="status">
        {run.status === 'running'
          ? 'Creating and paying a sandbox order…'
          : run.status === 'done'
            ? 'Done: the order is paid and its notification verified.'
            : run.status === 'failed'
              ? `The sandbox could not finish: ${run.message}`
              : ''}
      </p>
      <ol className={styles.steps}>
        <Step index={1} title="Your server signs Create order" done={Boolean(request)}>
          {request ? (
            <pre className={styles.code} tabIndex={0} aria-label="The signed request">
              {requestText(request.request)}
            </pre>
          ) : (
            waiting(1, 'POST /v1/orders with X-Client-Id, X-Timestamp, X-Nonce and X-Signature, signed with the test merchant key')
          )}
        </Step>
        <Step index={2} title="Veloxa Pay answers, signed" done={Boolean(response)}>
          {response ? (
            <>
              <p className={styles.line}>
                HTTP {response.status} · <code>{response.code}</code> · order{' '}
                <Badge tone={stateTone(response.state)}>{response.state}</Badge>
              </p>
              <pre className={styles.code} tabIndex={0} aria-label="The response body">
                {prettyJson(response.body)}
              </pre>
            </>
          ) : (
            waiting(2, 'HTTP 200, code SUCCESS, the order PENDING with its cashier URL, signed by Veloxa Pay')
          )}
        </Step>
        <Step index={3} title="The shopper pays" done={Boolean(paid)}>
          {paid ? (
            <p className={styles.line} data-testid="order-states">
              Test card {paid.card}:{' '}
              {paid.states.map((state, position) => (
                <span key={state} className={styles.transition}>
                  {position > 0 ? <span aria-label="then">→</span> : null} <Badge tone={stateTone(state)}>{state}</Badge>
                </span>
              ))}
            </p>
          ) : (
            waiting(3, 'The shopper pays with a sandbox test card: PENDING → PAID')
          )}
        </Step>
        <Step index={4} title="Your endpoint receives the signed notification" done={Boolean(notification)}>
          {notification ? (
            <>
              <p className={styles.line} data-testid="notification-checks">
                <code>{notification.eventType}</code>{' '}
                <Badge tone={notification.signatureVerifies ? 'success' : 'danger'}>
                  {notification.signatureVerifies ? 'signature verifies' : 'signature does not verify'}
                </Badge>{' '}
                <Badge tone={notification.timestampFresh ? 'success' : 'warning'}>
                  {notification.timestampFresh ? 'timestamp fresh' : 'timestamp stale'}
                </Badge>
              </p>
              <pre className={styles.code} tabIndex={0} aria-label="The notification">
                {[
                  `POST ${notification.notification.url}`,
                  ...Object.entries(notification.notification.headers).map(([name, value]) => `${name}: ${value}`),
                  '',
                  prettyJson(notification.notification.body),
                ].join('\n')}
              </pre>
            </>
          ) : (
            waiting(4, 'ORDER.PAID arrives, and its signature is checked with the provider public key')
          )}
        </Step>
      </ol>
    </section>
  );
}
