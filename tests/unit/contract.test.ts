/**
 * The contract as a whole, and the errors bad input gets: each broken copy of
 * the contract must fail with a message naming the file and the field.
 */
import {after, describe, test} from 'node:test';
import assert from 'node:assert/strict';
import {randomUUID} from 'node:crypto';
import {copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync} from 'node:fs';
import {tmpdir} from 'node:os';
import path from 'node:path';
import {checkedContractFile, ContractError, loadContract, validateContract} from '../../src/contract/node/loadContract';
import {checkApiPages, scanApiPages} from '../../src/contract/node/apiPages';
import {brand} from '../../src/brand';
import {repoRoot} from '../support/routeContract';

const contractFile = path.join(repoRoot, 'api', 'openapi.yaml');
const columnsFile = path.join(repoRoot, 'api', 'statement-columns.yaml');
const original = readFileSync(contractFile, 'utf8');
const contract = loadContract(contractFile);

const expectedOperations = [
  'createOrder',
  'queryOrderPage',
  'retrieveOrderDetail',
  'retrieveOrderPayer',
  'cancelOrder',
  'revokeOrder',
  'refundOrder',
  'adjustOrderExpiryTime',
  'getCashierUrl',
  'queryRefund',
  'queryRefundPage',
  'transfer',
  'queryTransfer',
  'getIbanHolderName',
  'listCountriesAndCurrencies',
  'calculateRate',
  'transferToBank',
  'queryTransferToBank',
  'verifyCardPayoutEligibility',
  'transferToBankCard',
  'queryBankCardTransfer',
  'getBalance',
  'downloadStatement',
  'listTransfers',
  'listBankTransfers',
  'listCardPayouts',
  'listEvents',
  'redeliverEvent',
  'createAgreement',
  'queryAgreement',
  'cancelAgreement',
  'exchangeWalletAuthCode',
];
const expectedWebhooks = [
  'paymentResultNotification',
  'refundResultNotification',
  'chargebackNotification',
  'transferNotification',
  'transferToBankNotification',
  'bankCardTransferNotification',
  'vamTopUpNotification',
  'agreementNotification',
];

describe('the contract', () => {
  test('defines exactly the operations and notifications the portal documents', () => {
    const operations = [...contract.operations.values()].filter((l) => l.kind === 'operation').map((l) => l.operationId);
    const webhooks = [...contract.operations.values()].filter((l) => l.kind === 'webhook').map((l) => l.operationId);
    assert.deepEqual(operations.sort(), [...expectedOperations].sort());
    assert.deepEqual(webhooks.sort(), [...expectedWebhooks].sort());
  });

  test('every operation and webhook has exactly one page, and every API page names one of them', () => {
    const pages = checkApiPages(contract, scanApiPages(repoRoot));
    assert.equal(pages.size, expectedOperations.length + expectedWebhooks.length);
    assert.equal(pages.get('createOrder')?.url, '/docs/createorder');
    assert.equal(pages.get('vamTopUpNotification')?.url, '/docs/vam-top-up/async_notif_vam_topup');
  });

  test('names the sandbox and production API of src/brand.ts as its servers, with a versioned base path', () => {
    assert.deepEqual(
      contract.document.servers?.map((s) => s.url),
      [`https://${brand.hosts.sandboxApi}/v1`, `https://${brand.hosts.productionApi}/v1`],
    );
  });

  test('every operation and webhook has request and response examples', () => {
    for (const location of contract.operations.values()) {
      const ok = location.operation.responses?.['200']?.content?.['application/json']?.examples;
      assert.ok(ok && Object.keys(ok).length > 0, `${location.operationId}: no success example`);
      const body = location.operation.requestBody?.content['application/json'];
      if (body) assert.ok(Object.keys(body.examples ?? {}).length > 0, `${location.operationId}: no request example`);
    }
  });
});

/** Writes a modified copy of the contract (and the columns file beside it) and validates it. */
function validateVariant(edit: (text: string) => string): () => unknown {
  const dir = mkdtempSync(path.join(tmpdir(), 'contract-'));
  const file = path.join(dir, 'openapi.yaml');
  const edited = edit(original);
  assert.notEqual(edited, original, 'the edit must change the contract');
  writeFileSync(file, edited);
  copyFileSync(columnsFile, path.join(dir, 'statement-columns.yaml'));
  return () => validateContract(file, path.join(dir, 'statement-columns.yaml'));
}

describe('bad contracts fail with a message naming file and field', () => {
  const cases: Array<[string, (text: string) => string, RegExp]> = [
    ['invalid YAML', (t) => t.replace('openapi: 3.1.0', 'openapi: 3.1.0\n  bad: [unclosed'), /openapi\.yaml:\d+:\d+: invalid YAML/],
    ['wrong OpenAPI version', (t) => t.replace('openapi: 3.1.0', 'openapi: 3.0.3'), /openapi\.yaml: openapi: must be 3\.1\.x/],
    [
      'a dangling reference',
      (t) => t.replace('$ref: "#/components/schemas/CreateOrderRequest"', '$ref: "#/components/schemas/NoSuchSchema"'),
      /openapi\.yaml: \/paths\/~1orders\/post\/requestBody.*\$ref: reference "#\/components\/schemas\/NoSuchSchema" does not resolve/,
    ],
    [
      'an example that breaks its schema',
      (t) =>
        t.replace(
          'amount: {value: 1250, currency: USD}\n                  scene: HOSTED_PAYPAGE',
          'amount: {value: "12.50", currency: USD}\n                  scene: HOSTED_PAYPAGE',
        ),
      /openapi\.yaml: createOrder request body, example "hostedPaypage" does not match its schema: \/amount\/value must be integer/,
    ],
    [
      'an unknown field in an example',
      (t) =>
        t.replace(
          'reason: One item returned\n                  notifyUrl',
          'reason: One item returned\n                  colour: blue\n                  notifyUrl',
        ),
      /refundOrder request body, example "partialRefund" does not match its schema: .*\("colour"\)/,
    ],
    [
      'an unknown response code',
      (t) => t.replace('x-result-codes: [ORDER_NOT_FOUND, ORDER_NOT_PAID]', 'x-result-codes: [ORDER_NOT_FOUND, ORDER_MISPLACED]'),
      /openapi\.yaml: paths\.\/orders\/\{merchantOrderNo\}\/payer\.get\.x-result-codes: "ORDER_MISPLACED" is not in the response code catalogue/,
    ],
    [
      'a duplicate operationId',
      (t) => t.replace('operationId: queryRefund\n', 'operationId: queryRefundPage\n'),
      /operationId: "queryRefundPage" is used twice/,
    ],
    [
      'a state machine naming an unknown state',
      (t) =>
        t.replace(
          '{from: PENDING, to: PAID, trigger: The payment succeeds}',
          '{from: PENDING, to: SETTLED, trigger: The payment succeeds}',
        ),
      /components\.schemas\.OrderStatus\.x-state-machine\.transitions\[0\]\.to: "SETTLED" is not a state/,
    ],
  ];
  for (const [name, edit, message] of cases) {
    test(name, () => {
      assert.throws(validateVariant(edit), (error: unknown) => {
        assert.ok(error instanceof ContractError, `expected a ContractError, got ${String(error)}`);
        assert.match(error.message, message);
        return true;
      });
    });
  }
});

describe('API pages that disagree with the contract fail', () => {
  function siteWith(files: Record<string, string>): string {
    const dir = mkdtempSync(path.join(tmpdir(), 'site-'));
    for (const [file, text] of Object.entries(files)) {
      mkdirSync(path.dirname(path.join(dir, file)), {recursive: true});
      writeFileSync(path.join(dir, file), text);
    }
    return dir;
  }

  test('a page naming an unknown operation', () => {
    const site = siteWith({'docs/pay.mdx': '---\ntitle: Pay\n---\n\n<ApiOperation operationId="createOrdr" />\n'});
    assert.throws(
      () => checkApiPages(contract, scanApiPages(site)),
      /docs\/pay\.mdx: <ApiOperation operationId="createOrdr" \/> names no operation/,
    );
  });

  test('two pages for one operation', () => {
    const site = siteWith({
      'docs/a.mdx': '<ApiOperation operationId="createOrder" />\n',
      'docs/b.mdx': '<ApiOperation operationId="createOrder" />\n',
    });
    assert.throws(
      () => checkApiPages(contract, scanApiPages(site)),
      /docs\/b\.mdx: operation "createOrder" already has a page, docs\/a\.mdx/,
    );
  });

  test('operations without a page', () => {
    const site = siteWith({'docs/a.mdx': '<ApiOperation operationId="createOrder" />\n'});
    assert.throws(() => checkApiPages(contract, scanApiPages(site)), /have no page with <ApiOperation.*: queryOrderPage/);
  });
});

describe('a passed check is remembered between processes, for exactly the bytes checked (checkedContractFile)', () => {
  const columnsText = readFileSync(columnsFile, 'utf8');
  const written: string[] = [];
  after(() => written.forEach((file) => rmSync(file, {force: true})));

  /** A copy of the contract in a folder of its own, made different from any other by a comment. */
  function copyWith(text: string): string {
    const dir = mkdtempSync(path.join(tmpdir(), 'contract-'));
    writeFileSync(path.join(dir, 'openapi.yaml'), text);
    copyFileSync(columnsFile, path.join(dir, 'statement-columns.yaml'));
    return path.join(dir, 'openapi.yaml');
  }
  const entryFor = (text: string) => {
    const entry = checkedContractFile(text, columnsText);
    assert.ok(entry, 'the checking code is on disk, so there is a cache entry (unset PORTAL_CONTRACT_CACHE)');
    written.push(entry);
    return entry;
  };

  test('a second load of the same bytes reads the entry, and gives what the check gave', () => {
    const text = `${original}\n# ${randomUUID()}\n`;
    const entry = entryFor(text);
    assert.equal(existsSync(entry), false);
    const checked = loadContract(copyWith(text));
    assert.ok(existsSync(entry), 'the passed check is written down');
    const remembered = loadContract(copyWith(text));
    assert.notEqual(remembered.document, checked.document, 'read from the entry: a new object, as another process sees it');
    assert.deepEqual(remembered.document, checked.document);
    assert.deepEqual([...remembered.operations], [...checked.operations]);
    assert.deepEqual([...remembered.resultCodes], [...checked.resultCodes]);
    assert.deepEqual(remembered.statementColumns, checked.statementColumns);
  });

  test('a contract that fails its check is never written down, so it is checked (and fails) every time', () => {
    const text = `${original.replace('amount: {value: 1250, currency: USD}\n                  scene: HOSTED_PAYPAGE', 'amount: {value: "12.50", currency: USD}\n                  scene: HOSTED_PAYPAGE')}\n# ${randomUUID()}\n`;
    const entry = entryFor(text);
    assert.throws(() => loadContract(copyWith(text)), /does not match its schema/);
    assert.equal(existsSync(entry), false);
  });

  test('the key covers every byte of both files', () => {
    const entry = checkedContractFile(original, columnsText);
    assert.notEqual(checkedContractFile(`${original} `, columnsText), entry);
    assert.notEqual(checkedContractFile(original, `${columnsText} `), entry);
    assert.equal(checkedContractFile(original, columnsText), entry);
  });
});
