/**
 * A generated TypeScript client works with natural code (issue 29, item 4). From the contract the site
 * publishes (build-test/openapi.yaml when a test build exists, else api/openapi.yaml, which the build copies
 * byte for byte), openapi-typescript writes the types; `tsc --strict` checks tests/clients/typescript/integration.ts,
 * whose call sites carry no signing headers, no casts and each scene's own fields (and whose @ts-expect-error
 * lines must stay errors); then the integration runs with openapi-fetch and its signing, response-verifying
 * middleware against the local sandbox, started in-process on a free port.
 *
 * Run: npm run test:clients
 */
import {after, before, describe, test} from 'node:test';
import assert from 'node:assert/strict';
import {spawnSync} from 'node:child_process';
import {existsSync, mkdirSync, readFileSync, writeFileSync} from 'node:fs';
import path from 'node:path';
import openapiTS, {astToString} from 'openapi-typescript';
import {parse} from 'yaml';
import {importPrivateKey, importPublicKey} from '../../src/lib/signing';
import {createNodeEngine, repoRoot} from '../../src/sandbox/hosts/server/loadEngine';
import {startSandboxServer, type SandboxServer} from '../../src/sandbox/hosts/server/server';

const clientDir = path.join(repoRoot, 'tests', 'clients', 'typescript');
const published = path.join(repoRoot, 'build-test', 'openapi.yaml');
const contractFile = existsSync(published) ? published : path.join(repoRoot, 'api', 'openapi.yaml');
const vectors = path.join(repoRoot, 'api', 'test-vectors');

/** What the test calls of ./typescript/integration.ts. */
interface Integration {
  veloxaClient(
    baseUrl: string,
    keys: {clientId: string; privateKey: CryptoKey; providerPublicKey: CryptoKey; now: () => Promise<string>},
  ): unknown;
  createHostedOrder(
    client: unknown,
    merchantOrderNo: string,
  ): Promise<{order: {merchantOrderNo: string; status: string}; nextAction: {type: string}}>;
  createQrOrder(client: unknown, merchantOrderNo: string): Promise<{order: {status: string}; nextAction: {type: string}}>;
  orderStatus(client: unknown, merchantOrderNo: string): Promise<{code: string; status?: string}>;
  payWallet(client: unknown, merchantTransferNo: string): Promise<{status: string}>;
  payIban(client: unknown, merchantTransferNo: string): Promise<{status: string}>;
}

describe('a TypeScript client generated from the published contract', () => {
  let types = '';

  before(async () => {
    // defaultNonNullable off: a field with a default (expiresInSeconds) stays optional in a request.
    types = astToString(await openapiTS(readFileSync(contractFile, 'utf8'), {defaultNonNullable: false, silent: true}));
    mkdirSync(path.join(clientDir, 'generated'), {recursive: true});
    writeFileSync(path.join(clientDir, 'generated', 'veloxa.d.ts'), types);
  });

  test('keeps every scene of Create order and asks for no signing header at a call site', () => {
    for (const scene of [
      'HOSTED_PAYPAGE',
      'IFRAME_PAYPAGE',
      'IN_APP_SDK',
      'DYNAMIC_QR',
      'JSAPI',
      'EWALLET',
      'CASH_TOP_UP',
      'DIRECT_PAY',
      'QR_PAY',
    ]) {
      assert.match(types, new RegExp(`scene: "${scene}";`), `no branch of CreateOrderRequest is tagged ${scene}`);
    }
    // The operations the client calls (paths), not the notifications it receives (webhooks), whose headers it reads.
    const operations = types.slice(0, types.indexOf('export interface webhooks'));
    assert.ok(operations.includes('"/orders": {'), 'the generated paths are missing');
    assert.doesNotMatch(
      operations,
      /header: \{[^}]*"X-(Client-Id|Timestamp|Nonce|Signature)"/,
      'a signing header is a request parameter of some operation',
    );
  });

  test('the natural integration type-checks under strict', () => {
    const tsc = require.resolve('typescript/bin/tsc');
    const result = spawnSync(process.execPath, [tsc, '-p', path.join(clientDir, 'tsconfig.json')], {encoding: 'utf8'});
    assert.equal(result.status, 0, `tsc --strict on tests/clients/typescript/integration.ts:\n${result.stdout}${result.stderr}`);
  });

  describe('against the local sandbox', () => {
    let server: SandboxServer;
    let integration: Integration;
    let client: unknown;

    before(async () => {
      server = await startSandboxServer({engine: await createNodeEngine(), port: 0});
      // Loaded by path, not by a static import: the root tsconfig leaves the integration (and its generated types) to ./typescript/tsconfig.json.
      integration = (await import(path.join(clientDir, 'integration.ts'))) as Integration;
      const servers = (parse(readFileSync(contractFile, 'utf8')) as {servers: Array<{url: string}>}).servers;
      const basePath = new URL(servers[0]?.url ?? 'https://unknown/').pathname.replace(/\/$/, '');
      client = integration.veloxaClient(`${server.url}${basePath}`, {
        clientId: 'sandbox-merchant-0001',
        privateKey: await importPrivateKey(readFileSync(path.join(vectors, 'merchant-test-private.pem'), 'utf8')),
        providerPublicKey: await importPublicKey(readFileSync(path.join(vectors, 'provider-test-public.pem'), 'utf8')),
        now: async () => ((await (await fetch(`${server.url}/_sandbox/clock`)).json()) as {now: string}).now,
      });
    });
    after(() => server.close());

    const unique = (prefix: string) => `${prefix}-${Date.now().toString(36).toUpperCase()}`;

    test("creates orders with a scene's own fields, and reads one back", async () => {
      const merchantOrderNo = unique('ORD-TS');
      const hosted = await integration.createHostedOrder(client, merchantOrderNo);
      assert.equal(hosted.order.merchantOrderNo, merchantOrderNo);
      assert.equal(hosted.order.status, 'PENDING');
      assert.equal(hosted.nextAction.type, 'REDIRECT');
      const qr = await integration.createQrOrder(client, unique('ORD-QR'));
      assert.equal(qr.order.status, 'PENDING');
      assert.notEqual(qr.nextAction.type, 'REDIRECT');
      assert.deepEqual(await integration.orderStatus(client, merchantOrderNo), {code: 'SUCCESS', status: 'PENDING'});
      assert.deepEqual(await integration.orderStatus(client, 'ORD-NEVER-MADE'), {code: 'ORDER_NOT_FOUND'});
    });

    test('transfers to a wallet and pays a bank account by IBAN', async () => {
      const transfer = await integration.payWallet(client, unique('TRF-TS'));
      assert.equal(transfer.status, 'PROCESSING');
      const payout = await integration.payIban(client, unique('BTR-TS'));
      assert.equal(payout.status, 'PROCESSING');
    });
  });
});
