import {loadBrowserHost, loadSchemaChecks} from '@site/src/sandbox/hosts/browser/load';
import {useId, useReducer, useRef, type ReactNode} from 'react';
import Link from '@docusaurus/Link';
import useBaseUrl from '@docusaurus/useBaseUrl';
import notificationsJson from '@generated/sandbox-engine/notifications.json';
import {importPublicKey} from '@site/src/lib/signing';
import {verifyNotification} from '@site/src/sandbox/client/signing';
import type {NotificationSimulatorData} from '@site/src/lib/notificationCatalogue';
import {localSandboxMissing, localSandboxOrigin, localSandboxStart} from '@site/src/lib/tryIt';
import type {DeliveryLogEntry} from '@site/src/sandbox/engine/engine';
import {fieldErrors} from '@site/src/components/ui/WidgetForm/fieldErrors';
import form from '@site/src/components/ui/WidgetForm/styles.module.css';
import Button from '@site/src/components/ui/Button';
import {
  checkSimulatorInput,
  errorText,
  initialSimulatorState,
  localDeliveryOf,
  producedOf,
  simulatorReducer,
  type LocalDelivery,
  type Produced,
} from './model';
import styles from './styles.module.css';

// The wildcard @generated/* declaration of @docusaurus/module-type-aliases types it any; this is its shape.
const simulatorData = notificationsJson as NotificationSimulatorData;
const loadHost = loadBrowserHost;
/** The compiled validators alone: checking the data before anything runs never needs the engine. */
const loadValidators = loadSchemaChecks;

/**
 * The notification simulator: produces a real notification of one of the contract's example scenarios in the
 * in-browser sandbox (the same engine path as a real event, signed with the provider test key), shows it as
 * the reader's endpoint would receive it, checks it the way the endpoint must (signature, timestamp window,
 * contract), and gives the commands, and a button, to have the local sandbox deliver it to the reader's own
 * endpoint, with the delivery log.
 */
export default function NotificationSimulatorPanel({
  operationId,
  scenarios: scenarioNames,
}: {
  operationId: string;
  scenarios?: readonly string[];
}): ReactNode {
  const id = useId();
  const providerKeyUrl = useBaseUrl('/test-vectors/provider-test-public.pem');
  const webhook = simulatorData.webhooks.find((candidate) => candidate.operationId === operationId);
  const scenarios = webhook ? webhook.scenarios.filter((scenario) => !scenarioNames || scenarioNames.includes(scenario.name)) : [];
  const [state, dispatch] = useReducer(simulatorReducer, undefined, () => initialSimulatorState(scenarios[0], simulatorData.notifyUrl));
  const {scenarioName, data, notifyUrl, errors, outcome, local, copied} = state;
  const providerKey = useRef<CryptoKey | undefined>(undefined);

  if (!webhook || scenarios.length === 0) return <p role="alert">The simulator has no notification {operationId}: rebuild the site.</p>;
  const scenario = scenarios.find((candidate) => candidate.name === scenarioName) ?? scenarios[0];
  if (!scenario) return null;
  const eventType = String((scenario.value as {eventType?: unknown}).eventType);

  const publishedProviderKey = async () => {
    providerKey.current ??= await importPublicKey(await (await fetch(providerKeyUrl)).text());
    return providerKey.current;
  };

  /** The edited data and URL, checked against the contract field by field; undefined when something is wrong. */
  const check = async (): Promise<{data: unknown; notifyUrl: string} | undefined> => {
    const {schemaProblems} = await loadValidators();
    const {errors: found, checked} = checkSimulatorInput(
      {data, notifyUrl},
      {eventType, now: new Date(), problems: (notification) => schemaProblems(webhook.bodySchemaPointer, notification)},
    );
    dispatch({type: 'checked', errors: found});
    return checked;
  };

  const produce = async () => {
    dispatch({type: 'produceStarted'});
    const checked = await check();
    if (!checked) return;
    try {
      const sandbox = await (await loadHost()).browserSandbox();
      const result = await sandbox.simulateNotification({
        operationId,
        scenario: scenario.name,
        data: checked.data,
        notifyUrl: checked.notifyUrl,
      });
      if (!result.ok) throw new Error(result.message);
      const {simulated, delivery} = result.value;
      const signatureVerifies =
        (await verifyNotification(delivery, {key: await publishedProviderKey(), keyVersion: sandbox.engine.providerKey.keyVersion}))
          .outcome === 'verified';
      const {schemaProblems} = await loadValidators();
      dispatch({
        type: 'produced',
        produced: producedOf({
          operationId,
          scenario,
          checked,
          simulated,
          delivery,
          signatureVerifies,
          problems: schemaProblems(webhook.bodySchemaPointer, JSON.parse(delivery.body)),
          now: new Date(),
          windowSeconds: simulatorData.timestampWindowSeconds,
          clientId: simulatorData.clientId,
          localOrigin: localSandboxOrigin,
        }),
      });
    } catch (error) {
      dispatch({type: 'produceFailed', message: errorText(error)});
    }
  };

  const deliverLocally = async (request: Produced['localRequest']) => {
    dispatch({type: 'local', local: {status: 'delivering'}});
    let answer: Response;
    try {
      answer = await fetch(`${localSandboxOrigin}/_sandbox/notifications/simulate`, {
        method: 'POST',
        headers: {'Content-Type': 'application/json'},
        body: JSON.stringify({clientId: simulatorData.clientId, ...request}),
      });
    } catch {
      dispatch({type: 'local', local: {status: 'failed', message: localSandboxMissing('deliver again')}});
      return;
    }
    try {
      const json = (await answer.json()) as {notificationId?: string; code?: string; message?: string};
      // The log is read only for a notification the sandbox raised.
      const log =
        answer.ok && json.notificationId
          ? ((await (
              await fetch(`${localSandboxOrigin}/_sandbox/notifications?clientId=${encodeURIComponent(simulatorData.clientId)}`)
            ).json()) as {deliveries?: DeliveryLogEntry[]})
          : undefined;
      dispatch({type: 'local', local: localDeliveryOf({ok: answer.ok, status: answer.status, json}, log)});
    } catch (error) {
      dispatch({type: 'local', local: {status: 'failed', message: `The local sandbox refused it: ${errorText(error)}`}});
    }
  };

  const copy = async (label: string, text: string) => {
    try {
      await navigator.clipboard.writeText(text);
      dispatch({type: 'copied', text: `${label} copied.`});
    } catch {
      dispatch({type: 'copied', text: `The browser did not allow copying: select the ${label.toLowerCase()} and copy it yourself.`});
    }
  };

  const {error: fieldError, described} = fieldErrors(id, errors);

  return (
    <section className={styles.panel} aria-label="Notification simulator">
      <p className={form.privacy}>
        The notification is made and signed in this browser, with the provider test key that is published for the sandbox. Your data and URL
        stay on this page; only &quot;Deliver&quot; below sends them, to your own local sandbox.
      </p>
      <form
        onSubmit={(event) => {
          event.preventDefault();
          void produce();
        }}
      >
        <div className={form.field}>
          <label htmlFor={`${id}-scenario`}>Scenario (an example of the contract)</label>
          <select
            id={`${id}-scenario`}
            value={scenario.name}
            onChange={(event) => {
              const next = scenarios.find((candidate) => candidate.name === event.target.value);
              dispatch({type: 'scenarioChosen', name: event.target.value, example: next?.value});
            }}
          >
            {scenarios.map((candidate) => (
              <option key={candidate.name} value={candidate.name}>
                {candidate.summary} ({String((candidate.value as {eventType?: unknown}).eventType)})
              </option>
            ))}
          </select>
        </div>
        <div className={form.field}>
          <label htmlFor={`${id}-data`}>
            The notification&apos;s <code>data</code> (JSON, prefilled from the example)
          </label>
          <textarea
            id={`${id}-data`}
            className={styles.code}
            rows={Math.min(16, data.split('\n').length + 1)}
            spellCheck={false}
            value={data}
            onChange={(event) => dispatch({type: 'dataEdited', data: event.target.value})}
            {...described('data')}
          />
          {fieldError('data')}
        </div>
        <div className={form.field}>
          <label htmlFor={`${id}-notifyUrl`}>Notify URL (your endpoint)</label>
          <input
            id={`${id}-notifyUrl`}
            type="url"
            autoComplete="off"
            spellCheck={false}
            value={notifyUrl}
            onChange={(event) => dispatch({type: 'notifyUrlEdited', notifyUrl: event.target.value})}
            {...described('notifyUrl', `${id}-notifyUrl-hint`)}
          />
          <p id={`${id}-notifyUrl-hint`} className={styles.hint}>
            Its path and query are part of what is signed: the second line of the canonical string.{' '}
            {simulatorData.notifyUrlIsDefault
              ? 'It starts as the test merchant\u2019s default notification URL.'
              : 'The test merchant has no default notification URL, so this starts as the contract\u2019s example one.'}
          </p>
          {fieldError('notifyUrl')}
        </div>
        <Button type="submit" variant="primary" disabled={outcome.status === 'running'}>
          Produce signed notification
        </Button>
      </form>
      <div aria-live="polite" className={styles.result}>
        {outcome.status === 'running' ? <p>Producing…</p> : null}
        {outcome.status === 'failed' ? (
          <p role="alert" className={form.fieldError}>
            {outcome.message}
          </p>
        ) : null}
        {outcome.status === 'produced' ? (
          <ProducedView
            produced={outcome.produced}
            local={local}
            copied={copied}
            windowSeconds={simulatorData.timestampWindowSeconds}
            onCopy={(label, text) => void copy(label, text)}
            onDeliver={() => void deliverLocally(outcome.produced.localRequest)}
          />
        ) : null}
      </div>
    </section>
  );
}

function ProducedView({
  produced,
  local,
  copied,
  windowSeconds,
  onCopy,
  onDeliver,
}: {
  produced: Produced;
  local: LocalDelivery;
  copied: string;
  windowSeconds: number;
  onCopy: (label: string, text: string) => void;
  onDeliver: () => void;
}): ReactNode {
  const allPass = produced.signatureVerifies && produced.timestampFresh && produced.problems.length === 0;
  return (
    <div className={styles.produced}>
      <p className={allPass ? form.pass : form.fail}>
        <strong>{produced.eventType}</strong> {produced.notificationId}, delivered to the inbox of the sandbox in this browser.
      </p>
      <ul className={styles.checks} aria-label="Checks of the notification">
        <li>
          {produced.signatureVerifies
            ? 'The signature verifies with the published provider key (provider-test-public.pem).'
            : 'The signature does NOT verify with the published provider key.'}
        </li>
        <li>
          {produced.timestampFresh
            ? `X-Timestamp ${produced.timestamp} is within the ${windowSeconds}-second window of this browser's clock.`
            : `X-Timestamp ${produced.timestamp} is outside the ${windowSeconds}-second window of this browser's clock (the sandbox clock in this browser was moved on): an endpoint would refuse it.`}
        </li>
        <li>
          {produced.problems.length === 0
            ? 'The body matches the contract.'
            : `The body does not match the contract: ${produced.problems.join('; ')}`}
        </li>
      </ul>
      <div>
        <div className={styles.heading}>
          <h3 className={styles.subheading}>The request your endpoint receives</h3>
          <Button variant="secondary" size="sm" onClick={() => onCopy('The request', produced.rawRequest)}>
            Copy the request
          </Button>
        </div>
        <pre tabIndex={0} aria-label="Raw HTTP request" className={styles.pre}>
          {produced.rawRequest}
        </pre>
        <p className={styles.hint} role="status">
          {copied}
        </p>
      </div>
      <details className={styles.details}>
        <summary>Canonical string (what the signature covers)</summary>
        <pre tabIndex={0} aria-label="Canonical string" className={styles.pre}>
          {produced.canonical}
        </pre>
      </details>
      <div>
        <h3 className={styles.subheading}>Deliver it to your endpoint</h3>
        <p>
          Start the <Link to="/docs/local-sandbox">local sandbox</Link>, downloaded from this portal, with <code>{localSandboxStart}</code>.
          It produces the same notification, with a fresh ID and signature, and POSTs it to your notify URL; then read its delivery log:
        </p>
        <pre tabIndex={0} aria-label="curl command to deliver" className={styles.pre}>
          {produced.commands.simulate}
        </pre>
        <pre tabIndex={0} aria-label="curl command for the delivery log" className={styles.pre}>
          {produced.commands.log}
        </pre>
        <Button variant="secondary" disabled={local.status === 'delivering'} onClick={onDeliver}>
          Deliver through the local sandbox
        </Button>
        <div aria-live="polite" className={styles.result}>
          {local.status === 'delivering' ? <p>Delivering…</p> : null}
          {local.status === 'failed' ? (
            <p role="alert" className={form.fieldError}>
              {local.message}
            </p>
          ) : null}
          {local.status === 'delivered' ? <DeliveryLog notificationId={local.notificationId} entries={local.entries} /> : null}
        </div>
      </div>
    </div>
  );
}

function DeliveryLog({notificationId, entries}: {notificationId: string; entries: readonly DeliveryLogEntry[]}): ReactNode {
  if (entries.length === 0)
    return <p>The local sandbox raised {notificationId} but has no delivery attempt for it yet: read the log again in a moment.</p>;
  return (
    <div>
      <p className={styles.logTitle}>Delivery log of {notificationId}</p>
      <ol aria-label="Delivery log" className={styles.log}>
        {entries.map((entry) => (
          <li key={`${entry.at}-${entry.url}`}>
            {entry.at}: POST {entry.url}: {entry.httpStatus !== undefined ? `HTTP ${entry.httpStatus}, ` : ''}
            <strong>{entry.acknowledged ? 'acknowledged' : `not acknowledged (${entry.error ?? 'no reason given'})`}</strong>
          </li>
        ))}
      </ol>
    </div>
  );
}
