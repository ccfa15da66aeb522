/**
 * Every operation's and webhook's code samples, generated from the contract exactly as the pages show them,
 * run for real in all six languages against the local sandbox (src/sandbox/hosts/server, the engine behind
 * npm run sandbox), not a stand-in:
 * - every request sample, in every language, gets a real answer from the sandbox: before the samples run, a
 *   merchant of each (language, operation) is registered and given the objects the operation names with the
 *   contract's example numbers (ORD-20250601-0001 created, and paid where it must be; RFD-, TRF-, BTR-, CPO-
 *   and AGR- numbers created; a quote and an event under the example's own IDs), by signed calls and the
 *   control endpoints. The sample must print the data, and send generated merchant numbers, never the
 *   example's. A pass-through proxy in front of the sandbox records what each sample sent and what the
 *   sandbox answered;
 * - each language's request sample must reject a tampered response body, a response signed with a provider
 *   keyVersion it was not given, a stale response timestamp, a response bound to another request's nonce and
 *   an unsigned error page, and accept a rotated provider key once it is configured. The sandbox answers
 *   correctly, so a small faulty proxy between the sample and the sandbox spoils each answer on purpose;
 * - every notification handler receives a real delivery: its own sandbox, whose test merchant's default
 *   notifyUrl is the handler (with a query, which the signature covers), raises the webhook's event (an order
 *   paid, a refund, an agreement authorised, a chargeback, a wallet, bank or card payout, a VAM top-up), moving
 *   the sandbox clock on where the event waits; the handler must log that it applied it, the sandbox's log
 *   must show the attempt acknowledged, and a redelivery of it is acknowledged and not applied twice. Then
 *   hand-made deliveries check the rest: a duplicate notificationId is applied once, an unknown event type is
 *   stored, a configured rotated key is accepted, and a tampered body, an unknown keyVersion, a replayed
 *   nonce, a stale or malformed timestamp, another path (signed or posted), another client ID and a malformed
 *   X-Signature are rejected;
 * - the same request samples, built once, run a second time against the hosted target as the provider
 *   deploys it (two `--shared` instances behind hosting/sandbox/nginx.conf on one PostgreSQL database, seeded
 *   with the same merchants and objects), and so does the Newman run of the published collection;
 * - the curl notification sample (a test sender) is answered SUCCESS by a handler, and the integration guide's quick
 *   start (the curl sample of Create order) runs against the sandbox.
 * Every sample compiles: the Node.js samples type-check (strict) and run as TypeScript emits them, the Java
 * samples compile with Jackson in one javac call and run class by class, the Go samples are gofmt-clean and
 * run from one binary. Every language runs every operation and every webhook.
 */
import {after, before, describe, test} from 'node:test';
import assert from 'node:assert/strict';
import {spawn, type ChildProcess} from 'node:child_process';
import {generateKeyPairSync, randomUUID} from 'node:crypto';
import {existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync} from 'node:fs';
import http, {type IncomingMessage} from 'node:http';
import {createServer, type AddressInfo} from 'node:net';
import {tmpdir} from 'node:os';
import path from 'node:path';
import ts from 'typescript';
import type {LoadContext, PluginContentLoadedActions} from '@docusaurus/types';
import openapiContractPlugin, {quickStartModule} from '../../plugins/content/openapi-contract';
import {loadContract} from '../../src/contract/node/loadContract';
import {brand} from '../../src/brand';
import {canonicalString, formatSignatureHeader, importPrivateKey, responseCanonicalString, signCanonical} from '../../src/lib/signing';
import {
  notificationApplied,
  notificationRejected,
  pascalCase,
  providerKeysMissing,
  rejection,
  renderSamples,
  responseRejected,
  sampleEnvironment,
  sampleInputFor,
  timestampPattern,
  windowSeconds,
  type RenderedSample,
  type SampleInput,
  type SampleLanguage,
} from '../../src/lib/samples';
import {testMerchant} from '../../src/lib/samples/testMerchant';
import type {JsonValue} from '../../src/contract/openapiTypes';
import type {NotificationTransport, SandboxRequest, SandboxResponse} from '../../src/sandbox/engine/http';
import type {RecordValue, SandboxStore} from '../../src/sandbox/engine/store';
import {createNodeEngine, sandboxFiles} from '../../src/sandbox/hosts/server/loadEngine';
import {createHttpTransport, startSandboxServer, type SandboxServer} from '../../src/sandbox/hosts/server/server';
import {repoRoot} from '../support/routeContract';
import {sandboxClient} from '../support/sandboxClient';
import {toolchains} from '../../tooling/toolchains';
import {jacksonClassPath, sampleLibraries} from '../../tooling/sampleLibraries';
import {seedRecords, startSharedSandbox, type SharedSandbox} from '../support/sharedSandbox';
import {assertFullRun, contractCollection, merchantPrivateKeyPem as newmanKeyPem, runNewman, seenInLog} from '../support/newman';

const contract = loadContract(path.join(repoRoot, 'api', 'openapi.yaml'));
const keys = path.join(repoRoot, 'api', 'test-vectors');
/** The sandbox's test merchant: the handlers' sandboxes deliver as it. */
const clientId = brand.sandboxClientId;
const merchantPublicKeyPem = readFileSync(path.join(keys, 'merchant-test-public.pem'), 'utf8');
const merchantPrivateKey = importPrivateKey(readFileSync(path.join(keys, 'merchant-test-private.pem'), 'utf8'));
const workDir = mkdtempSync(path.join(tmpdir(), 'portal-samples-'));
const python = toolchains.python();
const jackson = jacksonClassPath();

const all = [...contract.operations.values()].map((location) => {
  const input = sampleInputFor(contract.document, location);
  return {location, input, samples: renderSamples(input)};
});
const operations = all.filter((entry) => entry.location.kind === 'operation');
const webhooks = all.filter((entry) => entry.location.kind === 'webhook');

function sample(samples: readonly RenderedSample[], language: SampleLanguage): RenderedSample {
  const found = samples.find((candidate) => candidate.language === language);
  assert.ok(found, `no ${language} sample`);
  return found;
}

function writeFile(file: string, text: string): string {
  mkdirSync(path.dirname(file), {recursive: true});
  writeFileSync(file, text);
  return file;
}

interface Finished {
  readonly status: number | null;
  readonly output: string;
}

/** Runs a command to its end without blocking this process, which serves the sandbox and the proxies the sample calls. */
function run(command: string, args: readonly string[], env: NodeJS.ProcessEnv = {}, cwd = workDir): Promise<Finished> {
  return new Promise((resolve) => {
    const child = spawn(command, args, {cwd, env: {...process.env, ...env}, stdio: ['ignore', 'pipe', 'pipe']});
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const timer = setTimeout(() => child.kill(), 60_000);
    child.on('error', (error) => (output += String(error)));
    child.on('close', (status) => {
      clearTimeout(timer);
      resolve({status, output});
    });
  });
}

// Provider keys: the sandbox's (keyVersion 1, the published test key) and two throw-away keys, one the
// samples are given as keyVersion 2 (a rotation announced and configured), one they are not (keyVersion 3).
const providerTestKey = {privateKeyPem: readFileSync(path.join(keys, 'provider-test-private.pem'), 'utf8'), keyVersion: 1};
function throwAwayKey(keyVersion: number): {privateKeyPem: string; publicKeyFile: string; keyVersion: number} {
  const pair = generateKeyPairSync('rsa', {modulusLength: 2048});
  const publicKeyFile = writeFile(
    path.join(workDir, 'keys', `provider-${keyVersion}-public.pem`),
    pair.publicKey.export({type: 'spki', format: 'pem'}).toString(),
  );
  return {privateKeyPem: pair.privateKey.export({type: 'pkcs8', format: 'pem'}).toString(), publicKeyFile, keyVersion};
}
const rotatedKey = throwAwayKey(2);
const unknownKey = throwAwayKey(3);
const providerKeys = `1=${path.join(keys, 'provider-test-public.pem')}`;
const providerKeysAfterRotation = `${providerKeys},2=${rotatedKey.publicKeyFile}`;

const signingKeys = new Map<number, Promise<CryptoKey>>();
function signingKey(key: {privateKeyPem: string; keyVersion: number}): Promise<CryptoKey> {
  let imported = signingKeys.get(key.keyVersion);
  if (!imported) {
    imported = importPrivateKey(key.privateKeyPem);
    signingKeys.set(key.keyVersion, imported);
  }
  return imported;
}

function utcSeconds(date: Date): string {
  return date.toISOString().replace(/\.\d{3}Z$/, 'Z');
}

async function until<T>(what: string, probe: () => Promise<T | undefined>, timeoutMs = 10_000): Promise<T> {
  for (const deadline = Date.now() + timeoutMs; ; ) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) assert.fail(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

function readBody(request: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    request.on('error', reject);
  });
}

/** An HTTP server on a free port of 127.0.0.1, with a close that waits for it. */
async function listen(server: http.Server): Promise<{origin: string; close: () => Promise<void>}> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const {port} = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

// ---------------------------------------------------------------------------------------------------------
// The sandbox: the engine behind npm run sandbox, over HTTP, with helpers to set up what a sample needs.

/**
 * Notifications go out over real HTTP to this machine only: the examples' notifyUrls (shop.example.com and
 * the like) are recorded as failed attempts instead of being looked up and called.
 */
const localTransport: NotificationTransport = (() => {
  const overHttp = createHttpTransport();
  return {
    deliver: (delivery) =>
      new URL(delivery.url).hostname === '127.0.0.1'
        ? overHttp.deliver(delivery)
        : Promise.resolve({error: `not delivered: ${delivery.url} is not on this machine`}),
  };
})();

/** A store that keeps the records the engine commits, so a sandbox can be started again over them. */
function recordStore(initial: Iterable<readonly [string, RecordValue]> = []): SandboxStore & {readonly records: Map<string, RecordValue>} {
  const records = new Map<string, RecordValue>(initial);
  return {
    records,
    load: async () => [...records],
    commit: async (changes) => {
      for (const {key, value} of changes) {
        if (value === undefined) records.delete(key);
        else records.set(key, JSON.parse(JSON.stringify(value)) as RecordValue);
      }
    },
    clear: async () => records.clear(),
  };
}

async function startSandbox(store?: SandboxStore): Promise<SandboxServer> {
  const engine = await createNodeEngine({transport: localTransport, ...(store ? {store} : {})});
  return startSandboxServer({engine, port: 0});
}

/** A control endpoint call (unsigned JSON), which must succeed; answers its JSON. */
async function control(base: string, method: string, target: string, body?: unknown): Promise<Record<string, unknown>> {
  const response = await fetch(`${base}${target}`, {method, ...(body === undefined ? {} : {body: JSON.stringify(body)})});
  const text = await response.text();
  assert.equal(response.status, 200, `${method} ${target}: ${text}`);
  return JSON.parse(text) as Record<string, unknown>;
}

function registerMerchant(base: string, wanted?: string): Promise<string> {
  return control(base, 'POST', '/_sandbox/merchants', {...(wanted ? {clientId: wanted} : {}), publicKeyPem: merchantPublicKeyPem}).then(
    (answer) => String(answer['clientId']),
  );
}

/** An attempt in the sandbox's notification log (GET /_sandbox/notifications). */
interface LoggedAttempt {
  readonly notificationId: string;
  readonly eventType: string;
  readonly url: string;
  readonly acknowledged: boolean;
  readonly httpStatus?: number;
  readonly error?: string;
}

async function loggedAttempts(base: string, merchant: string): Promise<LoggedAttempt[]> {
  return (await control(base, 'GET', `/_sandbox/notifications?clientId=${merchant}`))['deliveries'] as LoggedAttempt[];
}

/** The engine's handle() over HTTP, for tests/support/sandboxClient: header names as the server writes them. */
function overHttp(base: string): (request: SandboxRequest) => Promise<SandboxResponse> {
  return async (request) => {
    const headers: Record<string, string> = {};
    for (const [name, value] of Object.entries(request.headers)) if (value !== undefined) headers[name] = value;
    const response = await fetch(`${base}${request.target}`, {
      method: request.method,
      headers,
      ...(request.body === '' ? {} : {body: request.body}),
    });
    const received: Record<string, string> = {};
    response.headers.forEach((value, name) => {
      received[name.replace(/(^|-)[a-z]/g, (letter) => letter.toUpperCase())] = value;
    });
    return {status: response.status, headers: received, body: await response.text()};
  };
}

type RequestInput = Extract<SampleInput, {kind: 'request'}>;
type JsonObject = {[key: string]: JsonValue};

function requestInput(operationId: string): RequestInput {
  const found = operations.find((entry) => entry.location.operationId === operationId)?.input;
  assert.ok(found?.kind === 'request', `no operation ${operationId}`);
  return found;
}

/** The values of an operation's example path parameters, such as {merchantOrderNo: 'ORD-20250601-0001'}. */
function examplePathValues(operationId: string): Record<string, string> {
  const location = operations.find((entry) => entry.location.operationId === operationId)?.location;
  assert.ok(location);
  const names: string[] = [];
  const pattern = location.key.replace(/\{([^}]+)\}/g, (_, name: string) => {
    names.push(name);
    return '([^/]+)';
  });
  const match = new RegExp(`^${pattern}$`).exec(requestInput(operationId).pathWithQuery.split('?')[0] ?? '');
  assert.ok(match, `${operationId}: the example path does not match ${location.key}`);
  return Object.fromEntries(names.map((name, index) => [name, decodeURIComponent(match[index + 1] ?? '')]));
}

/** An operation's example body, without its notifyUrl (no one listens there), with `changes` on top. */
function exampleBody(operationId: string, changes: JsonObject = {}): JsonObject {
  const body = requestInput(operationId).body;
  assert.ok(body !== null && typeof body === 'object' && !Array.isArray(body), `${operationId} takes a JSON object`);
  const copy: JsonObject = {...body, ...changes};
  delete copy['notifyUrl'];
  return copy;
}

const sandboxData = sandboxFiles().spec.sandbox;
/** A card the sandbox cashier accepts and whose payments follow the amount's ending (the example amounts pay). */
const payingCard = sandboxData.cards.cards.find((card) => card.behavior === 'ENDINGS')?.number ?? '';
const everydayWallet = sandboxData.wallets[0]?.phone ?? '';

/** A merchant of one sandbox, as a test sets it up: signed calls, shopper actions, control endpoints. */
function merchantSession(base: string, merchant: string) {
  const client = sandboxClient({handle: overHttp(base), now: () => Date.now(), clientId: merchant});
  const session = {
    clientId: merchant,
    /** A signed call, which must succeed with a signed answer that matches the contract; answers its data. */
    async call(method: string, target: string, body?: JsonObject): Promise<JsonObject> {
      const result = await client.call(method, target, body);
      assert.deepEqual([result.json.code, result.problems], ['SUCCESS', []], `${merchant}: ${method} ${target}: ${result.body}`);
      return (result.json.data ?? {}) as JsonObject;
    },
    /** The operation's example call (path and query as in the contract), with changes to its body. */
    example(operationId: string, changes: JsonObject = {}): Promise<JsonObject> {
      const input = requestInput(operationId);
      return session.call(input.method, input.requestTarget, input.body === undefined ? undefined : exampleBody(operationId, changes));
    },
    control: (method: string, target: string, body?: unknown) => control(base, method, target, body),
    /** Create order's example under another merchantOrderNo (the order a sample names), PENDING. */
    order: (merchantOrderNo: string) => session.example('createOrder', {merchantOrderNo}),
    /** The customer pays an order with a sandbox card. */
    pay: (merchantOrderNo: string) =>
      session.control('POST', '/_sandbox/shopper/pay', {clientId: merchant, merchantOrderNo, method: 'CARD', cardNumber: payingCard}),
    async paidOrder(merchantOrderNo: string): Promise<void> {
      await session.order(merchantOrderNo);
      const paid = await session.pay(merchantOrderNo);
      assert.equal(paid['status'], 'PAID', JSON.stringify(paid));
    },
    /** A quote from Rate calculator for Transfer to bank's example body. */
    async quoteForBankTransfer(): Promise<string> {
      const body = exampleBody('transferToBank');
      const amount = body['amount'] as {currency: string};
      const beneficiary = body['beneficiary'] as {country: string};
      const quote = await session.call('POST', requestInput('calculateRate').requestTarget, {
        sourceCurrency: amount.currency,
        destinationCountry: beneficiary.country,
        destinationCurrency: body['destinationCurrency'] as string,
        sourceAmount: body['amount'] as JsonObject,
      });
      return String(quote['quoteId']);
    },
    setNotifyUrl: (url: string | null) => session.control('PATCH', `/_sandbox/merchants/${merchant}`, {defaultNotifyUrl: url}),
    advance: (seconds: number) => session.control('POST', '/_sandbox/clock/advance', {seconds}),
  };
  return session;
}

type MerchantSession = ReturnType<typeof merchantSession>;

// ---------------------------------------------------------------------------------------------------------
// The state each request sample needs: its operation's merchant gets the objects the example names.

/** A sandbox-assigned ID in a record, to be served under the contract example's ID instead. */
interface Rename {
  readonly from: string;
  readonly to: string;
}

/** A receiver that acknowledges every notification: where Redeliver event's example event is delivered. */
const acknowledger = listen(
  http.createServer((request, response) => {
    void readBody(request).then(() => response.writeHead(200, {'Content-Type': 'application/json'}).end('{"code":"SUCCESS"}'));
  }),
);

/**
 * What each operation's example needs to exist, made with the contract's own example calls. Two examples name
 * IDs the sandbox assigns itself, which no call can choose: Transfer to bank's quoteId and Redeliver event's
 * notificationId. The sandbox makes a real quote and a real event, and the rename serves them under the
 * example's IDs (see requestSandbox).
 */
const setups: Record<string, (merchant: MerchantSession, rename: (rename: Rename) => void) => Promise<unknown>> = {
  retrieveOrderDetail: (merchant) => merchant.order(examplePathValues('retrieveOrderDetail')['merchantOrderNo'] ?? ''),
  retrieveOrderPayer: (merchant) => merchant.paidOrder(examplePathValues('retrieveOrderPayer')['merchantOrderNo'] ?? ''),
  cancelOrder: (merchant) => merchant.order(examplePathValues('cancelOrder')['merchantOrderNo'] ?? ''),
  revokeOrder: (merchant) => merchant.paidOrder(examplePathValues('revokeOrder')['merchantOrderNo'] ?? ''),
  refundOrder: (merchant) => merchant.paidOrder(examplePathValues('refundOrder')['merchantOrderNo'] ?? ''),
  adjustOrderExpiryTime: (merchant) => merchant.order(examplePathValues('adjustOrderExpiryTime')['merchantOrderNo'] ?? ''),
  getCashierUrl: (merchant) => merchant.order(examplePathValues('getCashierUrl')['merchantOrderNo'] ?? ''),
  async queryRefund(merchant) {
    await merchant.paidOrder(examplePathValues('refundOrder')['merchantOrderNo'] ?? '');
    await merchant.example('refundOrder', {merchantRefundNo: examplePathValues('queryRefund')['merchantRefundNo'] ?? ''});
  },
  queryTransfer: (merchant) =>
    merchant.example('transfer', {merchantTransferNo: examplePathValues('queryTransfer')['merchantTransferNo'] ?? ''}),
  async transferToBank(merchant, rename) {
    rename({from: await merchant.quoteForBankTransfer(), to: String(exampleBody('transferToBank')['quoteId'])});
  },
  async queryTransferToBank(merchant) {
    const quoteId = await merchant.quoteForBankTransfer();
    await merchant.example('transferToBank', {
      merchantTransferNo: examplePathValues('queryTransferToBank')['merchantTransferNo'] ?? '',
      quoteId,
    });
  },
  queryBankCardTransfer: (merchant) =>
    merchant.example('transferToBankCard', {merchantTransferNo: examplePathValues('queryBankCardTransfer')['merchantTransferNo'] ?? ''}),
  async redeliverEvent(merchant, rename) {
    const merchantOrderNo = requestInput('createOrder').generated[0]?.example ?? '';
    await merchant.paidOrder(merchantOrderNo);
    const hour = 3_600_000;
    const range = `createdFrom=${encodeURIComponent(utcSeconds(new Date(Date.now() - hour)))}&createdTo=${encodeURIComponent(utcSeconds(new Date(Date.now() + hour)))}`;
    const listed = await merchant.call('GET', `/v1/events?${range}&eventType=ORDER.PAID`);
    const [paid] = listed['events'] as Array<{notificationId: string}>;
    assert.ok(paid, JSON.stringify(listed));
    // Raised with no URL to go to; redelivered, it goes to the default URL, which acknowledges it.
    await merchant.setNotifyUrl(`${(await acknowledger).origin}/notify`);
    rename({from: paid.notificationId, to: examplePathValues('redeliverEvent')['notificationId'] ?? ''});
  },
  queryAgreement: (merchant) =>
    merchant.example('createAgreement', {merchantAgreementNo: examplePathValues('queryAgreement')['merchantAgreementNo'] ?? ''}),
  async cancelAgreement(merchant) {
    const merchantAgreementNo = examplePathValues('cancelAgreement')['merchantAgreementNo'] ?? '';
    await merchant.example('createAgreement', {merchantAgreementNo});
    await merchant.control('POST', '/_sandbox/shopper/agreements/authorize', {
      clientId: merchant.clientId,
      merchantAgreementNo,
      wallet: everydayWallet,
    });
  },
};

const languages = ['curl', 'node', 'python', 'java', 'php', 'go'] as const satisfies readonly SampleLanguage[];

/** The merchant a request sample of one language and operation runs as: its own, so no two samples share state. */
const merchantFor = (language: SampleLanguage, operationId: string) => `${language}-${operationId.toLowerCase()}`;

/**
 * The records of the sandboxes the request samples call. Set up in two steps: a first sandbox gets every
 * merchant and object by API and control calls; then its records (the store interface the journal file and
 * PostgreSQL use) are taken, with the sandbox-assigned IDs of the two examples that name such IDs renamed to
 * the example's (a quote and an event, each made by the sandbox, for that merchant only). Both targets start
 * over them: a sandbox in this process, and the hosted deployment's database before its instances start.
 */
async function requestRecords(): Promise<Array<[string, RecordValue]>> {
  const store = recordStore();
  const first = await startSandbox(store);
  const renames: Rename[] = [];
  try {
    await Promise.all(
      operations.flatMap(({location}) =>
        languages.map(async (language) => {
          const merchant = merchantSession(first.url, await registerMerchant(first.url, merchantFor(language, location.operationId)));
          await setups[location.operationId]?.(merchant, (rename) => renames.push(rename));
        }),
      ),
    );
  } finally {
    await first.close();
  }
  return [...store.records].map(([key, value]) => {
    let text = JSON.stringify([key, value]);
    for (const {from, to} of renames) text = text.split(from).join(to);
    return JSON.parse(text) as [string, RecordValue];
  });
}

// ---------------------------------------------------------------------------------------------------------
// Preparing each language: write every sample, then compile what needs compiling, all at once.

const nodeFiles = new Map<string, string>();
/** Short runs: the quick JIT tier only and the simplest collector start soonest. */
const javaRunFlags = ['-XX:TieredStopAtLevel=1', '-XX:+UseSerialGC'];
const javaClasses = path.join(workDir, 'java-classes');
const goBinary = path.join(workDir, 'go-build', 'samples');
const goEnv = {GOTOOLCHAIN: 'local', GOFLAGS: '-mod=mod', GOPATH: path.join(workDir, 'gopath'), GOCACHE: path.join(workDir, 'gocache')};

/** Type-checks every Node.js sample (strict) and emits it as JavaScript to run, with one program. */
function prepareNode(): ts.Diagnostic[] {
  const dir = path.join(workDir, 'node');
  writeFile(path.join(dir, 'package.json'), JSON.stringify({type: 'module'}));
  const sources = all.map(({location, samples}) => {
    const rendered = sample(samples, 'node');
    nodeFiles.set(location.operationId, path.join(dir, rendered.fileName.replace(/\.ts$/, '.js')));
    return writeFile(path.join(dir, rendered.fileName), rendered.code);
  });
  const program = ts.createProgram(sources, {
    strict: true,
    noUncheckedIndexedAccess: true,
    skipLibCheck: true,
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    types: ['node'],
    typeRoots: [path.join(repoRoot, 'node_modules', '@types')],
  });
  return [...ts.getPreEmitDiagnostics(program), ...program.emit().diagnostics];
}

/**
 * The JVM's start-up is most of a Java sample's run, and there are some fifty runs: the compiled samples go
 * into one jar, and a first run records the classes it loads (Jackson, HTTP, signing, the sample's own) in a
 * class-data archive (CDS, JDK 13+) that every later run maps instead of loading and verifying them again: about
 * 30 % less CPU per run. The archive only speeds loading; a run without it behaves the same.
 */
const javaJar = path.join(workDir, 'java-samples.jar');
const javaArchive = path.join(workDir, 'java-samples.jsa');
const javaClassPath = () => [javaJar, ...(jackson ? [jackson] : [])].join(path.delimiter);
let javaArchiveMade = false;

async function prepareJava(): Promise<Finished> {
  const files = all.map(({samples}) => {
    const rendered = sample(samples, 'java');
    return writeFile(path.join(workDir, 'java', rendered.fileName), rendered.code);
  });
  const compiled = await run('javac', ['-cp', jackson ?? '', '-d', javaClasses, ...files]);
  if (compiled.status !== 0) return compiled;
  const packed = await run('jar', ['cf', javaJar, '-C', javaClasses, '.']);
  if (packed.status !== 0) return packed;
  // The recording run signs and serialises a Create order, then finds no server (port 9 refuses): it fails, as
  // it should, after loading nearly every class a real run loads.
  await run(
    'java',
    [...javaRunFlags, `-XX:ArchiveClassesAtExit=${javaArchive}`, '-cp', javaClassPath(), pascalCase('createOrder')],
    requestEnv({origin: 'http://127.0.0.1:9', exchanges: []}, merchantFor('java', 'createOrder')),
  );
  javaArchiveMade = existsSync(javaArchive);
  return compiled;
}

/**
 * Go links slowly: the samples are built into one binary, each in its own package (package main renamed,
 * main renamed Main), and gofmt checks them as written.
 */
async function prepareGo(): Promise<{format: Finished; build: Finished}> {
  const asWritten = path.join(workDir, 'go');
  const buildDir = path.dirname(goBinary);
  writeFile(path.join(buildDir, 'go.mod'), 'module samples\n\ngo 1.19\n');
  const packages = all.map(({location, samples}) => {
    const rendered = sample(samples, 'go');
    const name = location.operationId.toLowerCase();
    writeFile(path.join(asWritten, rendered.fileName), rendered.code);
    const asPackage = rendered.code.replace(/^package main$/m, `package ${name}`).replace(/^func main\(\) \{$/m, 'func Main() {');
    writeFile(path.join(buildDir, name, rendered.fileName), asPackage);
    return {operationId: location.operationId, name};
  });
  writeFile(
    path.join(buildDir, 'main.go'),
    `package main

import (
\t"os"
${packages.map(({name}) => `\t"samples/${name}"`).join('\n')}
)

var samples = map[string]func(){
${packages.map(({operationId, name}) => `\t"${operationId}": ${name}.Main,`).join('\n')}
}

func main() {
\tsamples[os.Args[1]]()
}
`,
  );
  const [format, build] = await Promise.all([run('gofmt', ['-l', asWritten]), run('go', ['build', '-o', goBinary, '.'], goEnv, buildDir)]);
  return {format, build};
}

function prepareFiles(language: 'curl' | 'python' | 'php'): Map<string, string> {
  return new Map(
    all.map(({location, samples}) => {
      const rendered = sample(samples, language);
      return [location.operationId, writeFile(path.join(workDir, language, rendered.fileName), rendered.code)];
    }),
  );
}

let prepared: Promise<{node: ts.Diagnostic[]; java: Finished; go: {format: Finished; build: Finished}}>;
let sandbox: Promise<SandboxServer>;
/**
 * The hosted target as point 6 of issue 33 asks: two sandbox instances with `--database URL --shared` (the bundled
 * download, as the service unit runs it) behind nginx (hosting/sandbox/nginx.conf) on one PostgreSQL database, seeded with the same records. Each
 * request sample, built once, runs against both targets; so does the Newman run of the published collection.
 */
let hosted: Promise<SharedSandbox>;
const scripts = {curl: prepareFiles('curl'), python: prepareFiles('python'), php: prepareFiles('php')};

before(() => {
  const records = requestRecords();
  sandbox = records.then((seeded) => startSandbox(recordStore(seeded)));
  hosted = records.then((seeded) => startSharedSandbox([[], []], (database) => seedRecords(database, seeded)));
  prepared = (async () => {
    const [java, go] = [prepareJava(), prepareGo()];
    return {node: prepareNode(), java: await java, go: await go};
  })();
  return Promise.all([prepared, sandbox, hosted]);
});

after(async () => {
  await Promise.allSettled([
    sandbox.then((server) => server.close()),
    hosted.then((deployment) => deployment.stop()),
    acknowledger.then((server) => server.close()),
  ]);
  rmSync(workDir, {recursive: true, force: true});
});

/** The command that runs one sample, as its language runs it. */
function command(language: SampleLanguage, operationId: string): {command: string; args: string[]} {
  const file = (files: Map<string, string>) => {
    const found = files.get(operationId);
    assert.ok(found, `${language}: no sample file for ${operationId}`);
    return found;
  };
  switch (language) {
    case 'curl':
      return {command: 'bash', args: [file(scripts.curl)]};
    case 'node':
      return {command: process.execPath, args: [file(nodeFiles)]};
    case 'python':
      assert.ok(python, 'Python with the cryptography package is needed (npm run test:samples installs it as root).');
      return {command: python, args: [file(scripts.python)]};
    case 'java':
      return {
        command: 'java',
        args: [
          ...javaRunFlags,
          ...(javaArchiveMade ? [`-XX:SharedArchiveFile=${javaArchive}`] : []),
          '-cp',
          javaClassPath(),
          pascalCase(operationId),
        ],
      };
    case 'php':
      return {command: 'php', args: [file(scripts.php)]};
    case 'go':
      return {command: goBinary, args: [operationId]};
  }
}

describe('every sample compiles', () => {
  test('Node.js samples type-check (strict)', async () => {
    const diagnostics = (await prepared).node;
    const text = ts.formatDiagnostics(diagnostics, {
      getCanonicalFileName: (name) => name,
      getCurrentDirectory: () => workDir,
      getNewLine: () => '\n',
    });
    assert.equal(diagnostics.length, 0, text);
  });

  test('Java samples compile with javac and Jackson', async () => {
    assert.ok(jackson, `Jackson is needed (Debian: ${sampleLibraries.jackson.debianPackage})`);
    const {java} = await prepared;
    assert.equal(java.status, 0, java.output);
  });

  test('Go samples are gofmt-formatted and build', async () => {
    const {go} = await prepared;
    assert.equal(go.format.status, 0, go.format.output);
    assert.equal(go.format.output, '', `gofmt would change: ${go.format.output}`);
    assert.equal(go.build.status, 0, go.build.output);
  });
});

// ---------------------------------------------------------------------------------------------------------
// Request samples.

/**
 * What a sample sent through the proxy, and what the sandbox answered it (before any fault).
 */
interface Exchange {
  readonly method: string;
  readonly target: string;
  readonly body: string;
  /** The request's X-Client-Id. */
  readonly clientId: string;
  readonly status: number;
  readonly answer: string;
  /** The answer's result code, when it is the API's JSON envelope. */
  readonly code: string | undefined;
}

/**
 * How the faulty proxy spoils the sandbox's correct answer, each a response a sample must reject:
 * - tamperedBody: the body is changed after signing (still valid JSON with the same content);
 * - staleTimestamp: X-Timestamp older than the window, and signed for it with the provider test key;
 * - otherRequestNonce: the proxy sends the request on under a fresh nonce, signed again with the merchant
 *   test key, so the sandbox's correctly signed answer is bound to another request's nonce;
 * - unsigned: an HTML 502 without signature headers, as a load balancer sends.
 * A key version the sample does not know is not a fault: the proxy signs the answer again with `providerKey`.
 */
type Fault = 'tamperedBody' | 'staleTimestamp' | 'otherRequestNonce' | 'unsigned';

interface Proxy {
  /** Scheme, host and port: the samples' VELOXA_API_HOST. */
  readonly origin: string;
  readonly exchanges: Exchange[];
}

/** Headers a proxy does not pass on: they describe the connection or the encoding, not the message. */
const hopByHop = new Set(['connection', 'keep-alive', 'transfer-encoding', 'content-length', 'content-encoding']);

/**
 * A proxy in front of the sandbox (`upstream`, else the one in this process): passes each request on as it came (bytes, target and signature headers),
 * records it with the sandbox's answer, and passes the answer back, spoiled by `fault` or signed again with
 * `providerKey` when one is given.
 */
async function withProxy<T>(
  options: {fault?: Fault; providerKey?: {privateKeyPem: string; keyVersion: number}; upstream?: string},
  action: (proxy: Proxy) => Promise<T>,
): Promise<T> {
  const upstream = options.upstream ?? (await sandbox).url;
  const {fault} = options;
  const exchanges: Exchange[] = [];
  const server = http.createServer((request, response) => {
    void (async () => {
      const body = await readBody(request);
      const method = request.method ?? 'GET';
      const target = request.url ?? '/';
      const header = (name: string) => String(request.headers[name] ?? '');
      const signed = {
        method,
        pathWithQuery: target,
        clientId: header('x-client-id'),
        timestamp: header('x-timestamp'),
        nonce: header('x-nonce'),
      };
      const sent: Record<string, string> = {};
      for (const name of ['content-type', 'x-client-id', 'x-timestamp', 'x-nonce', 'x-signature'])
        if (request.headers[name] !== undefined) sent[name] = header(name);
      if (fault === 'otherRequestNonce') {
        sent['x-nonce'] = randomUUID();
        const signature = await signCanonical(canonicalString({...signed, nonce: sent['x-nonce'], body}), await merchantPrivateKey);
        sent['x-signature'] = formatSignatureHeader({algorithm: 'RSA-SHA256', keyVersion: 1, signature});
      }
      const answered = await fetch(`${upstream}${target}`, {method, headers: sent, ...(body === '' ? {} : {body})});
      const answer = await answered.text();
      let code: string | undefined;
      try {
        code = (JSON.parse(answer) as {code?: string}).code;
      } catch {
        code = undefined;
      }
      exchanges.push({method, target, body, clientId: signed.clientId, status: answered.status, answer, code});

      if (fault === 'unsigned') {
        response.writeHead(502, {'Content-Type': 'text/html'}).end('<html><body>502 Bad Gateway</body></html>');
        return;
      }
      const headers: Record<string, string> = {};
      answered.headers.forEach((value, name) => {
        if (!hopByHop.has(name)) headers[name] = value;
      });
      const signWith = options.providerKey ?? (fault === 'staleTimestamp' ? providerTestKey : undefined);
      if (fault === 'staleTimestamp') headers['x-timestamp'] = utcSeconds(new Date(Date.now() - 2 * windowSeconds * 1000));
      if (signWith) {
        const canonical = responseCanonicalString({
          request: signed,
          status: answered.status,
          timestamp: headers['x-timestamp'] ?? '',
          nonce: headers['x-nonce'] ?? '',
          body: answer,
        });
        headers['x-signature'] = formatSignatureHeader({
          algorithm: 'RSA-SHA256',
          keyVersion: signWith.keyVersion,
          signature: await signCanonical(canonical, await signingKey(signWith)),
        });
      }
      // The tampered body has the same JSON content, so a sample that parses without verifying would accept it.
      const out = fault === 'tamperedBody' ? answer.replace(/^\{/, '{ ') : answer;
      response.writeHead(answered.status, {...headers, 'content-length': String(Buffer.byteLength(out))}).end(out);
    })().catch((error: unknown) => {
      response.writeHead(500, {'Content-Type': 'text/plain'}).end(`proxy: ${String(error)}`);
    });
  });
  const proxy = await listen(server);
  try {
    return await action({origin: proxy.origin, exchanges});
  } finally {
    await proxy.close();
  }
}

function requestEnv(proxy: Proxy, merchant: string, keysOfProvider = providerKeys): NodeJS.ProcessEnv {
  return {
    VELOXA_API_HOST: proxy.origin,
    VELOXA_CLIENT_ID: merchant,
    VELOXA_PRIVATE_KEY_PATH: path.join(keys, 'merchant-test-private.pem'),
    VELOXA_KEY_VERSION: '1',
    VELOXA_PROVIDER_KEYS: keysOfProvider,
  };
}

/** Runs a request sample through a proxy; checks the sandbox got exactly the operation's request, once. */
async function runRequest(
  language: SampleLanguage,
  operationId: string,
  proxy: Proxy,
  merchant: string,
  keysOfProvider?: string,
): Promise<Finished & {exchange: Exchange}> {
  await prepared;
  const {command: program, args} = command(language, operationId);
  const result = await run(program, args, requestEnv(proxy, merchant, keysOfProvider));
  assert.equal(proxy.exchanges.length, 1, `expected one request, got ${proxy.exchanges.length}: ${result.output}`);
  const [exchange] = proxy.exchanges;
  assert.ok(exchange);
  const input = requestInput(operationId);
  assert.deepEqual([exchange.method, exchange.target], [input.method, input.requestTarget], result.output);
  return {...result, exchange};
}

/** Checks made after a sample, on what the sample did in the sandbox at `upstream` as `merchant`. */
const afterChecks: Record<string, (upstream: string, merchant: string) => Promise<void>> = {
  /**
   * The example event, raised with no URL to go to, is delivered once, to the merchant's default URL, and
   * acknowledged: read in the sandbox's delivery log, which on the hosted target is one log for both instances,
   * whichever of them sent it.
   */
  async redeliverEvent(upstream, merchant) {
    const notificationId = examplePathValues('redeliverEvent')['notificationId'];
    const attempts = await until(`the redelivery of ${notificationId}`, async () => {
      const found = (await loggedAttempts(upstream, merchant)).filter((entry) => entry.notificationId === notificationId);
      return found.length > 0 ? found : undefined;
    });
    const url = `${(await acknowledger).origin}/notify`;
    assert.deepEqual(
      attempts.map((attempt) => [attempt.url, attempt.acknowledged]),
      [[url, true]],
    );
  },
};

describe('request samples get real answers from the sandbox', {concurrency: 4}, () => {
  test('curl: the integration guide quick start', async () => {
    // The snippet as the contract plugin writes it for the QuickStart component of the integration guide.
    const generatedFilesDir = path.join(workDir, 'generated');
    const plugin = openapiContractPlugin({siteDir: repoRoot, generatedFilesDir} as LoadContext);
    const content = await plugin.loadContent?.();
    await plugin.contentLoaded?.({content, actions: {} as PluginContentLoadedActions});
    const quickStart = JSON.parse(readFileSync(path.join(generatedFilesDir, quickStartModule), 'utf8')) as RenderedSample;
    const file = writeFile(path.join(workDir, 'quick-start', quickStart.fileName), quickStart.code);
    const merchant = await registerMerchant((await sandbox).url);
    await withProxy({}, async (proxy) => {
      const result = await run('bash', [file], requestEnv(proxy, merchant));
      assert.equal(proxy.exchanges.length, 1, result.output);
      assert.deepEqual(
        [proxy.exchanges[0]?.target, proxy.exchanges[0]?.code],
        [requestInput('createOrder').requestTarget, 'SUCCESS'],
        proxy.exchanges[0]?.answer,
      );
      assert.equal(result.status, 0, result.output);
    });
  });

  for (const {location, input} of operations) {
    for (const language of languages) {
      test(`${language}: ${location.operationId}`, async () =>
        requestSampleAnswered(language, location.operationId, input, (await sandbox).url));
    }
  }
});

/** A request sample, run through a proxy to `upstream` as its operation's merchant, gets SUCCESS and prints the data. */
function requestSampleAnswered(language: SampleLanguage, operationId: string, input: SampleInput, upstream: string): Promise<void> {
  return withProxy({upstream}, async (proxy) => {
    const merchant = merchantFor(language, operationId);
    const result = await runRequest(language, operationId, proxy, merchant);
    assert.equal(result.exchange.code, 'SUCCESS', `the sandbox answered: ${result.exchange.answer}`);
    assert.equal(result.status, 0, result.output);
    assert.match(result.output, /\S/, 'the sample prints the response data');
    assertGeneratedValues(input, result.exchange.body);
    await afterChecks[operationId]?.(upstream, merchant);
  });
}

/**
 * On the hosted target, every operation runs once, in one of the languages whose run costs least (one process
 * start, no VM), taken in turn; every language runs a write with a body and a read by path. What the hosted
 * target adds to a sample is the deployment between it and the engine (nginx, two instances, PostgreSQL), the
 * same whatever language sent the request: each operation through it once, and each language's client through
 * it, covers both. Every operation in every language measured 91 CPU-seconds more for the step (110 to 201), Java
 * about half of it (one JVM start per sample); every operation in three languages, 23 more than this (208 against 185).
 */
const hostedTakeTurns = ['curl', 'php', 'go'] as const satisfies readonly SampleLanguage[];
const hostedOperations = new Set(['createOrder', 'queryRefund']);
const hostedLanguages = (operationId: string, index: number): readonly SampleLanguage[] =>
  hostedOperations.has(operationId) ? languages : [hostedTakeTurns[index % hostedTakeTurns.length] ?? 'curl'];

describe('the hosted target: two instances behind nginx on PostgreSQL', {concurrency: 4}, () => {
  // Alongside the samples: Newman waits 120 ms between its requests.
  test('Newman: the Postman collection as the build publishes it, signed with the test merchant key, sends every request and passes every test', async () => {
    const deployment = await hosted;
    const logged = deployment.instances.map((instance) => instance.output().length);
    // Made from the contract, as the build makes it: npm test runs this step beside the build, whose file may
    // not be written yet (tests/clients/newman.test.ts runs the published file itself, after the build).
    const collection = contractCollection();
    const {summary} = await runNewman(collection, {baseUrl: deployment.url, privateKeyPem: newmanKeyPem});
    const lines = deployment.instances.flatMap((instance, index) => instance.output().slice(logged[index]).split('\n'));
    assertFullRun(
      collection,
      summary,
      seenInLog(lines).filter((request) => request.merchant === clientId),
    );
  });

  for (const [index, {location, input}] of operations.entries()) {
    for (const language of hostedLanguages(location.operationId, index)) {
      test(`${language}: ${location.operationId}`, async () =>
        requestSampleAnswered(language, location.operationId, input, (await hosted).url));
    }
  }
});

/**
 * The body's merchant numbers and future times are made at run time: a number with the example's prefix,
 * a time the stated hours ahead of now (give or take 10 minutes), never the example itself.
 */
function assertGeneratedValues(input: SampleInput, body: string): void {
  if (input.kind !== 'request') return;
  const sent = body === '' ? {} : (JSON.parse(body) as Record<string, unknown>);
  for (const generated of input.generated) {
    const value = sent[generated.field];
    if (value === undefined) continue; // nested: the sandbox validated it; the top level is what D-20 is about
    assert.equal(typeof value, 'string', generated.field);
    assert.notEqual(value, generated.example, `${generated.field} must be generated, not the example's`);
    assert.ok(!body.includes(generated.example), `the example's ${generated.example} is nowhere in the body: ${body}`);
    if (generated.kind === 'merchantNumber') {
      assert.ok(String(value).startsWith(`${generated.prefix}-`), `${generated.field} "${String(value)}" starts with ${generated.prefix}-`);
    } else {
      assert.match(String(value), new RegExp(timestampPattern), `${generated.field} is a UTC time to the second`);
      const hoursAhead = (Date.parse(String(value)) - Date.now()) / 3_600_000;
      assert.ok(
        Math.abs(hoursAhead - generated.hoursAhead) < 1 / 6,
        `${generated.field} "${String(value)}" is ${generated.hoursAhead} hours ahead, not ${hoursAhead.toFixed(2)}`,
      );
    }
  }
}

/** A POST with a body and a generated merchant number: the call whose response matters most. */
const faultOperation = 'createOrder';

describe('request samples verify the response before parsing it', {concurrency: 4}, () => {
  const rejections: {name: string; fault?: Fault; providerKey?: typeof unknownKey; reason: string}[] = [
    {name: 'a tampered response body', fault: 'tamperedBody', reason: rejection.signature},
    {
      name: 'a provider keyVersion it was not given (a rotated key not yet configured)',
      providerKey: unknownKey,
      reason: `${rejection.keyVersion} 3`,
    },
    {name: 'a stale response timestamp', fault: 'staleTimestamp', reason: rejection.timestamp},
    {name: "a response bound to another request's nonce", fault: 'otherRequestNonce', reason: rejection.signature},
    {name: 'an unsigned error page', fault: 'unsigned', reason: rejection.signatureHeader},
  ];
  for (const language of languages) {
    for (const {name, fault, providerKey, reason} of rejections) {
      test(`${language} rejects ${name}`, async () => {
        const merchant = await registerMerchant((await sandbox).url);
        await withProxy({...(fault ? {fault} : {}), ...(providerKey ? {providerKey} : {})}, async (proxy) => {
          const result = await runRequest(language, faultOperation, proxy, merchant);
          assert.equal(result.exchange.code, 'SUCCESS', `the sandbox carried the request out: ${result.exchange.answer}`);
          assert.equal(result.status, 1, result.output);
          assert.ok(result.output.includes(`${responseRejected}: ${reason}`), `expected "${reason}" in: ${result.output}`);
        });
      });
    }
    test(`${language} reports a signed error answer with its code and exits 1`, async () => {
      // A merchant of its own has no order ORD-20250601-0001: the sandbox answers a signed ORDER_NOT_FOUND.
      const merchant = await registerMerchant((await sandbox).url);
      await withProxy({}, async (proxy) => {
        const result = await runRequest(language, 'retrieveOrderDetail', proxy, merchant);
        assert.equal(result.exchange.code, 'ORDER_NOT_FOUND', `the sandbox answered: ${result.exchange.answer}`);
        assert.equal(result.status, 1, result.output);
        assert.ok(
          result.output.includes('ORDER_NOT_FOUND: ') && !result.output.includes(responseRejected),
          `the sample reports the signed answer: ${result.output}`,
        );
      });
    });
    test(`${language} accepts a rotated provider key once it is configured`, async () => {
      const merchant = await registerMerchant((await sandbox).url);
      await withProxy({providerKey: rotatedKey}, async (proxy) => {
        const result = await runRequest(language, faultOperation, proxy, merchant, providerKeysAfterRotation);
        assert.equal(result.status, 0, result.output);
      });
    });
    test(`${language} runs as copied: with only the host set, it signs as the shared test merchant with the test keys it embeds`, () =>
      withProxy({}, async (proxy) => {
        await prepared;
        const {command: program, args} = command(language, faultOperation);
        // Nothing but where the sandbox is: no client ID, key file, key version or provider keys.
        const result = await run(program, args, {[sampleEnvironment.host.name]: proxy.origin});
        assert.equal(proxy.exchanges.length, 1, result.output);
        assert.equal(proxy.exchanges[0]?.clientId, testMerchant.clientId, 'signed as the shared test merchant');
        assert.equal(proxy.exchanges[0]?.code, 'SUCCESS', proxy.exchanges[0]?.answer);
        assert.equal(result.status, 0, result.output);
      }));
    test(`${language} refuses to run for a merchant of its own without provider keys, sending nothing (no fallback to the published test key)`, () =>
      withProxy({}, async (proxy) => {
        await prepared;
        const {command: program, args} = command(language, faultOperation);
        const ownMerchant = await registerMerchant((await sandbox).url);
        const result = await run(program, args, {...requestEnv(proxy, ownMerchant), VELOXA_PROVIDER_KEYS: ''});
        assert.notEqual(result.status, 0, result.output);
        assert.ok(result.output.includes(providerKeysMissing), `expected "${providerKeysMissing}" in: ${result.output}`);
        assert.equal(proxy.exchanges.length, 0, 'no request is sent');
      }));
  }
});

// ---------------------------------------------------------------------------------------------------------
// Notification handlers.

/**
 * The handlers' notifyUrl is registered with a query, which the sandbox signs with the path. Hand-made
 * deliveries are posted to the bare path, as a proxy in front of a handler that drops the query would.
 */
const signedNotifyPath = '/payments/notify?tenant=eu';
const receivedNotifyPath = '/payments/notify';

/** A port nothing listens on, and that no other handler of this run was given. */
const portsGiven = new Set<number>();
async function freePort(): Promise<number> {
  for (;;) {
    const port = await new Promise<number>((resolve, reject) => {
      const server = createServer();
      server.on('error', reject);
      server.listen(0, '127.0.0.1', () => {
        const {port: free} = server.address() as AddressInfo;
        server.close(() => resolve(free));
      });
    });
    if (!portsGiven.has(port)) {
      portsGiven.add(port);
      return port;
    }
  }
}

interface Handler {
  /** The notifyUrl the handler is configured with and the sandbox delivers to. */
  readonly notifyUrl: string;
  readonly url: (pathWithQuery: string) => string;
  readonly output: () => string;
  readonly stop: () => void;
}

/** What a handler prints when another process took its port between freePort and its own bind. */
const portTaken = /address already in use|EADDRINUSE|failed to listen/i;

/**
 * Starts the handler on a free port. Another server of the run (the sandbox instances, nginx) may take that port between
 * freePort releasing it and the handler binding it: the handler then fails to bind while that server answers the
 * readiness probe. Such a start is detected (the handler exited, or said its port was taken) and tried on a new port.
 */
async function startHandler(language: Exclude<SampleLanguage, 'curl'>, operationId: string): Promise<Handler> {
  for (let attempt = 1; ; attempt += 1) {
    const started = await startHandlerOnce(language, operationId);
    if (started.ok) return started.handler;
    if (attempt === 3) throw new Error(`the ${language} handler could not get a port of its own in 3 tries: ${started.handler.output()}`);
  }
}

async function startHandlerOnce(language: Exclude<SampleLanguage, 'curl'>, operationId: string): Promise<{ok: boolean; handler: Handler}> {
  await prepared;
  const port = await freePort();
  const database = path.join(workDir, 'databases', `${language}-${operationId}.sqlite3`);
  mkdirSync(path.dirname(database), {recursive: true});
  const notifyUrl = `http://127.0.0.1:${port}${signedNotifyPath}`;
  const env = {
    ...process.env,
    PORT: String(port),
    VELOXA_CLIENT_ID: clientId,
    VELOXA_NOTIFY_URL: notifyUrl,
    VELOXA_PROVIDER_KEYS: providerKeysAfterRotation,
    VELOXA_NOTIFY_DB: database,
  };
  const {command: program, args} =
    language === 'php'
      ? {command: 'php', args: ['-S', `127.0.0.1:${port}`, scripts.php.get(operationId) ?? '']}
      : command(language, operationId);
  const child: ChildProcess = spawn(program, args, {cwd: workDir, env, stdio: ['ignore', 'pipe', 'pipe']});
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.on('error', (error) => (output += String(error)));
  const handler: Handler = {
    notifyUrl,
    url: (pathWithQuery) => `http://127.0.0.1:${port}${pathWithQuery}`,
    output: () => output,
    stop: () => child.kill(),
  };
  for (const deadline = Date.now() + 20_000; ; ) {
    try {
      await fetch(handler.url('/'));
      if (child.exitCode === null && !portTaken.test(output)) return {ok: true, handler};
      handler.stop();
      return {ok: false, handler};
    } catch {
      if (portTaken.test(output)) {
        handler.stop();
        return {ok: false, handler};
      }
      if (Date.now() > deadline || child.exitCode !== null) {
        handler.stop();
        throw new Error(`the ${language} handler does not listen: ${output}`);
      }
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }
}

interface Delivery {
  readonly body: string;
  /** What is signed as the path; the registered notifyUrl's path and query unless a case says otherwise. */
  readonly signedPath?: string;
  /** Where it is posted. */
  readonly postedPath?: string;
  readonly key?: {privateKeyPem: string; keyVersion: number};
  readonly clientId?: string;
  readonly timestamp?: string;
  readonly nonce?: string;
  /** The body actually sent, when it differs from the one signed. */
  readonly sentBody?: string;
  readonly signatureHeader?: (signature: string) => string;
}

/** Signs a notification as the provider does and posts it; returns the status and the answer. */
async function deliver(handler: Handler, delivery: Delivery): Promise<{status: number; text: string; nonce: string}> {
  const key = delivery.key ?? providerTestKey;
  const timestamp = delivery.timestamp ?? utcSeconds(new Date());
  const nonce = delivery.nonce ?? randomUUID();
  const sender = delivery.clientId ?? clientId;
  const canonical = ['POST', delivery.signedPath ?? signedNotifyPath, sender, timestamp, nonce, delivery.body].join('\n');
  // The library's canonicalString refuses a malformed timestamp: build that one by hand, sign the same way.
  if (delivery.timestamp === undefined) {
    assert.equal(
      canonical,
      canonicalString({
        method: 'POST',
        pathWithQuery: delivery.signedPath ?? signedNotifyPath,
        clientId: sender,
        timestamp,
        nonce,
        body: delivery.body,
      }),
    );
  }
  const signature = await signCanonical(canonical, await signingKey(key));
  const response = await fetch(handler.url(delivery.postedPath ?? receivedNotifyPath), {
    method: 'POST',
    headers: {
      'Content-Type': 'application/json',
      'X-Client-Id': sender,
      'X-Timestamp': timestamp,
      'X-Nonce': nonce,
      'X-Signature':
        delivery.signatureHeader?.(signature) ?? formatSignatureHeader({algorithm: 'RSA-SHA256', keyVersion: key.keyVersion, signature}),
    },
    body: delivery.sentBody ?? delivery.body,
  });
  return {status: response.status, text: await response.text(), nonce};
}

/** Waits until the handler's output after `from` holds `text`: logs arrive through a pipe, after the answer. */
async function waitForOutput(handler: Handler, from: number, text: string): Promise<void> {
  for (const deadline = Date.now() + 5_000; !handler.output().slice(from).includes(text); ) {
    if (Date.now() > deadline) assert.fail(`expected "${text}" in the handler's output: ${handler.output().slice(from)}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

function notificationBody(example: JsonValue, changes: {notificationId: string; eventType?: string}): string {
  assert.ok(example !== null && typeof example === 'object' && !Array.isArray(example), 'a notification is a JSON object');
  return JSON.stringify({...example, ...changes});
}

/**
 * How the sandbox raises each webhook example's event for its test merchant, from the contract's example calls
 * and the sandbox's shopper and control endpoints: what must exist first, then `listen` (which makes the
 * handler the default notifyUrl, so it receives this event and no other), then the step that raises it.
 */
const raise: Record<string, (merchant: MerchantSession, listen: () => Promise<unknown>, data: JsonObject) => Promise<unknown>> = {
  async 'ORDER.PAID'(merchant, listen) {
    const merchantOrderNo = requestInput('createOrder').generated[0]?.example ?? '';
    await merchant.order(merchantOrderNo);
    await listen();
    return merchant.pay(merchantOrderNo);
  },
  async 'REFUND.SUCCEEDED'(merchant, listen) {
    await merchant.paidOrder(examplePathValues('refundOrder')['merchantOrderNo'] ?? '');
    await listen();
    return merchant.example('refundOrder');
  },
  async 'AGREEMENT.AUTHORIZED'(merchant, listen) {
    const merchantAgreementNo = requestInput('createAgreement').generated[0]?.example ?? '';
    await merchant.example('createAgreement');
    await listen();
    return merchant.control('POST', '/_sandbox/shopper/agreements/authorize', {
      clientId: merchant.clientId,
      merchantAgreementNo,
      wallet: everydayWallet,
    });
  },
  async 'CHARGEBACK.OPENED'(merchant, listen, data) {
    const merchantOrderNo = requestInput('createOrder').generated[0]?.example ?? '';
    await merchant.paidOrder(merchantOrderNo);
    await listen();
    return merchant.control('POST', '/_sandbox/chargebacks', {
      clientId: merchant.clientId,
      merchantOrderNo,
      reasonCode: data['reasonCode'],
    });
  },
  'TRANSFER.SUCCEEDED': (merchant, listen) => listen().then(() => merchant.example('transfer')),
  async 'BANK_TRANSFER.SUCCEEDED'(merchant, listen) {
    const quoteId = await merchant.quoteForBankTransfer();
    await listen();
    return merchant.example('transferToBank', {quoteId});
  },
  'CARD_PAYOUT.SUCCEEDED': (merchant, listen) => listen().then(() => merchant.example('transferToBankCard')),
  'VAM.TOP_UP': (merchant, listen, data) =>
    listen().then(() =>
      merchant.control('POST', '/_sandbox/vam-top-ups', {
        clientId: merchant.clientId,
        iban: data['virtualAccountNumber'],
        amount: (data['amount'] as {value: number}).value,
      }),
    ),
};

/**
 * The first delivery attempt of `eventType` in the sandbox's log, moving the sandbox clock on a second at a
 * time while the event waits (a refund or payout PROCESSING, a top-up being credited).
 */
async function firstAttempt(base: string, merchant: MerchantSession, eventType: string): Promise<LoggedAttempt> {
  for (let advanced = 0; ; advanced += 1) {
    const attempt = (await loggedAttempts(base, merchant.clientId)).find((entry) => entry.eventType === eventType);
    if (attempt) return attempt;
    assert.ok(
      advanced < 60,
      `no ${eventType} delivery after moving the sandbox clock on ${advanced} s: ${JSON.stringify(await loggedAttempts(base, merchant.clientId))}`,
    );
    await merchant.advance(1);
  }
}

describe('notification handlers receive the sandbox’s deliveries, verify, deduplicate and acknowledge', {concurrency: 3}, () => {
  for (const {location, input} of webhooks) {
    for (const language of ['node', 'python', 'java', 'php', 'go'] as const) {
      test(`${language}: ${location.operationId}`, async () => {
        assert.equal(input.kind, 'notification');
        const example = input.body as JsonObject;
        const eventType = String(example['eventType']);
        const raiseEvent = raise[eventType];
        assert.ok(raiseEvent, `no way to raise ${eventType} in the sandbox`);
        const server = await startSandbox();
        let stopHandler = (): void => undefined;
        try {
          const handler = await startHandler(language, location.operationId);
          stopHandler = handler.stop;
          const id = (name: string) => `ntf_${language}${name}${randomUUID().slice(0, 8)}`;
          const body = (notificationId: string, changes: {eventType?: string} = {}) =>
            notificationBody(input.body, {notificationId, ...changes});
          const applied = (notificationId: string) =>
            handler
              .output()
              .split('\n')
              .filter((line) => line.includes(`${notificationApplied} `) && line.endsWith(` ${notificationId}`)).length;

          // A real delivery: the sandbox raises the event and posts it, signed, to the registered notifyUrl.
          const merchant = merchantSession(server.url, clientId);
          await raiseEvent(merchant, () => merchant.setNotifyUrl(handler.notifyUrl), example['data'] as JsonObject);
          const real = await firstAttempt(server.url, merchant, eventType);
          assert.deepEqual(
            [real.url, real.acknowledged, real.httpStatus],
            [handler.notifyUrl, true, 200],
            `${JSON.stringify(real)}: ${handler.output()}`,
          );
          await waitForOutput(handler, 0, `${notificationApplied} ${eventType} ${real.notificationId}`);
          // The sandbox delivers it again (Resend): a fresh nonce and signature, acknowledged, applied once.
          await merchant.control('POST', `/_sandbox/notifications/${real.notificationId}/redeliver`, {clientId});
          const attempts = await until(`the redelivery of ${real.notificationId}`, async () => {
            const found = (await loggedAttempts(server.url, clientId)).filter((entry) => entry.notificationId === real.notificationId);
            return found.length === 2 ? found : undefined;
          });
          assert.deepEqual(
            attempts.map((attempt) => attempt.acknowledged),
            [true, true],
            handler.output(),
          );

          const expectAccepted = async (delivery: Delivery, notificationId: string, appliedEventType = eventType) => {
            const from = handler.output().length;
            const answer = await deliver(handler, delivery);
            assert.equal(answer.status, 200, handler.output());
            assert.deepEqual(JSON.parse(answer.text), {code: 'SUCCESS'});
            await waitForOutput(handler, from, `${notificationApplied} ${appliedEventType} ${notificationId}`);
            return answer;
          };
          const expectRejected = async (delivery: Delivery, status: number, reason?: string) => {
            const from = handler.output().length;
            const answer = await deliver(handler, delivery);
            assert.equal(
              answer.status,
              status,
              `expected ${status} (${reason ?? 'not found'}), got ${answer.status}: ${handler.output().slice(from)}`,
            );
            if (reason) await waitForOutput(handler, from, `${notificationRejected}: ${reason}`);
          };

          // Hand-made: signed for the registered notifyUrl (with its query), received on the bare path.
          const genuine = id('genuine');
          const first = await expectAccepted({body: body(genuine)}, genuine);
          // A redelivery has a fresh nonce and signature: acknowledged, applied once.
          const answer = await deliver(handler, {body: body(genuine)});
          assert.equal(answer.status, 200, handler.output());
          // A rotated provider key, configured as keyVersion 2.
          const rotated = id('rotated');
          await expectAccepted({body: body(rotated), key: rotatedKey}, rotated);
          // An event type this handler does not know yet: stored and acknowledged.
          const unknownEvent = id('newEvent');
          await expectAccepted({body: body(unknownEvent, {eventType: 'SOMETHING.NEW'})}, unknownEvent, 'SOMETHING.NEW');

          const rejectedIds = ['tampered', 'unknownKey', 'replayed', 'stale', 'millis', 'signedPath', 'client', 'malformed'].map(id);
          const [tampered = '', unknownKeyId = '', replayed = '', stale = '', millis = '', signedPath = '', client = '', malformed = ''] =
            rejectedIds;
          const tamperedBody = body(tampered);
          await expectRejected({body: tamperedBody, sentBody: tamperedBody.replace(/\}$/, ',"tampered":true}')}, 401, rejection.signature);
          await expectRejected({body: body(unknownKeyId), key: unknownKey}, 401, `${rejection.keyVersion} 3`);
          await expectRejected({body: body(replayed), nonce: first.nonce}, 401, rejection.nonce);
          await expectRejected({body: body(stale), timestamp: utcSeconds(new Date(Date.now() - 600_000))}, 401, rejection.timestamp);
          await expectRejected({body: body(millis), timestamp: new Date().toISOString()}, 401, rejection.timestamp);
          await expectRejected({body: body(signedPath), signedPath: '/payments/other'}, 401, rejection.signature);
          await expectRejected({body: body(id('postedPath')), signedPath: '/payments/other', postedPath: '/payments/other'}, 404);
          await expectRejected({body: body(client), clientId: 'another-merchant-0001'}, 401, rejection.clientId);
          await expectRejected(
            {body: body(malformed), signatureHeader: (signature) => `signature=${signature}`},
            401,
            rejection.signatureHeader,
          );

          if (language === 'node') {
            // The curl sample: a test sender, signing for the registered notifyUrl, answered SUCCESS.
            const sender = scripts.curl.get(location.operationId) ?? '';
            const sent = await run('bash', [sender], {
              VELOXA_NOTIFY_URL: handler.notifyUrl,
              HANDLER_URL: handler.url(receivedNotifyPath),
              VELOXA_CLIENT_ID: clientId,
              TEST_PROVIDER_PRIVATE_KEY_PATH: path.join(keys, 'provider-test-private.pem'),
            });
            assert.equal(sent.status, 0, sent.output);
            assert.deepEqual(JSON.parse(sent.output), {code: 'SUCCESS'});
          }

          assert.equal(applied(real.notificationId), 1, `the sandbox's delivery and its redelivery are applied once: ${handler.output()}`);
          assert.equal(applied(genuine), 1, `a duplicate notificationId is applied once: ${handler.output()}`);
          assert.equal(applied(rotated), 1, handler.output());
          assert.equal(applied(unknownEvent), 1, handler.output());
          for (const rejectedId of rejectedIds)
            assert.equal(applied(rejectedId), 0, `${rejectedId} must not be applied: ${handler.output()}`);
        } finally {
          stopHandler();
          await server.close();
        }
      });
    }
  }
});
