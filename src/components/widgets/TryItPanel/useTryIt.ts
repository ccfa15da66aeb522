/**
 * Try it's state and logic apart from its view: the form (operation, parameters, body, target, key), the
 * check against the contract, signing and sending through the chosen sandbox target, verifying the answer,
 * the shopper's actions and the timeline. The panel (index.tsx) only renders what this returns; the pure
 * parts live in model.ts and src/lib/tryIt.ts.
 */
import {loadBrowserHost, loadSchemaChecks} from '@site/src/sandbox/hosts/browser/load';
import {useEffect, useLayoutEffect, useMemo, useRef, useState} from 'react';
import useBaseUrl from '@docusaurus/useBaseUrl';
import tryItJson from '@generated/sandbox-engine/tryit.json';
import {brand} from '@site/src/brand';
import {hostedMerchant} from '@site/src/lib/hostedMerchant';
import {useHostedSandboxOrigin} from '@site/src/components/widgets/HostedMerchantPanel/useHostedSandboxOrigin';
import {generateKeyPair, KeyInputError, readKey} from '@site/src/lib/signatureDiagnosis';
import {importPrivateKey, importPublicKey} from '@site/src/lib/signing';
import {httpTarget, TargetUnreachableError} from '@site/src/sandbox/client/overHttp';
import {headerValue, signRequest, verifyResponse, withContentType, type MerchantSigner} from '@site/src/sandbox/client/signing';
import {lowerCaseNames, type SandboxTarget} from '@site/src/sandbox/client/target';
import {curlTemplate} from '@site/src/lib/samples/curl';
import {
  creationWindow,
  currentState,
  latestValues,
  localSandboxMissing,
  localSandboxOrigin,
  localSandboxStart,
  problemField,
  requestTarget,
  newestStatementDay,
  type TryItData,
  type TryItOperation,
} from '@site/src/lib/tryIt';
import type {Exchange, ShopperAction, TargetId} from './ExchangeView';
import {afterShopper, anchorScroll, callEntry, exampleBody, shopperEntry, withEntry, type TimelineEntry} from './model';
import {prefillFromSearch, withBodyFields} from './prefillFromUrl';

export type KeyMode = 'published' | 'generated' | 'pasted';

export type TargetOption = {readonly id: TargetId; readonly label: string; readonly origin?: string};

/** The three sandboxes Try it can send to; the hosted one at the origin the build was given (docusaurus.config.ts). */
export function useTargets(): readonly TargetOption[] {
  const hosted = useHostedSandboxOrigin();
  return [
    {id: 'browser', label: 'The sandbox in this browser (no network, nothing to sign up for)'},
    {id: 'local', label: `Your local sandbox (${localSandboxStart}) at ${localSandboxOrigin}`, origin: localSandboxOrigin},
    {id: 'hosted', label: `The hosted sandbox at ${hosted}`, origin: hosted},
  ];
}

/** Who signs: a client ID and a private key held as a non-extractable CryptoKey, in memory only. */
type Signer = MerchantSigner;

export type Outcome =
  | {readonly status: 'idle'}
  | {readonly status: 'sending'}
  | {readonly status: 'sent'; readonly exchange: Exchange}
  | {readonly status: 'failed'; readonly message: string};

// The wildcard @generated/* declaration of @docusaurus/module-type-aliases types it any; this is its shape.
export const tryIt = tryItJson as TryItData;
const operationsById = new Map(tryIt.operations.map((operation) => [operation.operationId, operation]));
const loadHost = loadBrowserHost;
/** The compiled validators alone: checking a request never needs the engine. */
const loadValidators = loadSchemaChecks;

function initialValues(operation: TryItOperation, given: Record<string, string> = {}): Record<string, string> {
  return Object.fromEntries(
    operation.parameters.map((parameter) => {
      const window = creationWindow(parameter.name, Date.now());
      if (window !== undefined) return [parameter.name, given[parameter.name] ?? window];
      // A statement exists only for a finished day: the example's date is long gone from a fresh sandbox.
      const example =
        parameter.in === 'path' && /^\d{4}-\d{2}-\d{2}$/.test(parameter.example ?? '')
          ? newestStatementDay(Date.now(), tryIt.statementReadyAfterUtc)
          : parameter.example;
      return [parameter.name, given[parameter.name] ?? (parameter.required ? (example ?? '') : '')];
    }),
  );
}

function exampleText(operation: TryItOperation, index: number, orderNo?: string): string {
  const example = operation.examples[index];
  if (!example) return '';
  // The order named by a call about an existing order (its path has parameters); a create gets a new number.
  return JSON.stringify(exampleBody(example.value, Date.now(), operation.path.includes('{') ? orderNo : undefined), null, 2);
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

/** The panel's state for one operation of the contract, and what the reader can do with it; undefined for an operation this build does not have. */
export function useTryIt(operationId: string) {
  const targets = useTargets();
  const originOf = (id: TargetId): string => targets.find((candidate) => candidate.id === id)?.origin ?? '';
  const keysUrl = useBaseUrl('/test-vectors/');
  const [operation, setOperation] = useState<TryItOperation | undefined>(operationsById.get(operationId));
  // A link may have opened the panel with values to start from (prefillFromUrl.ts); the panel renders in the browser only.
  const [fromLink] = useState(() => (operation ? prefillFromSearch(window.location.search, operation) : undefined));
  const [values, setValues] = useState<Record<string, string>>(() => (operation ? initialValues(operation, fromLink?.values) : {}));
  const [exampleIndex, setExampleIndex] = useState(0);
  const [body, setBody] = useState(() =>
    operation ? withBodyFields(exampleText(operation, 0, fromLink?.values['merchantOrderNo']), fromLink?.body ?? {}) : '',
  );
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
  /** The frame that will anchor the panel after a switch of operation, until it runs. */
  const anchorFrame = useRef(0);
  const resultRef = useRef<HTMLDivElement>(null);
  /**
   * Brings a new answer into view: in the wide layout's pane, by scrolling the pane; in one column, where a
   * long form can push the answer below the screen (a phone, after a shopper action and its retrieve), the
   * window moves so the answer starts under the navbar. An answer already in view stays where it is.
   */
  const revealResult = () => {
    const result = resultRef.current;
    if (!result) return;
    const pane = result.closest('[data-api-pane]');
    if (pane && getComputedStyle(pane).position === 'sticky') {
      pane.scrollTop += result.getBoundingClientRect().top - pane.getBoundingClientRect().top - 8;
      return;
    }
    const top = result.getBoundingClientRect().top;
    if (top < window.innerHeight - 96) return;
    const navbar = document.querySelector('.navbar')?.getBoundingClientRect().height ?? 60;
    window.scrollBy({top: top - navbar - 8, behavior: 'instant'});
  };
  // After the answer is committed, not from the send: a frame scheduled before React renders it measured the old answer.
  useLayoutEffect(() => {
    if (outcome.status !== 'sent') return;
    // The answer is what the reader looks at now: an anchoring still waiting for its frame (the switch to the
    // retrieve after a shopper action, answered within that frame) would scroll it away again.
    cancelAnimationFrame(anchorFrame.current);
    revealResult();
  }, [outcome]);

  /**
   * In this browser's sandbox, an operation on an existing object starts from the newest one the reader made
   * (the order just created), not from the example's number, which this sandbox has never seen. Only values
   * still as prefilled are replaced: what the reader typed stays.
   */
  const withLatest = async (
    given: {values: Record<string, string>; body: string},
    clientId?: string,
  ): Promise<{values: Record<string, string>; body: string}> => {
    if (!operation) return given;
    const sandbox = await (await loadHost()).browserSandbox();
    const latest = sandbox.engine.latestReferences(
      clientId ?? (keyMode === 'generated' ? (generated.current.browser?.clientId ?? sandbox.clientId) : sandbox.clientId),
    );
    const found = latestValues(operation, latest);
    const values = {...given.values};
    for (const parameter of operation.parameters) {
      const value = found[parameter.name];
      if (value !== undefined && (given.values[parameter.name] === parameter.example || given.values[parameter.name] === ''))
        values[parameter.name] = value;
    }
    const quoteId = latest['quoteId'];
    const exampleQuote = (operation.examples[exampleIndex]?.value as {quoteId?: unknown} | undefined)?.quoteId;
    const body =
      quoteId && typeof exampleQuote === 'string' ? given.body.replace(JSON.stringify(exampleQuote), JSON.stringify(quoteId)) : given.body;
    return {values, body};
  };
  const wantsLatest = (candidate: TryItOperation | undefined, text: string) =>
    candidate !== undefined &&
    (candidate.parameters.some((parameter) => parameter.in === 'path' && parameter.example !== undefined) || text.includes('"quoteId"'));

  // Shown as soon as the panel opens; a send that comes first applies the same (see run).
  useEffect(() => {
    if (target !== 'browser' || !wantsLatest(operation, body)) return undefined;
    let current = true;
    void withLatest({values, body})
      .then((next) => {
        if (!current) return;
        setValues((previous) => ({
          ...previous,
          ...Object.fromEntries(Object.entries(next.values).filter(([name]) => previous[name] === values[name])),
        }));
        if (next.body !== body) setBody((previous) => (previous === body ? next.body : previous));
      })
      .catch(() => undefined);
    return () => {
      current = false;
    };
    // Once per operation and target: the body and values it reads are the freshly prefilled ones.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [operation, target]);

  if (!operation) return undefined;

  const publishedKeys = async () => {
    if (!published.current) {
      const text = async (file: string) => (await fetch(`${keysUrl}${file}`)).text();
      published.current = {
        merchant: await importPrivateKey(await text('merchant-test-private.pem')),
        provider: await importPublicKey(await text('provider-test-public.pem')),
      };
    }
    return published.current;
  };

  /** The chosen sandbox: the engine in this page, or one at an origin; the same calls either way. */
  const sandboxTarget = async (): Promise<SandboxTarget> => {
    if (target === 'browser') return (await (await loadHost()).browserSandbox()).target;
    // The hosted sandbox takes test tools signed by the merchant, like API calls.
    return httpTarget(originOf(target), target === 'hosted' ? {signer: await signer()} : {});
  };

  /** The target's answer, or the sentence that says why none came and what to do instead. */
  const reaching = async <T>(work: (sandbox: SandboxTarget) => Promise<T>, retry: string): Promise<T> => {
    try {
      return await work(await sandboxTarget());
    } catch (error) {
      if (!(error instanceof TargetUnreachableError)) throw error;
      throw new Error(
        target === 'local'
          ? localSandboxMissing(retry)
          : `The browser could not reach ${originOf(target)} (no answer from this network, or a proxy or extension blocked it): use the sandbox in this browser or your local one, which answer the same API.`,
      );
    }
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
    if (target === 'hosted') {
      const own = hostedMerchant(originOf('hosted'));
      if (!own)
        throw new Error('Create your merchant on the Hosted sandbox page (/docs/hosted-sandbox) first: it stays in this tab for Try it.');
      return own.signer;
    }
    const pair = await generateKeyPair();
    const privateKey = (await readKey(pair.privateKeyPem)).privateKey as CryptoKey;
    const registered = await reaching((sandbox) => sandbox.act('control.registerMerchant', {publicKeyPem: pair.publicKeyPem}), 'try again');
    if (!registered.ok) throw new Error(`The sandbox refused the key: ${registered.message}`);
    const clientId = (registered.value as {clientId: string}).clientId;
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
      const sending =
        target === 'browser' && wantsLatest(operation, checked.body)
          ? await withLatest({values, body: checked.body}, who.clientId)
          : {values, body: checked.body};
      if (sending.body !== checked.body) setBody(sending.body);
      if (sending.values !== values) setValues(sending.values);
      const requestTargetText = requestTarget(tryIt.basePath, operation, sending.values);
      // Real time, not the sandbox clock: the reader's own backend would sign with its clock.
      const signed = await signRequest(who, {method: operation.method, target: requestTargetText, body: sending.body}, Date.now());
      const {canonical, signatureHeader} = signed;
      const headers = withContentType(signed);
      const origin = target === 'browser' ? `https://${brand.hosts.sandboxApi}` : originOf(target);
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
      const answered = await reaching((sandbox) => sandbox.call({...signed, headers}), 'send again');
      const response = {...answered, headers: lowerCaseNames(answered.headers)};
      let json: Exchange['json'];
      try {
        json = JSON.parse(response.body) as Exchange['json'];
      } catch {
        json = undefined;
      }
      const resultCode = (json as {code?: unknown} | undefined)?.code;
      setTimeline((previous) =>
        withEntry(
          previous,
          callEntry(new Date(), {
            method: operation.method,
            target: requestTargetText,
            status: response.status,
            code: typeof resultCode === 'string' ? resultCode : undefined,
          }),
        ),
      );
      // The published provider test key is version 1; another version is not one this page holds.
      const verified = headerValue(response.headers, 'X-Signature')
        ? (await verifyResponse(signed, response, {key: (await publishedKeys()).provider, keyVersion: 1})).outcome === 'verified'
        : undefined;
      const pointer = response.status < 300 ? operation.successPointer : operation.errorPointer;
      const problems = json === undefined ? ['The body is not JSON.'] : pointer ? validators.schemaProblems(pointer, json) : [];
      const data = json?.data;
      const state = currentState(
        data,
        machines.filter((candidate) => operation.machines.includes(candidate.name) || operation.machines.length === 0),
      );
      const found = valuesIn(data);
      const followUps =
        response.status < 300
          ? tryIt.operations
              .filter(
                (candidate) =>
                  candidate.operationId !== operation.operationId &&
                  candidate.parameters.some((parameter) => parameter.in === 'path') &&
                  candidate.parameters
                    .filter((parameter) => parameter.in === 'path')
                    .every((parameter) => found[parameter.name] !== undefined),
              )
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

  const formFor = (next: TryItOperation, given: Record<string, string>): Form => ({
    operation: next,
    values: initialValues(next, given),
    body: exampleText(next, 0, given['merchantOrderNo']),
  });

  const switchTo = (next: TryItOperation, given: Record<string, string>): Form => {
    const form = formFor(next, given);
    setOperation(next);
    setValues(form.values);
    setExampleIndex(0);
    setBody(form.body);
    setErrors({});
    setOutcome({status: 'idle'});
    // The panel changes height: keep its top where the reader is looking, not the table below it.
    cancelAnimationFrame(anchorFrame.current);
    anchorFrame.current = requestAnimationFrame(anchor);
    return form;
  };

  /** What the customer does, or the clock: a declared action of the chosen sandbox. */
  const shopper = async (action: ShopperAction, orderNo: string) => {
    try {
      const who = await signer();
      const cardNumber = action === 'decline' ? tryIt.cards.declined : tryIt.cards.pays;
      const done = await reaching(
        (sandbox) =>
          action === 'expire'
            ? sandbox.act('clock.advance', {seconds: 7 * 86_400 + 1})
            : sandbox.act('shopper.pay', {clientId: who.clientId, merchantOrderNo: orderNo, method: 'CARD', cardNumber}),
        'try again',
      );
      if (!done.ok) throw new Error(`${done.code}: ${done.message}`);
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

  return {
    panelRef,
    resultRef,
    operation,
    values,
    setValues,
    exampleIndex,
    body,
    setBody,
    target,
    setTarget,
    keyMode,
    setKeyMode,
    pasted,
    setPasted,
    errors,
    outcome,
    shopperNote,
    timeline,
    /** Sends the form as shown. */
    submit: () => {
      setShopperNote(undefined);
      void run();
    },
    /** Starts the body from another of the operation's examples. */
    chooseExample: (index: number) => {
      setExampleIndex(index);
      setBody(exampleText(operation, index, values['merchantOrderNo']));
    },
    /** Create order's scenes each have an example: choosing a scene starts from it; false when none matches. */
    chooseVariant: (tag: string): boolean => {
      const index = operation.examples.findIndex((example) => Object.values(example.value as Record<string, unknown>).includes(tag));
      if (index < 0) return false;
      setExampleIndex(index);
      setBody(exampleText(operation, index, values['merchantOrderNo']));
      return true;
    },
    /** Opens a follow-up operation with the values the answer gave. */
    followUp: (next: string, given: Record<string, string>) => {
      setShopperNote(undefined);
      switchTo(operationsById.get(next) as TryItOperation, given);
    },
    shopper: (action: ShopperAction, orderNo: string) => void shopper(action, orderNo),
  };
}
