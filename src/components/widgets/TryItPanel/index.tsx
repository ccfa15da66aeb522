import {useEffect, useId, useLayoutEffect, useMemo, useRef, useState, type ReactNode} from 'react';
import useBaseUrl from '@docusaurus/useBaseUrl';
import tryItJson from '@generated/sandbox-engine/tryit.json';
import {brand} from '@site/src/brand';
import {generateKeyPair, KeyInputError, readKey} from '@site/src/lib/signatureDiagnosis';
import {canonicalString, formatSignatureHeader, importPrivateKey, importPublicKey, parseSignatureHeader, responseCanonicalString, signCanonical, verifyCanonical} from '@site/src/lib/signing';
import {curlTemplate} from '@site/src/lib/samples/curl';
import {futureTimeFields, merchantNumberFields} from '@site/src/lib/samples/types';
import {creationWindow, currentState, latestValues, localSandboxMissing, localSandboxOrigin, localSandboxStart, problemField, requestTarget, yesterdayUtc, type TryItData, type TryItOperation} from '@site/src/lib/tryIt';
import {fieldErrors} from '@site/src/components/ui/WidgetForm/fieldErrors';
import form from '@site/src/components/ui/WidgetForm/styles.module.css';
import BodyEditor from './BodyEditor';
import ExchangeView, {type Exchange, type ShopperAction, type TargetId} from './ExchangeView';
import {afterShopper, anchorScroll, callEntry, shopperEntry, withEntry, type TimelineEntry} from './model';
import styles from './styles.module.css';

type KeyMode = 'published' | 'generated' | 'pasted';

const targets: readonly {id: TargetId; label: string; origin?: string}[] = [
  {id: 'browser', label: 'The sandbox in this browser (no network, nothing to sign up for)'},
  {id: 'local', label: `Your local sandbox (${localSandboxStart}) at ${localSandboxOrigin}`, origin: localSandboxOrigin},
  {id: 'hosted', label: `The hosted sandbox at https://${brand.hosts.sandboxApi}`, origin: `https://${brand.hosts.sandboxApi}`},
];

/** Who signs: a client ID and a private key held as a non-extractable CryptoKey, in memory only. */
interface Signer {
  readonly clientId: string;
  readonly keyVersion: number;
  readonly privateKey: CryptoKey;
}

type Outcome = {readonly status: 'idle'} | {readonly status: 'sending'} | {readonly status: 'sent'; readonly exchange: Exchange} | {readonly status: 'failed'; readonly message: string};

// The wildcard @generated/* declaration of @docusaurus/module-type-aliases types it any; this is its shape.
const tryIt = tryItJson as TryItData;
const operationsById = new Map(tryIt.operations.map((operation) => [operation.operationId, operation]));
const loadHost = () => import('@site/src/sandbox/browser/host');
/** The compiled validators alone: checking a request never needs the engine. */
const loadValidators = () => import('@site/src/sandbox/browser/schemaProblems');

function initialValues(operation: TryItOperation, given: Record<string, string> = {}): Record<string, string> {
  return Object.fromEntries(
    operation.parameters.map((parameter) => {
      const window = creationWindow(parameter.name, Date.now());
      if (window !== undefined) return [parameter.name, given[parameter.name] ?? window];
      // A statement exists only for a finished day: the example's date is long gone from a fresh sandbox.
      const example = parameter.in === 'path' && /^\d{4}-\d{2}-\d{2}$/.test(parameter.example ?? '') ? yesterdayUtc(Date.now()) : parameter.example;
      return [parameter.name, given[parameter.name] ?? (parameter.required ? (example ?? '') : '')];
    }),
  );
}

function exampleText(operation: TryItOperation, index: number, orderNo?: string): string {
  const example = operation.examples[index];
  if (!example) return '';
  const value = structuredClone(example.value) as Record<string, unknown>;
  // A new merchant number on every fill, so a create is never a replay of someone else's example.
  for (const field of merchantNumberFields) {
    if (typeof value[field] === 'string') value[field] = field === 'merchantOrderNo' && orderNo && operation.path.includes('{') ? orderNo : `${String(value[field]).replace(/-.*$/, '')}-${Date.now()}`;
  }
  for (const [field, hoursAhead] of Object.entries(futureTimeFields)) {
    if (typeof value[field] === 'string') value[field] = new Date(Date.now() + hoursAhead * 3_600_000).toISOString().replace(/\.\d{3}Z$/, 'Z');
  }
  return JSON.stringify(value, null, 2);
}

/** Values found in a response that fill another operation's path parameters, such as merchantOrderNo. */
function valuesIn(data: unknown): Record<string, string> {
  const found: Record<string, string> = {};
  const visit = (value: unknown, depth: number) => {
    if (depth > 2 || value === null || typeof value !== 'object') return;
    for (const [key, item] of Object.entries(value)) {
      if (typeof item === 'string' && /(No|Id)$/.test(key) && !(key in found)) found[key] = item;
      else visit(item, depth + 1);
    }
  };
  visit(data, 0);
  return found;
}

/**
 * Try it: builds a request from the contract (parameters, an example body to edit), checks it against the
 * contract field by field, signs it, sends it to the chosen sandbox and shows every step: the canonical
 * string, the signature, the raw request and a curl command that signs, then the response, whether its
 * signature verifies, whether it matches the contract, and where the object now stands.
 */
export default function TryItPanel({operationId}: {operationId: string}): ReactNode {
  const id = useId();
  const keysUrl = useBaseUrl('/test-vectors/');
  const [operation, setOperation] = useState<TryItOperation | undefined>(operationsById.get(operationId));
  const [values, setValues] = useState<Record<string, string>>(() => (operation ? initialValues(operation) : {}));
  const [exampleIndex, setExampleIndex] = useState(0);
  const [body, setBody] = useState(() => (operation ? exampleText(operation, 0) : ''));
  const [target, setTarget] = useState<TargetId>('browser');
  const [keyMode, setKeyMode] = useState<KeyMode>('published');
  const [pasted, setPasted] = useState({pem: '', clientId: '', keyVersion: '1'});
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [outcome, setOutcome] = useState<Outcome>({status: 'idle'});
  const [shopperNote, setShopperNote] = useState<string | undefined>();
  const [timeline, setTimeline] = useState<readonly TimelineEntry[]>([]);
  const panelRef = useRef<HTMLElement>(null);
  // Keys made or pasted here live in this component only: gone when the page is closed.
  const generated = useRef<Partial<Record<TargetId, Signer>>>({});
  const published = useRef<{merchant: CryptoKey; provider: CryptoKey} | undefined>(undefined);

  const machines = useMemo(() => Object.entries(tryIt.machines).map(([name, machine]) => ({name, machine})), []);

  /**
   * Keeps the panel's top in view after an action: in the wide layout's pane, which scrolls on its own, the
   * pane goes back to its top; in one column the window moves so the panel sits under the navbar.
   */
  const anchor = () => {
    const panel = panelRef.current;
    if (!panel) return;
    const pane = panel.closest('[data-api-pane]');
    if (pane && pane.scrollHeight > pane.clientHeight && getComputedStyle(pane).position === 'sticky') {
      pane.scrollTop = 0;
      return;
    }
    const navbar = document.querySelector('.navbar')?.getBoundingClientRect().height ?? 60;
    const by = anchorScroll(panel.getBoundingClientRect().top, navbar, window.innerHeight);
    if (by !== 0) window.scrollBy({top: by, behavior: 'instant'});
  };
  const resultRef = useRef<HTMLDivElement>(null);
  /** In the wide layout's pane, brings a new answer into view; in one column it is already under the button. */
  const revealResult = () => {
    const result = resultRef.current;
    const pane = result?.closest('[data-api-pane]');
    if (!result || !pane || getComputedStyle(pane).position !== 'sticky') return;
    pane.scrollTop += result.getBoundingClientRect().top - pane.getBoundingClientRect().top - 8;
  };
  // After the answer is committed, not from the send: a frame scheduled before React renders it measured the old answer.
  useLayoutEffect(() => {
    if (outcome.status === 'sent') revealResult();
  }, [outcome]);

  /**
   * In this browser's sandbox, an operation on an existing object starts from the newest one the reader made
   * (the order just created), not from the example's number, which this sandbox has never seen. Only values
   * still as prefilled are replaced: what the reader typed stays.
   */
  const withLatest = async (given: {values: Record<string, string>; body: string}, clientId?: string): Promise<{values: Record<string, string>; body: string}> => {
    if (!operation) return given;
    const sandbox = await (await loadHost()).browserSandbox();
    const latest = sandbox.engine.latestReferences(clientId ?? (keyMode === 'generated' ? (generated.current.browser?.clientId ?? sandbox.clientId) : sandbox.clientId));
    const found = latestValues(operation, latest);
    const values = {...given.values};
    for (const parameter of operation.parameters) {
      const value = found[parameter.name];
      if (value !== undefined && (given.values[parameter.name] === parameter.example || given.values[parameter.name] === '')) values[parameter.name] = value;
    }
    const quoteId = latest['quoteId'];
    const exampleQuote = (operation.examples[exampleIndex]?.value as {quoteId?: unknown} | undefined)?.quoteId;
    const body = quoteId && typeof exampleQuote === 'string' ? given.body.replace(JSON.stringify(exampleQuote), JSON.stringify(quoteId)) : given.body;
    return {values, body};
  };
  const wantsLatest = (candidate: TryItOperation | undefined, text: string) => candidate !== undefined && (candidate.parameters.some((parameter) => parameter.in === 'path' && parameter.example !== undefined) || text.includes('"quoteId"'));

  // Shown as soon as the panel opens; a send that comes first applies the same (see run).
  useEffect(() => {
    if (target !== 'browser' || !wantsLatest(operation, body)) return undefined;
    let current = true;
    void withLatest({values, body})
      .then((next) => {
        if (!current) return;
        setValues((previous) => ({...previous, ...Object.fromEntries(Object.entries(next.values).filter(([name]) => previous[name] === values[name]))}));
        if (next.body !== body) setBody((previous) => (previous === body ? next.body : previous));
      })
      .catch(() => undefined);
    return () => {
      current = false;
    };
    // Once per operation and target: the body and values it reads are the freshly prefilled ones.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [operation, target]);

  if (!operation) return <p role="alert">Try it has no operation {operationId}: rebuild the site.</p>;

  const publishedKeys = async () => {
    if (!published.current) {
      const text = async (file: string) => (await fetch(`${keysUrl}${file}`)).text();
      published.current = {merchant: await importPrivateKey(await text('merchant-test-private.pem')), provider: await importPublicKey(await text('provider-test-public.pem'))};
    }
    return published.current;
  };

  const send = async (request: {method: string; target: string; body: string; headers: Record<string, string>}): Promise<{status: number; headers: Record<string, string>; body: string}> => {
    if (target === 'browser') {
      const host = await loadHost();
      const sandbox = await host.browserSandbox();
      const response = await sandbox.engine.handle(request);
      await sandbox.engine.runDue();
      await sandbox.engine.settle();
      return {status: response.status, headers: Object.fromEntries(Object.entries(response.headers).map(([name, value]) => [name.toLowerCase(), String(value)])), body: response.body};
    }
    const origin = targets.find((candidate) => candidate.id === target)?.origin ?? '';
    let response: Response;
    try {
      response = await fetch(`${origin}${request.target}`, {method: request.method, headers: request.headers, ...(request.body === '' ? {} : {body: request.body})});
    } catch {
      throw new Error(
        target === 'local'
          ? localSandboxMissing('send again')
          : `The browser could not reach https://${brand.hosts.sandboxApi} (no answer from this network, or a proxy or extension blocked it): use the sandbox in this browser or your local one, which answer the same API.`,
      );
    }
    const headers: Record<string, string> = {};
    response.headers.forEach((value, name) => (headers[name] = value));
    return {status: response.status, headers, body: await response.text()};
  };

  /** Registers a key pair made here with the chosen sandbox, once per target. */
  const signer = async (): Promise<Signer> => {
    if (keyMode === 'published') return {clientId: brand.sandboxClientId, keyVersion: 1, privateKey: (await publishedKeys()).merchant};
    if (keyMode === 'pasted') {
      const key = await readKey(pasted.pem);
      if (!key.privateKey) throw new KeyInputError('Paste the private key (BEGIN PRIVATE KEY): a public key cannot sign.');
      return {clientId: pasted.clientId.trim(), keyVersion: Number(pasted.keyVersion), privateKey: key.privateKey};
    }
    const existing = generated.current[target];
    if (existing) return existing;
    if (target === 'hosted') throw new Error('Register a generated key with the sandbox in this browser or your local one; the hosted sandbox takes keys in its dashboard.');
    const pair = await generateKeyPair();
    const privateKey = (await readKey(pair.privateKeyPem)).privateKey as CryptoKey;
    let clientId: string;
    if (target === 'browser') {
      const sandbox = await (await loadHost()).browserSandbox();
      const registered = await sandbox.engine.control.registerMerchant({publicKeyPem: pair.publicKeyPem});
      if (!registered.ok) throw new Error(`The sandbox refused the key: ${registered.message}`);
      clientId = registered.value.clientId;
    } else {
      const answer = await fetch(`${localSandboxOrigin}/_sandbox/merchants`, {method: 'POST', headers: {'Content-Type': 'application/json'}, body: JSON.stringify({publicKeyPem: pair.publicKeyPem})});
      clientId = String(((await answer.json()) as {clientId?: string}).clientId ?? '');
    }
    // The PEM text of the private key is dropped here: only the non-extractable CryptoKey is kept.
    generated.current[target] = {clientId, keyVersion: 1, privateKey};
    return generated.current[target];
  };

  /** What a send works from: the form as shown, or the one a switch is about to show (see shopper). */
  interface Form {
    readonly operation: TryItOperation;
    readonly values: Record<string, string>;
    readonly body: string;
  }
  const shown: Form = {operation, values, body};

  const check = async (form: Form): Promise<{body: string} | undefined> => {
    const {operation, values, body} = form;
    const found: Record<string, string> = {};
    const validators = await loadValidators();
    for (const parameter of operation.parameters) {
      const value = values[parameter.name] ?? '';
      if (value === '') {
        if (parameter.required) found[parameter.name] = `${parameter.name} is required.`;
        continue;
      }
      const typed = parameter.type === 'integer' || parameter.type === 'number' ? Number(value) : value;
      const problems = validators.schemaProblems(parameter.schemaPointer, typed);
      if (problems.length) found[parameter.name] = `${parameter.name}: ${problems.join('; ')}`;
    }
    if (operation.bodyPointer) {
      let parsed: unknown;
      try {
        parsed = JSON.parse(body);
        const problems = validators.schemaProblems(operation.bodyPointer, parsed);
        if (problems.length) found['body'] = problems.map((problem) => `• ${problem}`).join('\n');
        // Each problem also next to the form input it is about, when the form shows one.
        for (const problem of problems) {
          const field = problemField(problem);
          if (field) found[field] = found[field] ? `${found[field]}\n${problem}` : problem;
        }
      } catch (error) {
        found['body'] = `The body is not valid JSON: ${error instanceof Error ? error.message : String(error)}.`;
      }
    }
    if (keyMode === 'pasted') {
      if (pasted.clientId.trim() === '') found['clientId'] = 'Give the client ID this key is registered under.';
      if (!/^[1-9][0-9]*$/.test(pasted.keyVersion)) found['keyVersion'] = 'A key version is a whole number from 1.';
      try {
        const key = await readKey(pasted.pem);
        if (!key.privateKey) found['pem'] = 'Paste the private key (BEGIN PRIVATE KEY): a public key cannot sign.';
      } catch (error) {
        found['pem'] = error instanceof Error ? error.message : String(error);
      }
    }
    setErrors(found);
    return Object.keys(found).length ? undefined : {body: operation.bodyPointer ? body : ''};
  };

  const run = async (form: Form = shown) => {
    const {operation, values} = form;
    const checked = await check(form);
    if (!checked) {
      setOutcome({status: 'idle'});
      return;
    }
    setOutcome({status: 'sending'});
    try {
      const who = await signer();
      const validators = await loadValidators();
      // The newest objects, if the prefill had not come yet when the reader clicked; the form then shows what was sent.
      const sending = target === 'browser' && wantsLatest(operation, checked.body) ? await withLatest({values, body: checked.body}, who.clientId) : {values, body: checked.body};
      if (sending.body !== checked.body) setBody(sending.body);
      if (sending.values !== values) setValues(sending.values);
      const requestTargetText = requestTarget(tryIt.basePath, operation, sending.values);
      const timestamp = new Date().toISOString().replace(/\.\d{3}Z$/, 'Z');
      const nonce = crypto.randomUUID();
      const canonical = canonicalString({method: operation.method, pathWithQuery: requestTargetText, clientId: who.clientId, timestamp, nonce, body: sending.body});
      const signatureHeader = formatSignatureHeader({algorithm: 'RSA-SHA256', keyVersion: who.keyVersion, signature: await signCanonical(canonical, who.privateKey)});
      const headers: Record<string, string> = {
        ...(sending.body === '' ? {} : {'Content-Type': 'application/json'}),
        'X-Client-Id': who.clientId,
        'X-Timestamp': timestamp,
        'X-Nonce': nonce,
        'X-Signature': signatureHeader,
      };
      const origin = targets.find((candidate) => candidate.id === target)?.origin ?? `https://${brand.hosts.sandboxApi}`;
      const rawRequest = `${operation.method} ${requestTargetText} HTTP/1.1\nHost: ${new URL(origin).host}\n${Object.entries(headers)
        .map(([name, value]) => `${name}: ${value}`)
        .join('\n')}\n\n${sending.body}`;
      const curl = curlTemplate.render({
        kind: 'request',
        operationId: operation.operationId,
        summary: operation.summary,
        method: operation.method,
        pathWithQuery: requestTargetText.slice(tryIt.basePath.length),
        requestTarget: requestTargetText,
        pathParameters: [],
        body: sending.body === '' ? undefined : (JSON.parse(sending.body) as never),
        generated: [],
      });
      const response = await send({method: operation.method, target: requestTargetText, body: sending.body, headers});
      let json: Exchange['json'];
      try {
        json = JSON.parse(response.body) as Exchange['json'];
      } catch {
        json = undefined;
      }
      const resultCode = (json as {code?: unknown} | undefined)?.code;
      setTimeline((previous) => withEntry(previous, callEntry(new Date(), {method: operation.method, target: requestTargetText, status: response.status, code: typeof resultCode === 'string' ? resultCode : undefined})));
      let verified: boolean | undefined;
      const signature = response.headers['x-signature'];
      if (signature) {
        try {
          const parsed = parseSignatureHeader(signature);
          const responseCanonical = responseCanonicalString({
            request: {method: operation.method, pathWithQuery: requestTargetText, clientId: who.clientId, timestamp, nonce},
            status: response.status,
            timestamp: response.headers['x-timestamp'] ?? '',
            nonce: response.headers['x-nonce'] ?? '',
            body: response.body,
          });
          // The published provider test key is version 1; another version is not one this page holds.
          verified = parsed.keyVersion === 1 && (await verifyCanonical(responseCanonical, parsed.signature, (await publishedKeys()).provider));
        } catch {
          verified = false;
        }
      }
      const pointer = response.status < 300 ? operation.successPointer : operation.errorPointer;
      const problems = json === undefined ? ['The body is not JSON.'] : pointer ? validators.schemaProblems(pointer, json) : [];
      const data = json?.data;
      const state = currentState(data, machines.filter((candidate) => operation.machines.includes(candidate.name) || operation.machines.length === 0));
      const found = valuesIn(data);
      const followUps = response.status < 300
        ? tryIt.operations
            .filter((candidate) => candidate.operationId !== operation.operationId && candidate.parameters.some((parameter) => parameter.in === 'path') && candidate.parameters.filter((parameter) => parameter.in === 'path').every((parameter) => found[parameter.name] !== undefined))
            .slice(0, 8)
            .map((candidate) => ({operationId: candidate.operationId, summary: candidate.summary, values: found}))
        : [];
      setOutcome({
        status: 'sent',
        exchange: {
          target,
          operation,
          canonical,
          signatureHeader,
          rawRequest,
          curl,
          status: response.status,
          headers: response.headers,
          body: response.body,
          ...(json === undefined ? {} : {json}),
          verified,
          problems,
          ...(state ? {state} : {}),
          followUps,
          ...(found['merchantOrderNo'] ? {orderNo: found['merchantOrderNo']} : {}),
        },
      });
    } catch (error) {
      setOutcome({status: 'failed', message: error instanceof Error ? error.message : String(error)});
    }
  };

  const formFor = (next: TryItOperation, given: Record<string, string>): Form => ({operation: next, values: initialValues(next, given), body: exampleText(next, 0, given['merchantOrderNo'])});

  const switchTo = (next: TryItOperation, given: Record<string, string>): Form => {
    const form = formFor(next, given);
    setOperation(next);
    setValues(form.values);
    setExampleIndex(0);
    setBody(form.body);
    setErrors({});
    setOutcome({status: 'idle'});
    // The panel changes height: keep its top where the reader is looking, not the table below it.
    requestAnimationFrame(anchor);
    return form;
  };

  /** What the customer does, or the clock: in this browser through the engine, locally through /_sandbox/. */
  const shopper = async (action: ShopperAction, orderNo: string) => {
    try {
      const who = await signer();
      const cardNumber = action === 'decline' ? tryIt.cards.declined : tryIt.cards.pays;
      if (target === 'browser') {
        const sandbox = await (await loadHost()).browserSandbox();
        if (action === 'expire') await sandbox.engine.advance(7 * 86_400 + 1);
        else {
          const paid = await sandbox.engine.shopper.pay(who.clientId, orderNo, {method: 'CARD', cardNumber});
          if (!paid.ok) throw new Error(`${paid.code}: ${paid.message}`);
        }
        await sandbox.engine.runDue();
        await sandbox.engine.settle();
      } else if (target === 'local') {
        const answer =
          action === 'expire'
            ? await fetch(`${localSandboxOrigin}/_sandbox/clock/advance`, {method: 'POST', headers: {'Content-Type': 'application/json'}, body: JSON.stringify({seconds: 7 * 86_400 + 1})})
            : await fetch(`${localSandboxOrigin}/_sandbox/shopper/pay`, {method: 'POST', headers: {'Content-Type': 'application/json'}, body: JSON.stringify({clientId: who.clientId, merchantOrderNo: orderNo, method: 'CARD', cardNumber})});
        if (!answer.ok) throw new Error(`${answer.status}: ${await answer.text()}`);
      } else throw new Error('The hosted sandbox has no test tools you can call from here; its dashboard has them.');
      setTimeline((previous) => withEntry(previous, shopperEntry(new Date(), action, {orderNo, cardNumber})));
      setShopperNote(
        action === 'expire'
          ? 'The sandbox clock moved on 7 days: unpaid orders have expired. The order as it stands now:'
          : `The shopper paid with test card ${cardNumber}${action === 'decline' ? ', which is declined' : ''}. The order as it stands now:`,
      );
      const next = afterShopper(orderNo);
      const retrieve = operationsById.get(next.operationId);
      if (retrieve) {
        const form = switchTo(retrieve, next.values);
        if (next.send) await run(form);
      }
    } catch (error) {
      setShopperNote(`The shopper action failed: ${error instanceof Error ? error.message : String(error)}`);
    }
  };

  const {error: fieldError, described} = fieldErrors(id, errors);

  return (
    <section ref={panelRef} className={styles.panel} aria-label="Try it">
      <p className={form.privacy}>
        Requests are signed in this browser. A key you paste or generate is held in memory as a key that cannot be read back, and never stored or sent: only its signatures leave the page.
      </p>
      <form
        onSubmit={(event) => {
          event.preventDefault();
          setShopperNote(undefined);
          void run();
        }}>
        <h3 className={styles.operation}>
          {operation.method} {tryIt.basePath}
          {operation.path} <span className={styles.summary}>{operation.summary}</span>
        </h3>
        <div className={styles.columns}>
          <fieldset className={styles.group}>
            <legend>Send to</legend>
            {targets.map((option) => (
              <label key={option.id} className={styles.choice}>
                <input type="radio" name={`${id}-target`} checked={target === option.id} onChange={() => setTarget(option.id)} /> {option.label}
              </label>
            ))}
          </fieldset>
          <fieldset className={styles.group}>
            <legend>Sign as</legend>
            <label className={styles.choice}>
              <input type="radio" name={`${id}-key`} checked={keyMode === 'published'} onChange={() => setKeyMode('published')} /> The test merchant {brand.sandboxClientId}, with its published key
            </label>
            <label className={styles.choice}>
              <input type="radio" name={`${id}-key`} checked={keyMode === 'generated'} onChange={() => setKeyMode('generated')} /> A merchant of my own, with a key pair made here and registered with the sandbox
            </label>
            <label className={styles.choice}>
              <input type="radio" name={`${id}-key`} checked={keyMode === 'pasted'} onChange={() => setKeyMode('pasted')} /> My own private key, pasted
            </label>
          </fieldset>
        </div>
        {keyMode === 'pasted' ? (
          <div className={styles.columns}>
            <div className={form.field}>
              <label htmlFor={`${id}-pem`}>Private key (PEM)</label>
              <textarea id={`${id}-pem`} rows={4} spellCheck={false} autoComplete="off" value={pasted.pem} onChange={(event) => setPasted({...pasted, pem: event.target.value})} {...described('pem')} />
              {fieldError('pem')}
            </div>
            <div className={form.field}>
              <label htmlFor={`${id}-clientId`}>Client ID</label>
              <input id={`${id}-clientId`} autoComplete="off" value={pasted.clientId} onChange={(event) => setPasted({...pasted, clientId: event.target.value})} {...described('clientId')} />
              {fieldError('clientId')}
              <label htmlFor={`${id}-keyVersion`}>Key version</label>
              <input id={`${id}-keyVersion`} inputMode="numeric" autoComplete="off" value={pasted.keyVersion} onChange={(event) => setPasted({...pasted, keyVersion: event.target.value})} {...described('keyVersion')} />
              {fieldError('keyVersion')}
            </div>
          </div>
        ) : null}
        {operation.parameters.length > 0 ? (
          <fieldset className={styles.group}>
            <legend>Parameters</legend>
            <div className={styles.parameters}>
              {operation.parameters.map((parameter) => (
                <div key={parameter.name} className={form.field}>
                  <label htmlFor={`${id}-${parameter.name}`}>
                    {parameter.name} <span className={styles.hint}>({parameter.in}, {parameter.required ? 'required' : 'optional'})</span>
                  </label>
                  {parameter.enum ? (
                    <select id={`${id}-${parameter.name}`} value={values[parameter.name] ?? ''} onChange={(event) => setValues({...values, [parameter.name]: event.target.value})} {...described(parameter.name)}>
                      <option value="">{parameter.required ? 'Choose…' : '(not sent)'}</option>
                      {parameter.enum.map((value) => (
                        <option key={value}>{value}</option>
                      ))}
                    </select>
                  ) : (
                    <input id={`${id}-${parameter.name}`} autoComplete="off" placeholder={parameter.example ?? ''} value={values[parameter.name] ?? ''} onChange={(event) => setValues({...values, [parameter.name]: event.target.value})} {...described(parameter.name)} />
                  )}
                  {fieldError(parameter.name)}
                </div>
              ))}
            </div>
          </fieldset>
        ) : null}
        {operation.bodyPointer ? (
          <div className={form.field}>
            {operation.examples.length > 1 ? (
              <>
                <label htmlFor={`${id}-example`}>Start from the example</label>
                <select
                  id={`${id}-example`}
                  value={exampleIndex}
                  onChange={(event) => {
                    const index = Number(event.target.value);
                    setExampleIndex(index);
                    setBody(exampleText(operation, index, values['merchantOrderNo']));
                  }}>
                  {operation.examples.map((example, index) => (
                    <option key={example.name} value={index}>
                      {example.summary || example.name}
                    </option>
                  ))}
                </select>
              </>
            ) : null}
            {operation.bodyForm ? (
              <BodyEditor
                id={id}
                bodyForm={operation.bodyForm}
                text={body}
                onText={setBody}
                errors={errors}
                onVariant={(tag) => {
                  // Create order's scenes each have an example: choosing a scene starts from it.
                  const index = operation.examples.findIndex((example) => Object.values(example.value as Record<string, unknown>).includes(tag));
                  if (index < 0) return false;
                  setExampleIndex(index);
                  setBody(exampleText(operation, index, values['merchantOrderNo']));
                  return true;
                }}
              />
            ) : (
              <>
                <label htmlFor={`${id}-body`}>Request body (JSON, sent exactly as written)</label>
                <textarea id={`${id}-body`} className={styles.code} rows={Math.min(18, body.split('\n').length + 1)} spellCheck={false} value={body} onChange={(event) => setBody(event.target.value)} {...described('body')} />
                {fieldError('body')}
              </>
            )}
          </div>
        ) : null}
        <button type="submit" className="button button--primary" disabled={outcome.status === 'sending'}>
          Send signed request
        </button>
      </form>
      <div ref={resultRef} aria-live="polite" className={styles.result}>
        {outcome.status === 'sending' ? <p>Sending…</p> : null}
        {outcome.status === 'failed' ? (
          <p role="alert" className={form.fieldError}>
            {outcome.message}
          </p>
        ) : null}
        {shopperNote ? <p className={styles.note}>{shopperNote}</p> : null}
        {timeline.length > 0 ? (
          <details className={styles.timeline} open>
            <summary>Timeline of this panel</summary>
            <ol aria-label="Timeline of this panel">
              {timeline.map((entry, index) => (
                <li key={`${entry.at}-${index}`} data-kind={entry.kind} data-ok={entry.ok ? '' : undefined}>
                  <time>{entry.at}</time> {entry.text}
                </li>
              ))}
            </ol>
          </details>
        ) : null}
        {outcome.status === 'sent' ? <ExchangeView exchange={outcome.exchange} machines={tryIt.machines} onFollowUp={(next, given) => {
              setShopperNote(undefined);
              switchTo(operationsById.get(next) as TryItOperation, given);
            }} onShopper={(action, orderNo) => void shopper(action, orderNo)} /> : null}
      </div>
    </section>
  );
}
