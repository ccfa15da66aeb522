/**
 * Every operation's code samples, generated from the contract exactly as the
 * pages show them, checked for real:
 * - curl, Node.js and Python request samples, and the home page's quick-start
 *   snippet, run against a local stub of the API that verifies the signature and
 *   validates the body against the contract;
 * - Node.js and Python notification handlers run, accept a correctly signed
 *   notification and reject a tampered one;
 * - Java samples compile (javac), PHP samples lint (php -l), Go samples vet.
 */
import {after, before, describe, test} from 'node:test';
import assert from 'node:assert/strict';
import {spawn, spawnSync} from 'node:child_process';
import {mkdirSync, mkdtempSync, readFileSync, writeFileSync} from 'node:fs';
import {tmpdir} from 'node:os';
import path from 'node:path';
import type {LoadContext, PluginContentLoadedActions} from '@docusaurus/types';
import openapiContractPlugin, {quickStartModule} from '../../plugins/content/openapi-contract';
import {loadContract} from '../../plugins/content/openapi-contract/loadContract';
import {brand} from '../../src/brand';
import {canonicalString, formatSignatureHeader, importPrivateKey, signCanonical} from '../../src/lib/signing';
import {renderSamples, sampleInputFor, type RenderedSample, type SampleLanguage} from '../../src/lib/samples';
import {repoRoot} from '../support/routeContract';
import {startStubApiServer, type StubApiServer} from '../../tooling/stubApiServer';
import {toolchains} from '../../tooling/toolchains';

const contract = loadContract(path.join(repoRoot, 'api', 'openapi.yaml'));
const keys = path.join(repoRoot, 'api', 'test-vectors');
const clientId = brand.sandboxClientId;
const workDir = mkdtempSync(path.join(tmpdir(), 'portal-samples-'));
const tsx = path.join(repoRoot, 'node_modules', '.bin', 'tsx');

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

function writeSample(folder: string, rendered: RenderedSample): string {
  const dir = path.join(workDir, folder);
  mkdirSync(dir, {recursive: true});
  const file = path.join(dir, rendered.fileName);
  writeFileSync(file, rendered.code);
  return file;
}

function run(command: string, args: string[], env: NodeJS.ProcessEnv, cwd = workDir): {status: number | null; output: string} {
  const result = spawnSync(command, args, {cwd, env: {...process.env, ...env}, encoding: 'utf8', timeout: 120_000});
  return {status: result.status, output: `${result.stdout}${result.stderr}`};
}

/** Like run, but without blocking this process, which serves the stub API the sample calls. */
function runAsync(command: string, args: string[], env: NodeJS.ProcessEnv): Promise<{status: number | null; output: string}> {
  return new Promise((resolve) => {
    const child = spawn(command, args, {cwd: workDir, env: {...process.env, ...env}, stdio: 'pipe'});
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const timer = setTimeout(() => child.kill(), 60_000);
    child.on('close', (status) => {
      clearTimeout(timer);
      resolve({status, output});
    });
  });
}

describe('request samples run against the stub API', () => {
  let stub: StubApiServer;
  const python = toolchains.python();
  before(async () => {
    stub = await startStubApiServer(contract, readFileSync(path.join(keys, 'merchant-test-public.pem'), 'utf8'), clientId);
  });
  after(() => stub.close());

  const env = () => ({
    VELOXA_API_BASE: stub.baseUrl,
    VELOXA_CLIENT_ID: clientId,
    VELOXA_PRIVATE_KEY_PATH: path.join(keys, 'merchant-test-private.pem'),
    VELOXA_KEY_VERSION: '1',
  });

  test('curl: the home page quick start', async () => {
    // The snippet as the contract plugin writes it for the home page's QuickStart component.
    const generatedFilesDir = path.join(workDir, 'generated');
    const plugin = openapiContractPlugin({siteDir: repoRoot, generatedFilesDir} as LoadContext);
    const content = await plugin.loadContent?.();
    await plugin.contentLoaded?.({content, actions: {} as PluginContentLoadedActions});
    const quickStart = JSON.parse(readFileSync(path.join(generatedFilesDir, quickStartModule), 'utf8')) as RenderedSample;
    const file = writeSample('quick-start', quickStart);
    const before = stub.requests.length;
    const result = await runAsync('bash', [file], env());
    const recorded = stub.requests.slice(before);
    assert.equal(recorded.length, 1, `expected one request, got ${recorded.length}: ${result.output}`);
    assert.equal(recorded[0]?.operationId, 'createOrder');
    assert.deepEqual(recorded[0]?.problems, [], result.output);
    assert.equal(result.status, 0, result.output);
  });

  for (const {location, samples} of operations) {
    for (const language of ['curl', 'node', 'python'] as const) {
      test(`${language}: ${location.operationId}`, async () => {
        const file = writeSample(`${language}`, sample(samples, language));
        const before = stub.requests.length;
        const command = language === 'curl' ? 'bash' : language === 'node' ? tsx : python;
        assert.ok(command, 'Python with the cryptography package is needed (npm run test:samples installs it as root).');
        const result = await runAsync(command, [file], env());
        const recorded = stub.requests.slice(before);
        assert.equal(recorded.length, 1, `expected one request, got ${recorded.length}: ${result.output}`);
        assert.equal(recorded[0]?.operationId, location.operationId);
        assert.deepEqual(recorded[0]?.problems, [], result.output);
        assert.equal(result.status, 0, result.output);
        if (language !== 'curl') assert.ok(result.output.trim().length > 0, 'the sample prints the response data');
      });
    }
  }
});

async function signedNotification(notifyPath: string, body: string): Promise<Record<string, string>> {
  const key = await importPrivateKey(readFileSync(path.join(keys, 'provider-test-private.pem'), 'utf8'));
  const timestamp = new Date().toISOString().replace(/\.\d{3}Z$/, 'Z');
  const nonce = crypto.randomUUID();
  const signature = await signCanonical(canonicalString({method: 'POST', pathWithQuery: notifyPath, clientId, timestamp, nonce, body}), key);
  return {
    'Content-Type': 'application/json',
    'X-Client-Id': clientId,
    'X-Timestamp': timestamp,
    'X-Nonce': nonce,
    'X-Signature': formatSignatureHeader({algorithm: 'RSA-SHA256', keyVersion: 1, signature}),
  };
}

async function waitForPort(url: string, deadline: number): Promise<void> {
  while (Date.now() < deadline) {
    try {
      await fetch(url, {method: 'GET'});
      return;
    } catch {
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
  throw new Error(`nothing listens on ${url}`);
}

describe('notification handler samples verify signatures', () => {
  let port = 18_400;
  for (const {location, input, samples} of webhooks) {
    for (const language of ['node', 'python'] as const) {
      test(`${language}: ${location.operationId}`, async () => {
        const python = toolchains.python();
        const command = language === 'node' ? tsx : python;
        assert.ok(command, 'Python with the cryptography package is needed.');
        const file = writeSample(`handlers-${language}`, sample(samples, language));
        port += 1;
        const child = spawn(command, [file], {
          cwd: workDir,
          env: {...process.env, PORT: String(port), VELOXA_PROVIDER_PUBLIC_KEY_PATH: path.join(keys, 'provider-test-public.pem')},
          stdio: 'pipe',
        });
        let output = '';
        child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
        child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
        try {
          assert.equal(input.kind, 'notification');
          const notifyPath = input.kind === 'notification' ? input.notifyPath : '';
          const url = `http://127.0.0.1:${port}${notifyPath}`;
          await waitForPort(url, Date.now() + 20_000);
          const body = JSON.stringify(input.body);
          const accepted = await fetch(url, {method: 'POST', headers: await signedNotification(notifyPath, body), body});
          assert.equal(accepted.status, 200, output);
          assert.deepEqual(await accepted.json(), {code: 'SUCCESS'});
          const tampered = await fetch(url, {method: 'POST', headers: await signedNotification(notifyPath, body), body: body.replace('"', '" ')});
          assert.equal(tampered.status, 401, 'a tampered body must be rejected');
        } finally {
          child.kill();
        }
      });
    }
  }
});

describe('compiled-language samples build', () => {
  test('Java samples compile with javac', () => {
    const javac = toolchains.java();
    assert.ok(javac, 'javac is needed (default-jdk-headless)');
    const files = all.map(({samples}) => writeSample(`java/${sample(samples, 'java').fileName.replace(/\.java$/, '')}`, sample(samples, 'java')));
    const result = run(javac, ['-d', path.join(workDir, 'java-classes'), ...files], {});
    assert.equal(result.status, 0, result.output);
  });

  test('PHP samples pass php -l', () => {
    const php = toolchains.php();
    assert.ok(php, 'php is needed (php-cli)');
    for (const {samples} of all) {
      const file = writeSample('php', sample(samples, 'php'));
      const result = run(php, ['-l', file], {});
      assert.equal(result.status, 0, `${file}: ${result.output}`);
    }
  });

  test('Go samples pass go vet', () => {
    const go = toolchains.go();
    assert.ok(go, 'go is needed (golang-go)');
    const moduleDir = path.join(workDir, 'go');
    mkdirSync(moduleDir, {recursive: true});
    writeFileSync(path.join(moduleDir, 'go.mod'), 'module samples\n\ngo 1.19\n');
    for (const {location, samples} of all) writeSample(path.join('go', location.operationId), sample(samples, 'go'));
    const env = {GOTOOLCHAIN: 'local', GOFLAGS: '-mod=mod', GOPATH: path.join(workDir, 'gopath'), GOCACHE: path.join(workDir, 'gocache'), CGO_ENABLED: '0'};
    const result = run(go, ['vet', './...'], env, moduleDir);
    assert.equal(result.status, 0, result.output);
  });
});
