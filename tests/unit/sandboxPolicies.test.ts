/**
 * The engine's time rules and statement header come from the contract (x-time-limits in api/openapi.yaml,
 * api/statement-columns.yaml), never from literals; each number is checked here against the prose where
 * the contract states it to readers, so the two cannot drift apart.
 */
import {describe, test} from 'node:test';
import assert from 'node:assert/strict';
import {readFileSync} from 'node:fs';
import path from 'node:path';
import {parse as parseYaml} from 'yaml';
import {fixedClock} from '../../src/sandbox/engine/clock';
import {createNodeEngine, sandboxFiles} from '../../src/sandbox/hosts/server/loadEngine';
import {engineClient} from '../support/sandboxClient';
import {repoRoot} from '../support/routeContract';

const {spec} = sandboxFiles();
const contractText = readFileSync(path.join(repoRoot, 'api', 'openapi.yaml'), 'utf8');
const document = parseYaml(contractText) as {
  'x-result-codes': Array<{code: string; meaning: string; action?: string}>;
  paths: Record<string, Record<string, {operationId?: string; description?: string}>>;
};
const limits = spec.timeLimits;

const resultCode = (code: string) => document['x-result-codes'].find((entry) => entry.code === code);
const description = (operationId: string) =>
  Object.values(document.paths)
    .flatMap((item) => Object.values(item))
    .find((operation) => operation.operationId === operationId)
    ?.description?.replace(/\s+/g, ' ') ?? '';

describe('contract rules the engine reads', () => {
  test('the refund window is the one REFUND_PERIOD_EXPIRED and Refund order state', () => {
    assert.match(resultCode('REFUND_PERIOD_EXPIRED')?.meaning ?? '', new RegExp(`more than ${limits.refundWindowDays} days ago`));
    assert.match(description('refundOrder'), new RegExp(`within ${limits.refundWindowDays} days of payment`));
  });

  test('the expiry range is the one EXPIRY_OUT_OF_RANGE and Adjust order expiry time state', () => {
    assert.match(
      resultCode('EXPIRY_OUT_OF_RANGE')?.action ?? '',
      new RegExp(`now plus ${limits.expiryMinSeconds} seconds and ${limits.expiryMaxDays} days after creation`),
    );
    assert.match(
      description('adjustOrderExpiryTime'),
      new RegExp(`at least ${limits.expiryMinSeconds} seconds from now and at most ${limits.expiryMaxDays} days after`),
    );
  });

  test('the cashier URL lifetime is the one Get cashier URL states', () => {
    assert.match(description('getCashierUrl'), new RegExp(`expire after ${limits.cashierUrlSeconds / 60} minutes`));
  });

  test('the list range is the one every list operation states', () => {
    for (const operationId of ['queryOrderPage', 'queryRefundPage', 'listTransfers', 'listBankTransfers', 'listCardPayouts']) {
      assert.match(description(operationId), new RegExp(`at most ${limits.listRangeDays} days`), operationId);
    }
  });

  test('the agreement link and auth code lifetimes are the ones Create agreement and AUTH_CODE_INVALID state', () => {
    assert.match(description('createAgreement'), new RegExp(`valid for ${limits.agreementLinkSeconds / 60} minutes`));
    assert.match(resultCode('AUTH_CODE_INVALID')?.meaning ?? '', new RegExp(`more than ${limits.authCodeSeconds / 60} minutes old`));
  });

  test('the statement header is the column list of api/statement-columns.yaml', () => {
    const columns = (
      parseYaml(readFileSync(path.join(repoRoot, 'api', 'statement-columns.yaml'), 'utf8')) as {columns: Array<{name: string}>}
    ).columns;
    assert.equal(spec.statementHeader, columns.map((column) => column.name).join(','));
    assert.ok(columns.length >= 10);
  });

  test('no engine source repeats these numbers as literals', () => {
    const sources = ['refunds', 'orders', 'lists', 'agreements', 'statements']
      .map((name) => readFileSync(path.join(repoRoot, 'src', 'sandbox', 'engine', 'domain', `${name}.ts`), 'utf8'))
      .join('\n');
    for (const literal of [
      /\b365 \*/,
      /\b31 \* 86400/,
      /\b15 \* 60\b/,
      /\b30 \* 60\b/,
      /\b5 \* 60\b/,
      /7 \* 86400/,
      /statement_date,transaction_type/,
    ])
      assert.doesNotMatch(sources, literal);
  });

  test('a DYNAMIC_QR code created without qrExpiresInSeconds lives for its schema default', async () => {
    const schema = (document as unknown as {components: {schemas: Record<string, {properties: Record<string, {default?: number}>}>}})
      .components.schemas['DynamicQrScene'];
    const declared = schema?.properties['qrExpiresInSeconds']?.default;
    assert.equal(typeof declared, 'number');
    assert.equal(spec.qrExpiresDefaultSeconds, declared);
    const start = Date.parse('2026-11-25T10:00:00Z');
    const engine = await createNodeEngine({clock: fixedClock(start)});
    const created = await engineClient(engine).call('POST', '/v1/orders', {
      merchantOrderNo: 'ORD-QR-DEFAULT-1',
      amount: {value: 4800, currency: 'USD'},
      scene: 'DYNAMIC_QR',
      subject: 'Two coffees',
    });
    assert.equal(created.json.code, 'SUCCESS', created.json.message);
    const nextAction = (created.json.data as {nextAction: {qrExpiresAt: string}}).nextAction;
    assert.equal(Date.parse(nextAction.qrExpiresAt) - start, (declared as number) * 1000);
  });
});
