import {useEffect, useId, useRef, useState, type ReactNode} from 'react';
import useBaseUrl from '@docusaurus/useBaseUrl';
import {
  diagnose,
  generateKeyPair,
  KeyInputError,
  MessageInputError,
  parseRawRequest,
  parseRawResponse,
  partsOfRequest,
  partsOfResponse,
  readKey,
  canonicalOf,
  type Diagnosis,
  type Finding,
  type MessageKind,
  type ReadKey,
  type SignedParts,
} from '@site/src/lib/signatureDiagnosis';
import {handedMessage} from '@site/src/lib/signatureDiagnosis/handover';
import {bytesToBase64, formatSignatureHeader} from '@site/src/lib/signing';
import Badge from '@site/src/components/ui/Badge';
import Button from '@site/src/components/ui/Button';
import {fieldErrors} from '@site/src/components/ui/WidgetForm/fieldErrors';
import form from '@site/src/components/ui/WidgetForm/styles.module.css';
import styles from './styles.module.css';

type Field = 'request' | 'response' | 'key' | 'keyVersion';
type Result =
  | {readonly status: 'idle'}
  | {readonly status: 'checking'}
  | {readonly status: 'done'; readonly diagnosis: Diagnosis; readonly keyFormat: string}
  | {readonly status: 'invalid'; readonly errors: Partial<Record<Field, string>>};

const kinds: readonly {value: MessageKind; label: string}[] = [
  {value: 'request', label: 'A request to the API'},
  {value: 'response', label: 'A response from the API'},
  {value: 'notification', label: 'A notification'},
];

/** The published test vectors and keys, fetched from this site only when the reader asks for an example. */
interface VectorFile {
  readonly vectors: readonly {
    readonly name: string;
    readonly kind: MessageKind;
    readonly signer: 'merchant' | 'provider';
    readonly request: {method: string; pathWithQuery: string; clientId: string; timestamp: string; nonce: string; body: string};
    readonly response?: {status: number; timestamp: string; nonce: string; body: string};
    readonly signatureHeader: string;
  }[];
}

type Vector = VectorFile['vectors'][number];

/** An ISO 8601 UTC timestamp to the second, as X-Timestamp takes it. */
const isoNow = () => new Date().toISOString().replace(/\.\d{3}Z$/, 'Z');

/**
 * A published vector made fresh: the same message with the current time and new nonces, signed here with
 * the published test private key, so the example verifies and passes the timestamp window today.
 */
async function freshExample(vector: Vector, privateKey: CryptoKey): Promise<Vector> {
  const timestamp = isoNow();
  const request = {...vector.request, timestamp, nonce: crypto.randomUUID()};
  const response = vector.response ? {...vector.response, timestamp, nonce: crypto.randomUUID()} : undefined;
  const parts: SignedParts = response
    ? {
        kind: 'response',
        method: request.method,
        target: request.pathWithQuery,
        clientId: request.clientId,
        timestamp,
        nonce: response.nonce,
        requestNonce: request.nonce,
        status: response.status,
        body: response.body,
      }
    : {
        kind: vector.kind === 'notification' ? 'notification' : 'request',
        method: request.method,
        target: request.pathWithQuery,
        clientId: request.clientId,
        timestamp,
        nonce: request.nonce,
        body: request.body,
      };
  const signature = bytesToBase64(
    new Uint8Array(await crypto.subtle.sign('RSASSA-PKCS1-v1_5', privateKey, new TextEncoder().encode(canonicalOf(parts)))),
  );
  return {
    ...vector,
    request,
    ...(response ? {response} : {}),
    signatureHeader: formatSignatureHeader({algorithm: 'RSA-SHA256', keyVersion: 1, signature}),
  };
}

function rawRequest(request: Vector['request'], signatureHeader?: string): string {
  const head = [
    `${request.method} ${request.pathWithQuery} HTTP/1.1`,
    'Content-Type: application/json',
    `X-Client-Id: ${request.clientId}`,
    `X-Timestamp: ${request.timestamp}`,
    `X-Nonce: ${request.nonce}`,
  ];
  if (signatureHeader) head.push(`X-Signature: ${signatureHeader}`);
  return `${head.join('\n')}\n\n${request.body}`;
}

/**
 * Checks the signature of a pasted request, response or notification against a pasted key, shows the
 * canonical string and the expected signature, and names the likely cause of a mismatch. Everything runs
 * in this browser: nothing pasted is sent anywhere or stored.
 */
export default function SignatureDebugger(): ReactNode {
  const id = useId();
  const vectorsUrl = useBaseUrl('/test-vectors/signing.json');
  const keyUrl = useBaseUrl('/test-vectors/');
  const [kind, setKind] = useState<MessageKind>('request');
  const [request, setRequest] = useState('');
  const [response, setResponse] = useState('');
  const [keyText, setKeyText] = useState('');
  const [keyVersion, setKeyVersion] = useState('');
  const [result, setResult] = useState<Result>({status: 'idle'});
  const [exampleError, setExampleError] = useState<string | undefined>();
  const [pair, setPair] = useState<{privateKeyPem: string; publicKeyPem: string} | 'making' | undefined>();
  // Nonces checked on this page, with the message they came with: the same nonce on another message is a replay.
  const seen = useRef(new Map<string, {message: string; at: string}>());
  // The nonces of loaded examples: a reader editing an example to see a finding is not replaying it.
  const exampleNonces = useRef(new Set<string>());
  const publishedKeys = useRef<{label: string; publicKey: CryptoKey}[] | undefined>(undefined);

  const loadPublishedKeys = async (): Promise<{label: string; publicKey: CryptoKey}[]> => {
    if (publishedKeys.current) return publishedKeys.current;
    const keys: {label: string; publicKey: CryptoKey}[] = [];
    for (const [file, label] of [
      ['merchant-test-public.pem', 'the published sandbox merchant test key'],
      ['provider-test-public.pem', 'the published provider test key'],
    ] as const) {
      try {
        const text = await (await fetch(`${keyUrl}${file}`)).text();
        keys.push({label, publicKey: (await readKey(text)).publicKey});
      } catch {
        // Without the published keys the debugger still works; it only cannot say "signed with the test key".
      }
    }
    publishedKeys.current = keys;
    return keys;
  };

  // A message handed over in the address (#notification=<base64url>, as the live demos link it): shown with the provider test key, not yet checked.
  useEffect(() => {
    const handed = handedMessage(window.location.hash);
    if (!handed) return;
    void fetch(`${keyUrl}provider-test-public.pem`)
      .then((response) => (response.ok ? response.text() : ''))
      .catch(() => '')
      .then((pem) => {
        setKind(handed.kind);
        setRequest(handed.text);
        setKeyText(pem);
        setKeyVersion('1');
      });
  }, [keyUrl]);

  const loadExample = async () => {
    setExampleError(undefined);
    try {
      const file = (await (await fetch(vectorsUrl)).json()) as VectorFile;
      const published = file.vectors.find((candidate) => candidate.kind === kind);
      if (!published) throw new Error(`no ${kind} vector`);
      const signer = published.signer === 'merchant' ? 'merchant' : 'provider';
      const privateKey = (await readKey(await (await fetch(`${keyUrl}${signer}-test-private.pem`)).text())).privateKey;
      if (!privateKey) throw new Error(`the published ${signer} test private key could not be read`);
      const vector = await freshExample(published, privateKey);
      for (const nonce of [vector.request.nonce, vector.response?.nonce]) if (nonce) exampleNonces.current.add(nonce);
      setKeyText(await (await fetch(`${keyUrl}${signer}-test-public.pem`)).text());
      setKeyVersion('1');
      if (vector.kind === 'response' && vector.response) {
        setRequest(rawRequest(vector.request));
        setResponse(
          `HTTP/1.1 ${vector.response.status} ${vector.response.status === 200 ? 'OK' : 'Error'}\nContent-Type: application/json\nX-Timestamp: ${vector.response.timestamp}\nX-Nonce: ${vector.response.nonce}\nX-Signature: ${vector.signatureHeader}\n\n${vector.response.body}`,
        );
      } else setRequest(rawRequest(vector.request, vector.signatureHeader));
      setResult({status: 'idle'});
    } catch (error) {
      setExampleError(`The example could not be loaded from this site (${error instanceof Error ? error.message : String(error)}).`);
    }
  };

  const check = async () => {
    const errors: Partial<Record<Field, string>> = {};
    let parsed: {parts: ReturnType<typeof partsOfRequest>; signatureHeader: string} | undefined;
    try {
      const first = parseRawRequest(request, kind === 'notification' ? 'notification' : 'request');
      if (kind === 'response') {
        try {
          const answer = parseRawResponse(response);
          parsed = {parts: partsOfResponse(first, answer), signatureHeader: answer.headers.get('x-signature') ?? ''};
          if (!answer.headers.has('x-signature')) errors.response = 'The response has no X-Signature header: paste it with its headers.';
        } catch (error) {
          errors.response = error instanceof MessageInputError ? error.message : String(error);
        }
      } else {
        parsed = {parts: partsOfRequest(kind, first), signatureHeader: first.headers.get('x-signature') ?? ''};
        if (!first.headers.has('x-signature')) errors.request = `The ${kind} has no X-Signature header: paste it with its headers.`;
      }
    } catch (error) {
      errors.request = error instanceof MessageInputError ? error.message : String(error);
    }
    let key: ReadKey | undefined;
    if (keyText.trim() === '') errors.key = 'Paste the signer’s public key, or its private key, in PEM.';
    else {
      try {
        key = await readKey(keyText);
      } catch (error) {
        errors.key = error instanceof KeyInputError ? error.message : String(error);
      }
    }
    const version = keyVersion.trim();
    if (version !== '' && !/^[1-9][0-9]*$/.test(version)) errors.keyVersion = 'A key version is a whole number from 1, or leave it empty.';
    if (!parsed || !key || Object.keys(errors).length > 0) {
      setResult({status: 'invalid', errors});
      return;
    }
    setResult({status: 'checking'});
    const earlier = exampleNonces.current.has(parsed.parts.nonce) ? undefined : seen.current.get(parsed.parts.nonce);
    const message = JSON.stringify(parsed.parts);
    const diagnosis = await diagnose({
      parts: parsed.parts,
      signatureHeader: parsed.signatureHeader,
      key,
      ...(version === '' ? {} : {keyVersion: Number(version)}),
      otherKeys: await loadPublishedKeys(),
      now: new Date(),
      seenNonces:
        earlier && earlier.message !== message
          ? new Map([[parsed.parts.nonce, `on another message checked on this page at ${earlier.at}`]])
          : new Map(),
    });
    seen.current.set(parsed.parts.nonce, {message, at: new Date().toLocaleTimeString('en-GB')});
    setResult({status: 'done', diagnosis, keyFormat: key.format});
  };

  const errors = result.status === 'invalid' ? result.errors : {};
  const {error: fieldError, described} = fieldErrors(id, errors);
  const fieldProps = (field: Field) => ({id: `${id}-${field}`, ...described(field)});

  return (
    <section className={styles.debugger} aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`} className={styles.title}>
        Check a signature
      </h2>
      <p className={form.privacy}>
        Everything runs in this browser. Nothing you paste, keys included, is sent anywhere or stored; reloading the page forgets it. Still,
        paste sandbox keys rather than production ones: a production private key belongs on your server only.
      </p>
      <form
        onSubmit={(event) => {
          event.preventDefault();
          void check();
        }}
      >
        <fieldset className={styles.kinds}>
          <legend>What to check</legend>
          {kinds.map((option) => (
            <label key={option.value}>
              <input
                type="radio"
                name={`${id}-kind`}
                value={option.value}
                checked={kind === option.value}
                onChange={() => setKind(option.value)}
              />{' '}
              {option.label}
            </label>
          ))}
        </fieldset>
        <div className={form.field}>
          <label htmlFor={`${id}-request`}>
            {kind === 'response'
              ? 'The request it answers, as sent (raw HTTP)'
              : kind === 'notification'
                ? 'The notification as received (raw HTTP)'
                : 'The request as sent (raw HTTP)'}
          </label>
          <textarea
            {...fieldProps('request')}
            rows={9}
            spellCheck={false}
            value={request}
            onChange={(event) => setRequest(event.target.value)}
            placeholder={
              'POST /v1/orders HTTP/1.1\nX-Client-Id: …\nX-Timestamp: …\nX-Nonce: …\nX-Signature: algorithm=RSA-SHA256, keyVersion=1, signature=…\n\n{"merchantOrderNo":…}'
            }
          />
          {fieldError('request')}
        </div>
        {kind === 'response' ? (
          <div className={form.field}>
            <label htmlFor={`${id}-response`}>The response as received (raw HTTP)</label>
            <textarea
              {...fieldProps('response')}
              rows={8}
              spellCheck={false}
              value={response}
              onChange={(event) => setResponse(event.target.value)}
              placeholder={'HTTP/1.1 200 OK\nX-Timestamp: …\nX-Nonce: …\nX-Signature: …\n\n{"code":"SUCCESS",…}'}
            />
            {fieldError('response')}
          </div>
        ) : null}
        <div className={form.field}>
          <label htmlFor={`${id}-key`}>
            {kind === 'request' ? 'The merchant key (PEM): its public key, or its private key' : 'The provider public key (PEM)'}
          </label>
          <textarea
            {...fieldProps('key')}
            rows={5}
            spellCheck={false}
            value={keyText}
            onChange={(event) => setKeyText(event.target.value)}
            placeholder="-----BEGIN PUBLIC KEY-----"
          />
          {fieldError('key')}
        </div>
        <div className={styles.row}>
          <div className={form.field}>
            <label htmlFor={`${id}-keyVersion`}>Version of this key (optional)</label>
            <input
              {...fieldProps('keyVersion')}
              className={styles.version}
              inputMode="numeric"
              autoComplete="off"
              value={keyVersion}
              onChange={(event) => setKeyVersion(event.target.value)}
            />
            {fieldError('keyVersion')}
          </div>
          <div className={styles.buttons}>
            <Button type="submit" variant="primary" disabled={result.status === 'checking'}>
              Check signature
            </Button>
            <Button variant="secondary" onClick={() => void loadExample()}>
              Load a fresh example
            </Button>
          </div>
        </div>
        {exampleError ? <p className={form.fieldError}>{exampleError}</p> : null}
      </form>
      <div aria-live="polite">
        {result.status === 'done' ? (
          <Report diagnosis={result.diagnosis} keyFormat={result.keyFormat} />
        ) : result.status === 'checking' ? (
          <p>Checking…</p>
        ) : null}
      </div>

      <h2 className={styles.title}>Make a key pair</h2>
      <p>
        A new 2048-bit RSA key pair, made by this browser’s WebCrypto: the private key in PKCS #8 (“BEGIN PRIVATE KEY”), the public key in
        SPKI (“BEGIN PUBLIC KEY”), as the API takes them. Register the public key with the sandbox; keep the private key on your server.
      </p>
      <div>
        <Button
          variant="secondary"
          disabled={pair === 'making'}
          onClick={() => {
            setPair('making');
            void generateKeyPair().then(setPair, () => setPair(undefined));
          }}
        >
          Generate a key pair
        </Button>
      </div>
      {pair && pair !== 'making' ? (
        <div className={styles.pair}>
          <div className={form.field}>
            <label htmlFor={`${id}-private`}>Private key (PKCS #8)</label>
            <textarea id={`${id}-private`} rows={8} readOnly spellCheck={false} value={pair.privateKeyPem} />
          </div>
          <div className={form.field}>
            <label htmlFor={`${id}-public`}>Public key (SPKI)</label>
            <textarea id={`${id}-public`} rows={8} readOnly spellCheck={false} value={pair.publicKeyPem} />
          </div>
        </div>
      ) : null}
    </section>
  );
}

const findingLabel: Record<Finding['severity'], {text: string; tone: 'danger' | 'warning' | 'info'}> = {
  error: {text: 'Problem', tone: 'danger'},
  warning: {text: 'Would be refused', tone: 'warning'},
  info: {text: 'Note', tone: 'info'},
};

function Report({diagnosis, keyFormat}: {diagnosis: Diagnosis; keyFormat: string}): ReactNode {
  const errors = diagnosis.findings.filter((finding) => finding.severity === 'error');
  const warnings = diagnosis.findings.filter((finding) => finding.severity === 'warning');
  const passes = diagnosis.verified && errors.length === 0;
  return (
    <div className={styles.report}>
      <p className={passes ? form.pass : form.fail}>
        <strong>{diagnosis.verified ? 'The signature verifies' : 'The signature does not verify'}</strong>
        {diagnosis.verified && errors.length > 0 ? ', but the message is wrong:' : diagnosis.verified ? ' with this key.' : '.'}{' '}
        <span className={styles.keyFormat}>(Key: {keyFormat}.)</span>
        {passes && warnings.length > 0 ? ' A verifier would still refuse the message as it stands now:' : ''}
      </p>
      {diagnosis.findings.length > 0 ? (
        <ol className={styles.findings} aria-label="Findings">
          {diagnosis.findings.map((finding, position) => (
            <li
              key={`${finding.cause}-${finding.message}`}
              data-cause={finding.cause}
              data-severity={finding.severity}
              className={styles[finding.severity]}
            >
              <Badge tone={findingLabel[finding.severity].tone}>
                {position === 0 && !diagnosis.verified && finding.severity === 'error'
                  ? 'Most likely cause'
                  : findingLabel[finding.severity].text}
              </Badge>{' '}
              {finding.message}
            </li>
          ))}
        </ol>
      ) : null}
      <h3 className={styles.subtitle}>Canonical string</h3>
      <p>The exact text that is signed, as UTF-8; “⏎” marks each line feed.</p>
      <pre className={styles.canonical} tabIndex={0} aria-label="Canonical string">
        {diagnosis.canonical.split('\n').join('⏎\n')}
      </pre>
      {diagnosis.expectedHeader ? (
        <>
          <h3 className={styles.subtitle}>Expected X-Signature</h3>
          <pre className={styles.canonical} tabIndex={0} aria-label="Expected X-Signature">
            {diagnosis.expectedHeader}
          </pre>
        </>
      ) : null}
    </div>
  );
}
