import {useCallback, useEffect, useId, useMemo, useRef, useState, type ReactNode} from 'react';
import Link from '@docusaurus/Link';
import {useLocation} from '@docusaurus/router';
import useBaseUrl from '@docusaurus/useBaseUrl';
import Badge, {type Tone} from '@site/src/components/ui/Badge';
import Button from '@site/src/components/ui/Button';
import CopyButton from '@site/src/components/ui/CopyButton';
import type {Check} from '@site/src/components/widgets/SandboxConsole/notificationChecks';
import {renderSamples} from '@site/src/lib/samples';
import {handoverFragment} from '@site/src/lib/signatureDiagnosis/handover';
import {withContentType} from '@site/src/sandbox/client/signing';
import {flows, type FlowId} from './flows';
import {formatMoney, type FlowDefinition, type Outcome} from './flow';
import {
  DemoRun,
  formatClockMove,
  readReplayQuery,
  replayQuery,
  resetRuns,
  type ResetReport,
  type RunView,
  type TimelineEvent,
} from './runner';
import ShopperScreen from './ShopperScreen';
import {browserPorts, machineWith, sandboxData} from './ports';
import box from './styles.module.css';
import styles from './panel/styles.module.css';

/** Reading speed of Play: long enough to read a step's line before the next one. */
const playDelayMs = 1600;

const statusTone = (status: string | undefined): Tone =>
  status === 'PAID' || status === 'SUCCEEDED'
    ? 'success'
    : status === 'CLOSED' || status === 'FAILED'
      ? 'danger'
      : status
        ? 'warning'
        : 'neutral';
const checkTone = (check: Check): Tone => (check.outcome === 'pass' ? 'success' : check.outcome === 'fail' ? 'danger' : 'neutral');

function prettyJson(text: string): string {
  try {
    return JSON.stringify(JSON.parse(text), null, 2);
  } catch {
    return text;
  }
}

/** A notification as the raw HTTP message the signature debugger reads. */
export function rawNotification(entry: {url: string; headers: Readonly<Record<string, string>>; body: string}): string {
  const url = new URL(entry.url);
  return [
    `POST ${url.pathname}${url.search} HTTP/1.1`,
    `Host: ${url.host}`,
    ...Object.entries(entry.headers).map(([name, value]) => `${name}: ${value}`),
    '',
    entry.body,
  ].join('\n');
}

function Machine({title, states, current}: {title: string; states: readonly string[]; current: string | undefined}): ReactNode {
  return (
    <div className={styles.machine}>
      <p className={styles.machineTitle}>{title}</p>
      <ol className={styles.machineStates} aria-label={`${title} states`}>
        {states.map((state) => (
          <li
            key={state}
            className={styles.machineState}
            data-current={state === current}
            aria-current={state === current ? 'step' : undefined}
          >
            {state}
          </li>
        ))}
      </ol>
    </div>
  );
}

function CallDetails({event}: {event: Extract<TimelineEvent, {kind: 'call'}>}): ReactNode {
  const {request, response, verification} = event.call;
  const requestText = [
    `${request.method} ${request.target}`,
    ...Object.entries(withContentType(request)).map(([name, value]) => `${name}: ${value}`),
    '',
    request.body === '' ? '' : prettyJson(request.body),
  ].join('\n');
  const responseText = [
    `HTTP ${response.status}`,
    ...Object.entries(response.headers).map(([name, value]) => `${name}: ${value}`),
    '',
    prettyJson(response.body),
  ].join('\n');
  return (
    <details className={styles.details}>
      <summary>Request, canonical string and response</summary>
      <p className={styles.label}>Signed request</p>
      <pre className={styles.code} tabIndex={0} aria-label="Signed request">
        {requestText}
      </pre>
      <p className={styles.label}>Canonical string the signature covers</p>
      <pre className={styles.code} tabIndex={0} aria-label="Canonical string">
        {request.canonical}
      </pre>
      <p className={styles.label}>
        Response, signature{' '}
        {verification.outcome === 'verified' ? 'verified with the provider test key' : `not verified (${verification.outcome})`}
      </p>
      <pre className={styles.code} tabIndex={0} aria-label="Response">
        {responseText}
      </pre>
    </details>
  );
}

interface EventItemProps {
  readonly event: TimelineEvent;
  readonly debuggerUrl: string;
  /** Has your server ask for a notification again (Redeliver event); absent while the demo is busy. */
  readonly onRedeliver: ((notificationId: string) => void) | undefined;
}

function EventItem({event, debuggerUrl, onRedeliver}: EventItemProps): ReactNode {
  switch (event.kind) {
    case 'call':
      return (
        <>
          <p className={styles.eventLine}>
            <Badge tone="info">Your server</Badge> {event.summary}:{' '}
            <code>{`${event.call.request.method} ${event.call.request.target}`}</code> → <code>{event.code}</code>{' '}
            <Badge tone={event.call.verification.outcome === 'verified' ? 'success' : 'danger'}>
              {event.call.verification.outcome === 'verified' ? 'response signature verified' : 'response signature not verified'}
            </Badge>
          </p>
          <CallDetails event={event} />
        </>
      );
    case 'notification': {
      const parsed = JSON.parse(event.entry.body) as {eventType?: string};
      const {checked} = event;
      return (
        <>
          <p className={styles.eventLine}>
            <Badge tone="info">Notification</Badge> <code>{parsed.eventType}</code> reached <code>{event.entry.url}</code>
            {event.again ? (
              <>
                {' '}
                <Badge tone="warning">delivered again</Badge> The same notificationId as before, newly signed: your handler answers 200 and
                does not act twice.
              </>
            ) : null}
          </p>
          <ul className={styles.checks} aria-label="Checks your handler makes">
            {[checked.signature, checked.timestamp, checked.clientId, checked.body].map((check) => (
              <li key={check.text}>
                <Badge tone={checkTone(check)}>
                  {check.outcome === 'pass' ? 'pass' : check.outcome === 'fail' ? 'fail' : 'not checked'}
                </Badge>{' '}
                {check.text}
              </li>
            ))}
          </ul>
          <details className={styles.details}>
            <summary>The notification as received</summary>
            <pre className={styles.code} tabIndex={0} aria-label="Notification">
              {rawNotification(event.entry).replace(event.entry.body, prettyJson(event.entry.body))}
            </pre>
          </details>
          <p className={styles.eventLine}>
            <Link to={`${debuggerUrl}${handoverFragment('notification', rawNotification(event.entry))}`}>
              Open this notification in the signature debugger
            </Link>
          </p>
          {event.again ? null : (
            <p className={styles.eventLine}>
              <Button
                size="sm"
                onClick={() => onRedeliver?.(checked.notificationId)}
                disabled={!onRedeliver}
                aria-label={`Deliver again: ${parsed.eventType ?? 'this notification'}`}
              >
                Deliver again
              </Button>{' '}
              <span className={styles.small}>Your server calls Redeliver event, as you would to test duplicate handling.</span>
            </p>
          )}
        </>
      );
    }
    case 'state':
      return (
        <p className={styles.eventLine}>
          <Badge tone="neutral">State</Badge> {event.object}:{' '}
          {event.from ? <Badge tone={statusTone(event.from)}>{event.from}</Badge> : 'new'} →{' '}
          <Badge tone={statusTone(event.to)}>{event.to}</Badge>
        </p>
      );
    case 'message':
      return (
        <p className={styles.eventLine}>
          <Badge tone="neutral">{event.between}</Badge> <code>{event.channel}</code>:{' '}
          <code className={styles.wrap}>{JSON.stringify(event.data)}</code>
        </p>
      );
    case 'clock':
      return (
        <p className={styles.eventLine}>
          <Badge tone="warning">Sandbox clock +{formatClockMove(event.seconds)}</Badge> {event.text} Sandbox time is now{' '}
          <code>{event.now}</code>; everything pending in your sandbox aged with it.
        </p>
      );
    case 'setting':
      return (
        <p className={styles.eventLine}>
          <Badge tone="warning">Sandbox setting</Badge> {event.text}
        </p>
      );
    case 'shopper':
      return (
        <p className={styles.eventLine}>
          <Badge tone="neutral">Customer</Badge> {event.text}
        </p>
      );
    case 'note':
      return (
        <p className={styles.eventLine}>
          <Badge tone="neutral">Your server</Badge> {event.text}
        </p>
      );
    case 'refused':
      return (
        <p className={styles.eventLine}>
          <Badge tone="danger">Sandbox refused</Badge> {event.text}
        </p>
      );
  }
}

function CopyAsCode({event}: {event: Extract<TimelineEvent, {kind: 'call'}> | undefined}): ReactNode {
  const id = useId();
  const [language, setLanguage] = useState('curl');
  const samples = useMemo(() => {
    if (!event) return [];
    const {request} = event.call;
    let body: unknown;
    try {
      body = request.body === '' ? undefined : JSON.parse(request.body);
    } catch {
      body = undefined;
    }
    return renderSamples({
      kind: 'request',
      operationId: event.operationId,
      summary: event.summary,
      method: request.method,
      pathWithQuery: request.target.replace(/^\/v1/, ''),
      requestTarget: request.target,
      pathParameters: [],
      body: body as never,
      generated: [],
    });
  }, [event]);
  if (!event) return <p className={styles.small}>The code of each call appears here once your server has made it.</p>;
  const sample = samples.find((candidate) => candidate.language === language) ?? samples[0];
  if (!sample) return null;
  return (
    <div className={styles.copy}>
      <div className={styles.copyHead}>
        <label htmlFor={`${id}-language`}>Copy {event.summary} as</label>
        <select id={`${id}-language`} value={sample.language} onChange={(change) => setLanguage(change.target.value)}>
          {samples.map((candidate) => (
            <option key={candidate.language} value={candidate.language}>
              {candidate.label}
            </option>
          ))}
        </select>
        <CopyButton value={sample.code} label={`Copy ${event.summary} in ${sample.label}`} copiedText={`${sample.label} copied`} />
      </div>
      <pre className={styles.code} tabIndex={0} aria-label={`${event.summary} in ${sample.label}`} data-testid="copy-as-code">
        {sample.code}
      </pre>
    </div>
  );
}

/** What the status line says before a step that moves the sandbox clock. */
export const clockWarning = (seconds: number): string =>
  `This step moves your sandbox clock ${formatClockMove(seconds)} forward: it is the one clock of this browser’s sandbox, so every pending order, refund and notification retry in it ages with it.`;

/** What a reset did, in one line. */
export function resetSentence(report: ResetReport): string {
  const did = [
    ...(report.cancelled.length > 0
      ? [`cancelled ${report.cancelled.length === 1 ? 'order' : 'orders'} ${report.cancelled.join(', ')}`]
      : []),
    ...(report.restored.length > 0 ? [`set ${report.restored.join(' and ')}`] : []),
  ];
  const undone =
    did.length > 0 ? `Reset ${did.join(' and ')}.` : 'Reset found nothing of this demo to undo: no open order, no changed setting.';
  return [undone, 'The sandbox clock stays where it is: sandbox time only goes forward.', ...report.problems].join(' ');
}

type PanelState = {status: 'starting'} | {status: 'failed'; message: string} | {status: 'ready'; view: RunView};

/**
 * The live demo of one flow: the shopper's device beside "your server", an outcome chooser from the sandbox
 * data, Play, Step, Restart and Reset, and a timeline of calls, states, frame messages and notifications.
 * Every action is a real call to the in-browser sandbox.
 */
export default function LivePanel({flow, autoPlay}: {flow: FlowId; autoPlay: boolean}): ReactNode {
  const definition: FlowDefinition = flows[flow];
  const outcomes = useMemo(() => definition.outcomes(sandboxData), [definition]);
  const first = outcomes[0];
  if (!first)
    return (
      <p className={box.failed} role="alert">
        This build’s sandbox data defines no payment outcomes, so this demo cannot run; the steps below explain the flow.
      </p>
    );
  return <Panel flow={definition} autoPlay={autoPlay} outcomes={outcomes} defaultOutcome={first} />;
}

function Panel({
  flow,
  autoPlay,
  outcomes,
  defaultOutcome,
}: {
  flow: FlowDefinition;
  autoPlay: boolean;
  outcomes: readonly Outcome[];
  defaultOutcome: Outcome;
}): ReactNode {
  const id = useId();
  const providerKeyUrl = useBaseUrl('/test-vectors/provider-test-public.pem');
  const debuggerUrl = useBaseUrl('/docs/signature-debugger');
  const consoleUrl = useBaseUrl('/docs/sandbox-console');
  const {pathname} = useLocation();
  const replay = useMemo(
    () => (typeof window === 'undefined' ? {} : readReplayQuery(window.location.search, flow.id, outcomes)),
    [flow, outcomes],
  );
  const [outcome, setOutcome] = useState<Outcome>(() => replay.outcome ?? defaultOutcome);
  const [amount, setAmount] = useState<number | undefined>(replay.amount);
  const [state, setState] = useState<PanelState>({status: 'starting'});
  const [playing, setPlaying] = useState(false);
  const [busy, setBusy] = useState(false);
  const [resetReport, setResetReport] = useState<ResetReport | undefined>(undefined);
  const run = useRef<DemoRun | undefined>(undefined);
  const runs = useRef<DemoRun[]>([]);

  /** A new run over fresh ports (another tab's change restarts the sandbox); state is set only once they are there. */
  const open = useCallback(
    (chosen: Outcome, chosenAmount: number | undefined) =>
      browserPorts(providerKeyUrl).then(
        (ports) => {
          const fresh = new DemoRun(ports, flow, chosen, chosenAmount);
          run.current = fresh;
          runs.current.push(fresh);
          setState({status: 'ready', view: fresh.view()});
          return fresh;
        },
        (error: unknown) => {
          setState({status: 'failed', message: error instanceof Error ? error.message : String(error)});
          return undefined;
        },
      ),
    [flow, providerKeyUrl],
  );
  const begin = (chosen: Outcome, chosenAmount: number | undefined) => {
    setState({status: 'starting'});
    void open(chosen, chosenAmount);
  };

  useEffect(() => {
    // A replay link restores its run at once (to the end); Play replays it at reading speed after Restart.
    void open(outcome, amount).then(async (fresh) => {
      if (!fresh || !autoPlay) return;
      setBusy(true);
      const view = await fresh.runToEnd();
      if (run.current === fresh) setState({status: 'ready', view});
      setBusy(false);
    });
    // Only on mount: later runs start from the controls.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  const step = useCallback(
    async (typedAmount?: number) => {
      const current = run.current;
      if (!current || current.finished) return;
      setBusy(true);
      if (typedAmount !== undefined) {
        const entered = current.enterAmount(typedAmount, outcomes);
        setOutcome(entered.outcome);
        setAmount(entered.amount);
      }
      const view = await current.step();
      if (run.current === current) setState({status: 'ready', view});
      setBusy(false);
    },
    [outcomes],
  );

  useEffect(() => {
    if (!playing || busy || state.status !== 'ready') return undefined;
    if (run.current?.finished) {
      setPlaying(false);
      return undefined;
    }
    const timer = setTimeout(() => void step(), state.view.next === 0 ? 300 : playDelayMs);
    return () => clearTimeout(timer);
  }, [playing, busy, state, step]);

  const redeliver = (notificationId: string) => {
    const current = run.current;
    if (!current) return;
    setBusy(true);
    void current.redeliver(notificationId).then((view) => {
      if (run.current === current) setState({status: 'ready', view});
      setBusy(false);
    });
  };
  const choose = (next: Outcome) => {
    setResetReport(undefined);
    setOutcome(next);
    setAmount(undefined);
    setPlaying(false);
    begin(next, undefined);
  };
  const restart = () => {
    setResetReport(undefined);
    setPlaying(false);
    begin(outcome, amount);
  };
  const reset = async () => {
    setPlaying(false);
    setBusy(true);
    const report = await resetRuns(runs.current);
    runs.current = [];
    setResetReport(report);
    setBusy(false);
    if (typeof window !== 'undefined' && window.location.search)
      window.history.replaceState(null, '', window.location.pathname + window.location.hash);
    setOutcome(defaultOutcome);
    setAmount(undefined);
    begin(defaultOutcome, undefined);
  };

  if (state.status === 'failed') {
    return (
      <p className={box.failed} role="alert">
        The in-browser sandbox could not start here ({state.message}), so this demo cannot run; the steps below explain the flow.
      </p>
    );
  }
  const view = state.status === 'ready' ? state.view : undefined;
  const orderMachine = machineWith('PENDING', 'PAID', 'CLOSED');
  const refundMachine = machineWith('PROCESSING', 'SUCCEEDED', 'FAILED');
  const lastCall = view
    ? [...view.events].reverse().find((event): event is Extract<TimelineEvent, {kind: 'call'}> => event.kind === 'call')
    : undefined;
  const nextStep = view?.steps[view.next];
  const finished = view !== undefined && view.next >= view.steps.length;
  const link = view ? `${pathname}${replayQuery(view)}` : '';
  return (
    <div
      className={styles.panel}
      data-testid="live-demo"
      data-state={finished ? 'finished' : 'running'}
      data-order-status={view?.orderStatus ?? ''}
      data-screen={view?.screen.name ?? ''}
    >
      <div className={styles.controls}>
        <div className={styles.chooser}>
          <label htmlFor={`${id}-outcome`} className={styles.label}>
            Outcome
          </label>
          <select
            id={`${id}-outcome`}
            value={outcome.id}
            onChange={(change) => choose(outcomes.find((candidate) => candidate.id === change.target.value) ?? outcome)}
            disabled={busy}
          >
            {outcomes.map((candidate) => (
              <option key={candidate.id} value={candidate.id}>
                {candidate.label}
              </option>
            ))}
          </select>
          <p className={styles.small} id={`${id}-test-value`}>
            Test value: <strong>{outcome.testValue}</strong>
            {view ? ` (this run: ${formatMoney(view.amount, flow.currency)})` : ''}. {outcome.summary}
          </p>
        </div>
        <div className={styles.buttons}>
          <Button variant="primary" onClick={() => setPlaying(!playing)} disabled={!view || finished}>
            {playing ? 'Pause' : 'Play'}
          </Button>
          <Button onClick={() => void step()} disabled={!view || busy || playing || finished}>
            Step
          </Button>
          <Button onClick={restart} disabled={busy}>
            Restart
          </Button>
          <Button variant="quiet" onClick={() => void reset()} disabled={busy}>
            Reset
          </Button>
        </div>
      </div>
      <p className={styles.status} role="status" aria-live="polite">
        {!view
          ? 'Starting the in-browser sandbox…'
          : view.error
            ? `This step could not run: ${view.error}`
            : finished
              ? flow.orderless
                ? `Finished: ${view.screen.title}.`
                : `Finished: ${view.orders.length > 0 ? `order ${view.orders.at(-1) ?? ''} is ${view.orderStatus ?? 'unknown'}` : 'no order was created'}${view.refundStatus ? `, the refund ${view.refundStatus}` : ''}.`
              : `Next: ${nextStep?.title ?? ''}.${nextStep?.clockSeconds ? ` ${clockWarning(nextStep.clockSeconds)}` : ''}`}
      </p>
      {resetReport ? (
        <p className={styles.small} data-testid="live-demo-reset">
          {resetSentence(resetReport)}
        </p>
      ) : null}
      {view ? (
        <>
          <div className={styles.sides}>
            <section className={styles.side} aria-labelledby={`${id}-shopper`}>
              <h4 id={`${id}-shopper`} className={styles.sideTitle}>
                {flow.deviceLabel}
              </h4>
              <ShopperScreen
                key={`${view.merchantOrderNo}-${view.screen.name}`}
                screen={view.screen}
                amount={view.amount}
                onAct={(typed) => void step(typed)}
                canAct={!finished}
                busy={busy || playing}
              />
            </section>
            <section className={styles.side} aria-labelledby={`${id}-server`}>
              <h4 id={`${id}-server`} className={styles.sideTitle}>
                Your server
              </h4>
              <ol className={styles.steps}>
                {view.steps.map((candidate, index) => (
                  <li key={candidate.title} data-status={candidate.status} aria-current={index === view.next ? 'step' : undefined}>
                    <Badge tone={candidate.status === 'done' ? 'success' : candidate.status === 'failed' ? 'danger' : 'neutral'}>
                      {candidate.status === 'done'
                        ? 'done'
                        : candidate.status === 'failed'
                          ? 'failed'
                          : index === view.next
                            ? 'next'
                            : 'waiting'}
                    </Badge>{' '}
                    {candidate.title}
                    {candidate.clockSeconds ? (
                      <>
                        {' '}
                        <Badge tone="warning">moves the sandbox clock {formatClockMove(candidate.clockSeconds)}</Badge>
                      </>
                    ) : null}
                  </li>
                ))}
              </ol>
              {orderMachine && !flow.orderless ? (
                <Machine
                  title={`Order ${view.orders.at(-1) ?? view.merchantOrderNo}`}
                  states={orderMachine.states.map((candidate) => candidate.name)}
                  current={view.orderStatus}
                />
              ) : null}
              {refundMachine && view.outcome.kind === 'refund' ? (
                <Machine title="Refund" states={refundMachine.states.map((candidate) => candidate.name)} current={view.refundStatus} />
              ) : null}
              <CopyAsCode event={lastCall} />
            </section>
          </div>
          <section aria-labelledby={`${id}-timeline`}>
            <h4 id={`${id}-timeline`} className={styles.sideTitle}>
              Timeline: calls, states, messages and notifications
            </h4>
            {view.events.length === 0 ? (
              <p className={styles.small}>Nothing has happened yet. Press Play, Step, or the button on the customer’s screen.</p>
            ) : (
              <ol className={styles.timeline} data-testid="live-demo-timeline">
                {view.events.map((event) => (
                  <li key={event.id} data-kind={event.kind}>
                    <EventItem event={event} debuggerUrl={debuggerUrl} onRedeliver={busy || playing ? undefined : redeliver} />
                  </li>
                ))}
              </ol>
            )}
            <p className={styles.small}>
              Every order here is in this browser’s sandbox: see it in the <Link to={consoleUrl}>sandbox console</Link>, or link to this
              run: <Link to={link}>{link}</Link>. Reset cancels this demo’s open orders, puts back any setting the demo changed, and starts
              again; the rest of your sandbox stays as it is. Reset does not turn the sandbox clock back: sandbox time only goes forward,
              and your other pending orders and retries keep the time the demo added.
            </p>
          </section>
        </>
      ) : null}
    </div>
  );
}
