/**
 * Every operation's and webhook's code samples, generated from the contract exactly as the pages show them,
 * checked for real in all six languages:
 * - request samples run against a local stub of the API that verifies the request signature, validates the
 *   body against the contract and signs its answer with a provider key, as the sandbox does; the sample must
 *   print the data, and send generated merchant numbers, never the example's;
 * - each language's request sample must reject a tampered response body, a response signed with a provider
 *   keyVersion it was not given, a stale response timestamp, a response bound to another request's nonce and
 *   an unsigned error page, and accept a rotated provider key once it is configured;
 * - notification handlers must accept a genuine notification (signed for the registered notifyUrl, not the
 *   path they receive), apply a duplicate notificationId once, store an unknown event type, accept a
 *   configured rotated key, and reject a tampered body, an unknown keyVersion, a replayed nonce, a stale or
 *   malformed timestamp, another path (signed or posted), another client ID and a malformed X-Signature;
 * - the curl notification sample (a test sender) is answered SUCCESS by a handler, and the home page's quick
 *   start (the curl sample of Create order) runs.
 * Every sample compiles: the Node.js samples type-check (strict) and run as TypeScript emits them, the Java
 * samples compile with Jackson and run class by class, the Go samples are gofmt-clean and run from one binary.
 * A JVM costs about a second of CPU per start, several times any other language, so Java runs one request
 * sample per shape of operation and one notification handler (the templates are the same for the rest);
 * every other language runs every operation and every webhook.
 */
import {after, before, describe, test} from 'node:test';
import assert from 'node:assert/strict';
import {spawn, type ChildProcess} from 'node:child_process';
import {generateKeyPairSync, randomUUID} from 'node:crypto';
import {mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync} from 'node:fs';
import {createServer} from 'node:net';
import {tmpdir} from 'node:os';
import path from 'node:path';
import ts from 'typescript';
import type {LoadContext, PluginContentLoadedActions} from '@docusaurus/types';
import openapiContractPlugin, {quickStartModule} from '../../plugins/content/openapi-contract';
import {loadContract} from '../../plugins/content/openapi-contract/loadContract';
import {brand} from '../../src/brand';
import {canonicalString, formatSignatureHeader, importPrivateKey, signCanonical} from '../../src/lib/signing';
import {
  notificationApplied,
  notificationRejected,
  pascalCase,
  providerKeysMissing,
  rejection,
  renderSamples,
  responseRejected,
  sampleInputFor,
  type RenderedSample,
  type SampleInput,
  type SampleLanguage,
} from '../../src/lib/samples';
import type {JsonValue} from '../../src/lib/openapiTypes';
import {repoRoot} from '../support/routeContract';
import {startStubApiServer, type StubApiServer, type StubFault} from '../../tooling/stubApiServer';
import {toolchains} from '../../tooling/toolchains';
import {jacksonClassPath, sampleLibraries} from '../../tooling/sampleLibraries';

const contract = loadContract(path.join(repoRoot, 'api', 'openapi.yaml'));
const keys = path.join(repoRoot, 'api', 'test-vectors');
const clientId = brand.sandboxClientId;
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

/** Runs a command to its end without blocking this process, which serves the stub API the sample calls. */
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
  const publicKeyFile = writeFile(path.join(workDir, 'keys', `provider-${keyVersion}-public.pem`), pair.publicKey.export({type: 'spki', format: 'pem'}).toString());
  return {privateKeyPem: pair.privateKey.export({type: 'pkcs8', format: 'pem'}).toString(), publicKeyFile, keyVersion};
}
const rotatedKey = throwAwayKey(2);
const unknownKey = throwAwayKey(3);
const providerKeys = `1=${path.join(keys, 'provider-test-public.pem')}`;
const providerKeysAfterRotation = `${providerKeys},2=${rotatedKey.publicKeyFile}`;

// ---------------------------------------------------------------------------------------------------------
// Preparing each language: write every sample, then compile what needs compiling, all at once.

const nodeFiles = new Map<string, string>();
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

function prepareJava(): Promise<Finished> {
  const files = all.map(({samples}) => {
    const rendered = sample(samples, 'java');
    return writeFile(path.join(workDir, 'java', rendered.fileName), rendered.code);
  });
  return run('javac', ['-cp', jackson ?? '', '-d', javaClasses, ...files]);
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
const scripts = {curl: prepareFiles('curl'), python: prepareFiles('python'), php: prepareFiles('php')};

before(() => {
  prepared = (async () => {
    const [java, go] = [prepareJava(), prepareGo()];
    return {node: prepareNode(), java: await java, go: await go};
  })();
  return prepared;
});

after(() => rmSync(workDir, {recursive: true, force: true}));

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
      return {command: 'java', args: ['-XX:TieredStopAtLevel=1', '-XX:+UseSerialGC', '-cp', `${javaClasses}${path.delimiter}${jackson ?? ''}`, pascalCase(operationId)]};
    case 'php':
      return {command: 'php', args: [file(scripts.php)]};
    case 'go':
      return {command: goBinary, args: [operationId]};
  }
}

describe('every sample compiles', () => {
  test('Node.js samples type-check (strict)', async () => {
    const diagnostics = (await prepared).node;
    const text = ts.formatDiagnostics(diagnostics, {getCanonicalFileName: (name) => name, getCurrentDirectory: () => workDir, getNewLine: () => '\n'});
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

const languages = ['curl', 'node', 'python', 'java', 'php', 'go'] as const satisfies readonly SampleLanguage[];

async function withStub<T>(options: {fault?: StubFault; providerKey?: {privateKeyPem: string; keyVersion: number}}, action: (stub: StubApiServer) => Promise<T>): Promise<T> {
  const stub = await startStubApiServer({
    contract,
    merchantPublicKeyPem: readFileSync(path.join(keys, 'merchant-test-public.pem'), 'utf8'),
    clientId,
    providerKey: options.providerKey ?? providerTestKey,
    fault: options.fault,
  });
  try {
    return await action(stub);
  } finally {
    await stub.close();
  }
}

function requestEnv(stub: StubApiServer, keysOfProvider = providerKeys): NodeJS.ProcessEnv {
  return {
    VELOXA_API_HOST: stub.origin,
    VELOXA_CLIENT_ID: clientId,
    VELOXA_PRIVATE_KEY_PATH: path.join(keys, 'merchant-test-private.pem'),
    VELOXA_KEY_VERSION: '1',
    VELOXA_PROVIDER_KEYS: keysOfProvider,
  };
}

/** Runs a request sample against a stub; checks the stub got exactly the operation's request, correctly signed. */
async function runRequest(language: SampleLanguage, operationId: string, stub: StubApiServer, keysOfProvider?: string): Promise<Finished & {body: string}> {
  await prepared;
  const {command: program, args} = command(language, operationId);
  const result = await run(program, args, requestEnv(stub, keysOfProvider));
  assert.equal(stub.requests.length, 1, `expected one request, got ${stub.requests.length}: ${result.output}`);
  const [recorded] = stub.requests;
  assert.equal(recorded?.operationId, operationId, result.output);
  assert.deepEqual(recorded?.problems, [], result.output);
  return {...result, body: recorded?.body ?? ''};
}

/** Java runs one operation of each shape: method, body, generated number, path parameters, query. */
const javaRuns = new Set<string>();
const javaShapes = new Set<string>();
for (const {location, input} of operations) {
  if (input.kind !== 'request') continue;
  const shape = [input.method, input.body !== undefined, input.generated.length > 0, input.pathParameters.length > 0, input.pathWithQuery.includes('?')].join();
  if (!javaShapes.has(shape)) javaRuns.add(location.operationId);
  javaShapes.add(shape);
}

describe('request samples run against the stub API', {concurrency: 4}, () => {
  test('curl: the home page quick start', async () => {
    // The snippet as the contract plugin writes it for the home page's QuickStart component.
    const generatedFilesDir = path.join(workDir, 'generated');
    const plugin = openapiContractPlugin({siteDir: repoRoot, generatedFilesDir} as LoadContext);
    const content = await plugin.loadContent?.();
    await plugin.contentLoaded?.({content, actions: {} as PluginContentLoadedActions});
    const quickStart = JSON.parse(readFileSync(path.join(generatedFilesDir, quickStartModule), 'utf8')) as RenderedSample;
    const file = writeFile(path.join(workDir, 'quick-start', quickStart.fileName), quickStart.code);
    await withStub({}, async (stub) => {
      const result = await run('bash', [file], requestEnv(stub));
      assert.equal(stub.requests.length, 1, result.output);
      assert.equal(stub.requests[0]?.operationId, 'createOrder');
      assert.deepEqual(stub.requests[0]?.problems, [], result.output);
      assert.equal(result.status, 0, result.output);
    });
  });

  for (const {location, input} of operations) {
    for (const language of languages) {
      if (language === 'java' && !javaRuns.has(location.operationId)) continue;
      test(`${language}: ${location.operationId}`, () =>
        withStub({}, async (stub) => {
          const result = await runRequest(language, location.operationId, stub);
          assert.equal(result.status, 0, result.output);
          assert.match(result.output, /\S/, 'the sample prints the response data');
          assertGeneratedNumbers(input, result.body);
        }),
      );
    }
  }
});

/** The body's merchant numbers are generated at run time: the example's prefix, never the example itself. */
function assertGeneratedNumbers(input: SampleInput, body: string): void {
  if (input.kind !== 'request') return;
  const sent = body === '' ? {} : (JSON.parse(body) as Record<string, unknown>);
  for (const number of input.generated) {
    const value = sent[number.field];
    if (value === undefined) continue; // nested: the stub validated it; the top level is what D-20 is about
    assert.equal(typeof value, 'string', number.field);
    assert.notEqual(value, number.example, `${number.field} must be generated, not the example's`);
    assert.ok(String(value).startsWith(`${number.prefix}-`), `${number.field} "${String(value)}" starts with ${number.prefix}-`);
    assert.ok(!body.includes(number.example), `the example's ${number.example} is nowhere in the body: ${body}`);
  }
}

/** A POST with a body and a generated merchant number: the call whose response matters most. */
const faultOperation = 'createOrder';

describe('request samples verify the response before parsing it', {concurrency: 4}, () => {
  const rejections: {name: string; fault?: StubFault; providerKey?: typeof unknownKey; reason: string}[] = [
    {name: 'a tampered response body', fault: 'tamperedBody', reason: rejection.signature},
    {name: 'a provider keyVersion it was not given (a rotated key not yet configured)', providerKey: unknownKey, reason: `${rejection.keyVersion} 3`},
    {name: 'a stale response timestamp', fault: 'staleTimestamp', reason: rejection.timestamp},
    {name: "a response bound to another request's nonce", fault: 'otherRequestNonce', reason: rejection.signature},
    {name: 'an unsigned error page', fault: 'unsigned', reason: rejection.signatureHeader},
  ];
  for (const language of languages) {
    for (const {name, fault, providerKey, reason} of rejections) {
      test(`${language} rejects ${name}`, () =>
        withStub({fault, providerKey}, async (stub) => {
          const result = await runRequest(language, faultOperation, stub);
          assert.equal(result.status, 1, result.output);
          assert.ok(result.output.includes(`${responseRejected}: ${reason}`), `expected "${reason}" in: ${result.output}`);
        }),
      );
    }
    test(`${language} accepts a rotated provider key once it is configured`, () =>
      withStub({providerKey: rotatedKey}, async (stub) => {
        const result = await runRequest(language, faultOperation, stub, providerKeysAfterRotation);
        assert.equal(result.status, 0, result.output);
      }),
    );
    test(`${language} refuses to run without provider keys, sending nothing (no fallback to the published test key)`, () =>
      withStub({}, async (stub) => {
        await prepared;
        const {command: program, args} = command(language, faultOperation);
        const result = await run(program, args, {...requestEnv(stub), VELOXA_PROVIDER_KEYS: ''});
        assert.notEqual(result.status, 0, result.output);
        assert.ok(result.output.includes(providerKeysMissing), `expected "${providerKeysMissing}" in: ${result.output}`);
        assert.equal(stub.requests.length, 0, 'no request is sent');
      }),
    );
  }
});

// ---------------------------------------------------------------------------------------------------------
// Notification handlers.

/** The notifyUrl the handlers are configured with: registered with a query, which the proxy in front drops. */
const registeredNotifyUrl = `https://${brand.hosts.merchant}/payments/notify?tenant=eu`;
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
        const {port: free} = server.address() as {port: number};
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
  readonly url: (pathWithQuery: string) => string;
  readonly output: () => string;
  readonly stop: () => void;
}

async function startHandler(language: Exclude<SampleLanguage, 'curl'>, operationId: string): Promise<Handler> {
  await prepared;
  const port = await freePort();
  const database = path.join(workDir, 'databases', `${language}-${operationId}.sqlite3`);
  mkdirSync(path.dirname(database), {recursive: true});
  const env = {
    ...process.env,
    PORT: String(port),
    VELOXA_CLIENT_ID: clientId,
    VELOXA_NOTIFY_URL: registeredNotifyUrl,
    VELOXA_PROVIDER_KEYS: providerKeysAfterRotation,
    VELOXA_NOTIFY_DB: database,
  };
  const {command: program, args} =
    language === 'php' ? {command: 'php', args: ['-S', `127.0.0.1:${port}`, scripts.php.get(operationId) ?? '']} : command(language, operationId);
  const child: ChildProcess = spawn(program, args, {cwd: workDir, env, stdio: ['ignore', 'pipe', 'pipe']});
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.on('error', (error) => (output += String(error)));
  const handler: Handler = {url: (pathWithQuery) => `http://127.0.0.1:${port}${pathWithQuery}`, output: () => output, stop: () => child.kill()};
  for (const deadline = Date.now() + 20_000; ; ) {
    try {
      await fetch(handler.url('/'));
      return handler;
    } catch {
      if (Date.now() > deadline || child.exitCode !== null) {
        handler.stop();
        throw new Error(`the ${language} handler does not listen: ${output}`);
      }
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }
}

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
  const canonical = [
    'POST',
    delivery.signedPath ?? signedNotifyPath,
    sender,
    timestamp,
    nonce,
    delivery.body,
  ].join('\n');
  // The library's canonicalString refuses a malformed timestamp: build that one by hand, sign the same way.
  if (delivery.timestamp === undefined) {
    assert.equal(canonical, canonicalString({method: 'POST', pathWithQuery: delivery.signedPath ?? signedNotifyPath, clientId: sender, timestamp, nonce, body: delivery.body}));
  }
  const signature = await signCanonical(canonical, await signingKey(key));
  const response = await fetch(handler.url(delivery.postedPath ?? receivedNotifyPath), {
    method: 'POST',
    headers: {
      'Content-Type': 'application/json',
      'X-Client-Id': sender,
      'X-Timestamp': timestamp,
      'X-Nonce': nonce,
      'X-Signature': delivery.signatureHeader?.(signature) ?? formatSignatureHeader({algorithm: 'RSA-SHA256', keyVersion: key.keyVersion, signature}),
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

describe('notification handlers verify, deduplicate and acknowledge', {concurrency: 3}, () => {
  for (const {location, input} of webhooks) {
    for (const language of ['node', 'python', 'java', 'php', 'go'] as const) {
      if (language === 'java' && location !== webhooks[0]?.location) continue;
      test(`${language}: ${location.operationId}`, async () => {
        assert.equal(input.kind, 'notification');
        const handler = await startHandler(language, location.operationId);
        try {
          const eventType = String((input.body as {eventType?: unknown}).eventType);
          const id = (name: string) => `ntf_${language}${name}${randomUUID().slice(0, 8)}`;
          const body = (notificationId: string, changes: {eventType?: string} = {}) => notificationBody(input.body, {notificationId, ...changes});
          const applied = (notificationId: string) => handler.output().split('\n').filter((line) => line.includes(`${notificationApplied} `) && line.endsWith(` ${notificationId}`)).length;

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
            assert.equal(answer.status, status, `expected ${status} (${reason ?? 'not found'}), got ${answer.status}: ${handler.output().slice(from)}`);
            if (reason) await waitForOutput(handler, from, `${notificationRejected}: ${reason}`);
          };

          // Genuine: signed for the registered notifyUrl (with its query), received on the bare path.
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
          const [tampered = '', unknownKeyId = '', replayed = '', stale = '', millis = '', signedPath = '', client = '', malformed = ''] = rejectedIds;
          const tamperedBody = body(tampered);
          await expectRejected({body: tamperedBody, sentBody: tamperedBody.replace(/\}$/, ',"tampered":true}')}, 401, rejection.signature);
          await expectRejected({body: body(unknownKeyId), key: unknownKey}, 401, `${rejection.keyVersion} 3`);
          await expectRejected({body: body(replayed), nonce: first.nonce}, 401, rejection.nonce);
          await expectRejected({body: body(stale), timestamp: utcSeconds(new Date(Date.now() - 600_000))}, 401, rejection.timestamp);
          await expectRejected({body: body(millis), timestamp: new Date().toISOString()}, 401, rejection.timestamp);
          await expectRejected({body: body(signedPath), signedPath: '/payments/other'}, 401, rejection.signature);
          await expectRejected({body: body(id('postedPath')), signedPath: '/payments/other', postedPath: '/payments/other'}, 404);
          await expectRejected({body: body(client), clientId: 'another-merchant-0001'}, 401, rejection.clientId);
          await expectRejected({body: body(malformed), signatureHeader: (signature) => `signature=${signature}`}, 401, rejection.signatureHeader);

          if (language === 'node') {
            // The curl sample: a test sender, signing for the registered notifyUrl, answered SUCCESS.
            const sender = scripts.curl.get(location.operationId) ?? '';
            const sent = await run('bash', [sender], {
              VELOXA_NOTIFY_URL: registeredNotifyUrl,
              HANDLER_URL: handler.url(receivedNotifyPath),
              VELOXA_CLIENT_ID: clientId,
              TEST_PROVIDER_PRIVATE_KEY_PATH: path.join(keys, 'provider-test-private.pem'),
            });
            assert.equal(sent.status, 0, sent.output);
            assert.deepEqual(JSON.parse(sent.output), {code: 'SUCCESS'});
          }

          assert.equal(applied(genuine), 1, `a duplicate notificationId is applied once: ${handler.output()}`);
          assert.equal(applied(rotated), 1, handler.output());
          assert.equal(applied(unknownEvent), 1, handler.output());
          for (const rejectedId of rejectedIds) assert.equal(applied(rejectedId), 0, `${rejectedId} must not be applied: ${handler.output()}`);
        } finally {
          handler.stop();
        }
      });
    }
  }
});
