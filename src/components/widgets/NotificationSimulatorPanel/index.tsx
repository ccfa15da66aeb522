import {useId, useRef, useState, type ReactNode} from 'react';
import Link from '@docusaurus/Link';
import useBaseUrl from '@docusaurus/useBaseUrl';
import notificationsJson from '@generated/sandbox-engine/notifications.json';
import {importPublicKey, isTimestampFresh} from '@site/src/lib/signing';
import {notificationCanonical, verifyNotification} from '@site/src/sandbox/client/signing';
import {localSimulateCommands, rawNotificationRequest, type NotificationSimulatorData} from '@site/src/lib/notificationSimulator';
import {localSandboxMissing, localSandboxOrigin, localSandboxStart} from '@site/src/lib/tryIt';
import type {DeliveryLogEntry} from '@site/src/sandbox/engine/engine';
import {fieldErrors} from '@site/src/components/ui/WidgetForm/fieldErrors';
import form from '@site/src/components/ui/WidgetForm/styles.module.css';
import Button from '@site/src/components/ui/Button';
import styles from './styles.module.css';

// The wildcard @generated/* declaration of @docusaurus/module-type-aliases types it any; this is its shape.
const simulatorData = notificationsJson as NotificationSimulatorData;
const loadHost = () => import('@site/src/sandbox/browser/host');
/** The compiled validators alone: checking the data before anything runs never needs the engine. */
const loadValidators = () => import('@site/src/sandbox/browser/schemaProblems');

/** A notificationId of the right shape, for checking edited data inside a whole notification before the real one is made. */
const probeNotificationId = 'ntf_00000000000000000000';

interface Produced {
  readonly notificationId: string;
  readonly eventType: string;
  readonly notifyUrl: string;
  readonly rawRequest: string;
  readonly canonical: string;
  readonly signatureVerifies: boolean;
  readonly timestamp: string;
  readonly timestampFresh: boolean;
  readonly problems: readonly string[];
  readonly commands: {readonly simulate: string; readonly log: string};
  /** What the local sandbox is asked for, the same as the commands. */
  readonly localRequest: {readonly operationId: string; readonly scenario: string; readonly notifyUrl: string; readonly data?: unknown};
}

type Outcome = {readonly status: 'idle'} | {readonly status: 'running'} | {readonly status: 'produced'; readonly produced: Produced} | {readonly status: 'failed'; readonly message: string};

type LocalDelivery =
  | {readonly status: 'idle'}
  | {readonly status: 'delivering'}
  | {readonly status: 'delivered'; readonly notificationId: string; readonly entries: readonly DeliveryLogEntry[]}
  | {readonly status: 'failed'; readonly message: string};

function exampleData(value: unknown): string {
  const data = (value as {data?: unknown} | null)?.data;
  return JSON.stringify(data ?? {}, null, 2);
}

function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/**
 * The notification simulator: produces a real notification of one of the contract's example scenarios in the
 * in-browser sandbox (the same engine path as a real event, signed with the provider test key), shows it as
 * the reader's endpoint would receive it, checks it the way the endpoint must (signature, timestamp window,
 * contract), and gives the commands, and a button, to have the local sandbox deliver it to the reader's own
 * endpoint, with the delivery log.
 */
export default function NotificationSimulatorPanel({operationId, scenarios: scenarioNames}: {operationId: string; scenarios?: readonly string[]}): ReactNode {
  const id = useId();
  const providerKeyUrl = useBaseUrl('/test-vectors/provider-test-public.pem');
  const webhook = simulatorData.webhooks.find((candidate) => candidate.operationId === operationId);
  const scenarios = webhook ? webhook.scenarios.filter((scenario) => !scenarioNames || scenarioNames.includes(scenario.name)) : [];
  const [scenarioName, setScenarioName] = useState(scenarios[0]?.name ?? '');
  const [data, setData] = useState(() => exampleData(scenarios[0]?.value));
  const [notifyUrl, setNotifyUrl] = useState(simulatorData.notifyUrl);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [outcome, setOutcome] = useState<Outcome>({status: 'idle'});
  const [local, setLocal] = useState<LocalDelivery>({status: 'idle'});
  const [copied, setCopied] = useState('');
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
    const found: Record<string, string> = {};
    let parsed: unknown;
    try {
      parsed = JSON.parse(data);
      if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) found['data'] = 'The data must be a JSON object, such as the example: { "merchantOrderNo": … }.';
      else {
        const {schemaProblems} = await loadValidators();
        const problems = schemaProblems(webhook.bodySchemaPointer, {notificationId: probeNotificationId, eventType, createdAt: new Date().toISOString().replace(/\.\d{3}Z$/, 'Z'), data: parsed});
        if (problems.length) found['data'] = `The contract refuses this data:\n${problems.map((problem) => `• ${problem}`).join('\n')}`;
      }
    } catch (error) {
      found['data'] = `The data is not valid JSON: ${errorText(error)}.`;
    }
    const url = notifyUrl.trim();
    try {
      if (!/^https?:$/.test(new URL(url).protocol)) found['notifyUrl'] = 'The notify URL must start with https:// (or http:// for an endpoint on your machine).';
    } catch {
      found['notifyUrl'] = 'The notify URL must be a whole URL, such as https://shop.example.com/payments/notify.';
    }
    setErrors(found);
    return Object.keys(found).length ? undefined : {data: parsed, notifyUrl: url};
  };

  const produce = async () => {
    setLocal({status: 'idle'});
    const checked = await check();
    if (!checked) {
      setOutcome({status: 'idle'});
      return;
    }
    setOutcome({status: 'running'});
    try {
      const sandbox = await (await loadHost()).browserSandbox();
      const result = await sandbox.simulateNotification({operationId, scenario: scenario.name, data: checked.data, notifyUrl: checked.notifyUrl});
      if (!result.ok) throw new Error(result.message);
      const {simulated, delivery} = result.value;
      const headers = delivery.headers;
      const timestamp = headers['X-Timestamp'] ?? '';
      const canonical = notificationCanonical(delivery);
      const signatureVerifies = (await verifyNotification(delivery, {key: await publishedProviderKey(), keyVersion: sandbox.engine.providerKey.keyVersion})).outcome === 'verified';
      const {schemaProblems} = await loadValidators();
      const edited = JSON.stringify(checked.data) !== JSON.stringify((scenario.value as {data?: unknown}).data);
      const localRequest = {operationId, scenario: scenario.name, notifyUrl: checked.notifyUrl, ...(edited ? {data: checked.data} : {})};
      setOutcome({
        status: 'produced',
        produced: {
          notificationId: simulated.notificationId,
          eventType: simulated.eventType,
          notifyUrl: delivery.url,
          rawRequest: rawNotificationRequest(delivery.url, headers, delivery.body),
          canonical,
          signatureVerifies,
          timestamp,
          timestampFresh: isTimestampFresh(timestamp, new Date(), simulatorData.timestampWindowSeconds),
          problems: schemaProblems(webhook.bodySchemaPointer, JSON.parse(delivery.body)),
          commands: localSimulateCommands(localSandboxOrigin, {clientId: simulatorData.clientId, ...localRequest}),
          localRequest,
        },
      });
    } catch (error) {
      setOutcome({status: 'failed', message: `The sandbox in this browser could not produce it: ${errorText(error)}`});
    }
  };

  const deliverLocally = async (request: Produced['localRequest']) => {
    setLocal({status: 'delivering'});
    let answer: Response;
    try {
      answer = await fetch(`${localSandboxOrigin}/_sandbox/notifications/simulate`, {method: 'POST', headers: {'Content-Type': 'application/json'}, body: JSON.stringify({clientId: simulatorData.clientId, ...request})});
    } catch {
      setLocal({status: 'failed', message: localSandboxMissing('deliver again')});
      return;
    }
    try {
      const json = (await answer.json()) as {notificationId?: string; code?: string; message?: string};
      if (!answer.ok || !json.notificationId) throw new Error(`${answer.status} ${json.code ?? ''}: ${json.message ?? 'no notificationId in the answer'}`);
      const log = (await (await fetch(`${localSandboxOrigin}/_sandbox/notifications?clientId=${encodeURIComponent(simulatorData.clientId)}`)).json()) as {deliveries?: DeliveryLogEntry[]};
      setLocal({status: 'delivered', notificationId: json.notificationId, entries: (log.deliveries ?? []).filter((entry) => entry.notificationId === json.notificationId)});
    } catch (error) {
      setLocal({status: 'failed', message: `The local sandbox refused it: ${errorText(error)}`});
    }
  };

  const copy = async (label: string, text: string) => {
    try {
      await navigator.clipboard.writeText(text);
      setCopied(`${label} copied.`);
    } catch {
      setCopied(`The browser did not allow copying: select the ${label.toLowerCase()} and copy it yourself.`);
    }
  };

  const {error: fieldError, described} = fieldErrors(id, errors);

  return (
    <section className={styles.panel} aria-label="Notification simulator">
      <p className={form.privacy}>
        The notification is made and signed in this browser, with the provider test key that is published for the sandbox. Your data and URL stay on this page; only &quot;Deliver&quot; below sends them, to your own local sandbox.
      </p>
      <form
        onSubmit={(event) => {
          event.preventDefault();
          void produce();
        }}>
        <div className={form.field}>
          <label htmlFor={`${id}-scenario`}>Scenario (an example of the contract)</label>
          <select
            id={`${id}-scenario`}
            value={scenario.name}
            onChange={(event) => {
              const next = scenarios.find((candidate) => candidate.name === event.target.value);
              setScenarioName(event.target.value);
              setData(exampleData(next?.value));
              setErrors({});
              setOutcome({status: 'idle'});
              setLocal({status: 'idle'});
            }}>
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
          <textarea id={`${id}-data`} className={styles.code} rows={Math.min(16, data.split('\n').length + 1)} spellCheck={false} value={data} onChange={(event) => setData(event.target.value)} {...described('data')} />
          {fieldError('data')}
        </div>
        <div className={form.field}>
          <label htmlFor={`${id}-notifyUrl`}>Notify URL (your endpoint)</label>
          <input id={`${id}-notifyUrl`} type="url" autoComplete="off" spellCheck={false} value={notifyUrl} onChange={(event) => setNotifyUrl(event.target.value)} {...described('notifyUrl', `${id}-notifyUrl-hint`)} />
          <p id={`${id}-notifyUrl-hint`} className={styles.hint}>
            Its path and query are part of what is signed: the second line of the canonical string. {simulatorData.notifyUrlIsDefault ? 'It starts as the test merchant\u2019s default notification URL.' : 'The test merchant has no default notification URL, so this starts as the contract\u2019s example one.'}
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
          <ProducedView produced={outcome.produced} local={local} copied={copied} windowSeconds={simulatorData.timestampWindowSeconds} onCopy={(label, text) => void copy(label, text)} onDeliver={() => void deliverLocally(outcome.produced.localRequest)} />
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
        <li>{produced.signatureVerifies ? 'The signature verifies with the published provider key (provider-test-public.pem).' : 'The signature does NOT verify with the published provider key.'}</li>
        <li>
          {produced.timestampFresh
            ? `X-Timestamp ${produced.timestamp} is within the ${windowSeconds}-second window of this browser's clock.`
            : `X-Timestamp ${produced.timestamp} is outside the ${windowSeconds}-second window of this browser's clock (the sandbox clock in this browser was moved on): an endpoint would refuse it.`}
        </li>
        <li>{produced.problems.length === 0 ? 'The body matches the contract.' : `The body does not match the contract: ${produced.problems.join('; ')}`}</li>
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
          Start the <Link to="/docs/local-sandbox">local sandbox</Link>, downloaded from this portal, with <code>{localSandboxStart}</code>. It produces the same notification, with a fresh ID and signature, and POSTs it to your notify URL; then read its delivery log:
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
  if (entries.length === 0) return <p>The local sandbox raised {notificationId} but has no delivery attempt for it yet: read the log again in a moment.</p>;
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
