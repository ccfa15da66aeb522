/**
 * The Try it panel's data and pure helpers, on the real contract: the body form follows the schema (Create
 * order's fields change with the scene), writing a field writes the JSON, validator problems land on the
 * field they are about, every scene has an example to start from, and the newest objects fill path parameters.
 */
import {describe, test} from 'node:test';
import assert from 'node:assert/strict';
import {createContractValidator} from '../../src/contract/validator';
import {
  creationWindow,
  formRows,
  latestValues,
  problemField,
  setFormValue,
  newestStatementDay,
  type FormRow,
  type TryItOperation,
} from '../../src/lib/tryIt';
import {contract, data} from '../support/tryItFixture';

const operation = (id: string): TryItOperation => {
  const found = data.operations.find((candidate) => candidate.operationId === id);
  assert.ok(found, id);
  return found;
};
const labels = (rows: readonly FormRow[]) => rows.map((row) => row.path.join('.'));
const row = (rows: readonly FormRow[], label: string): FormRow => {
  const found = rows.find((candidate) => candidate.path.join('.') === label);
  assert.ok(found, `no form input ${label} among ${labels(rows).join(', ')}`);
  return found;
};

describe('Try it body form', () => {
  const createOrder = operation('createOrder');
  const form = createOrder.bodyForm;
  assert.ok(form, 'Create order has a body form');

  test('shows the common fields, nested ones flattened, and the fields of the scene chosen', () => {
    const hosted = formRows(form, {scene: 'HOSTED_PAYPAGE'});
    assert.deepEqual(labels(hosted).slice(0, 4), ['merchantOrderNo', 'amount.value', 'amount.currency', 'scene']);
    assert.ok(labels(hosted).includes('returnUrl'));
    assert.ok(!labels(hosted).includes('payerPaymentCode'));
    assert.ok(!labels(hosted).includes('metadata'), 'a free-form map is left to the JSON editor');
    const qr = formRows(form, {scene: 'QR_PAY'});
    assert.ok(['payerPaymentCode', 'storeId', 'terminalId'].every((name) => labels(qr).includes(name)));
    assert.deepEqual(row(qr, 'scene').options?.length, 9);
  });

  test('every scene of Create order has an example to start from, valid against the contract', () => {
    const validator = createContractValidator(contract.document);
    const scenes = row(formRows(form, {}), 'scene').options ?? [];
    for (const scene of scenes) {
      const example = createOrder.examples.find((candidate) => (candidate.value as {scene?: string}).scene === scene);
      assert.ok(example, `an example for ${scene}`);
      assert.deepEqual(validator.problems(createOrder.bodyPointer ?? '', example.value), [], scene);
    }
  });

  test("writing an input writes the JSON: numbers as numbers, empty removes, a new scene drops the old one's fields", () => {
    const body = {
      merchantOrderNo: 'ORD-1',
      amount: {value: 100, currency: 'USD'},
      scene: 'QR_PAY',
      subject: 'x',
      payerPaymentCode: '286510000000000001',
      storeId: 's',
      terminalId: 't',
    };
    const rows = formRows(form, body);
    assert.deepEqual(setFormValue(body, row(rows, 'amount.value'), '2599')['amount'], {value: 2599, currency: 'USD'});
    assert.deepEqual(
      setFormValue(body, row(rows, 'amount.value'), '25x')['amount'],
      {value: '25x', currency: 'USD'},
      'kept as typed, for the validator to name',
    );
    assert.ok(!('subject' in setFormValue(body, row(rows, 'subject'), '')));
    const switched = setFormValue(body, row(rows, 'scene'), 'HOSTED_PAYPAGE');
    assert.equal(switched['scene'], 'HOSTED_PAYPAGE');
    assert.ok(!('payerPaymentCode' in switched) && !('storeId' in switched), 'QR pay fields dropped');
    assert.equal(body.scene, 'QR_PAY', 'the given body is not changed');
  });

  test('a nested one-of (the payee of Transfer to wallet) switches its own fields', () => {
    const transferForm = operation('transfer').bodyForm;
    assert.ok(transferForm);
    const byPhone = formRows(transferForm, {payee: {payeeType: 'PHONE'}});
    assert.ok(labels(byPhone).includes('payee.phoneNumber'));
    assert.ok(!labels(byPhone).includes('payee.walletId'));
    const switched = setFormValue({payee: {payeeType: 'PHONE', phoneNumber: '+1'}}, row(byPhone, 'payee.payeeType'), 'WALLET_ID');
    assert.deepEqual(switched['payee'], {payeeType: 'WALLET_ID'});
  });

  test('validator problems name the input they are about', () => {
    const validator = createContractValidator(contract.document);
    const problems = validator.problems(createOrder.bodyPointer ?? '', {
      merchantOrderNo: 'ORD-20250601-0009',
      amount: {value: 0, currency: 'USD'},
      scene: 'HOSTED_PAYPAGE',
      subject: 'x',
    });
    // One branch of the one-of is checked (the discriminator), so the problems are about this scene only.
    assert.deepEqual(problems.map(problemField).sort(), ['amount.value', 'returnUrl']);
    assert.equal(problemField('(top level) must NOT have unevaluated properties ("foo")'), undefined);
  });
});

describe('Try it prefills', () => {
  test('path parameters from the newest objects, payout numbers by their kind', () => {
    const latest = {merchantOrderNo: 'ORD-NEW', BANK: 'BT-1', WALLET: 'TR-1', CARD: 'CP-1', notificationId: 'ntf_1'};
    assert.deepEqual(latestValues(operation('retrieveOrderDetail'), latest), {merchantOrderNo: 'ORD-NEW'});
    assert.deepEqual(latestValues(operation('queryTransferToBank'), latest), {merchantTransferNo: 'BT-1'});
    assert.deepEqual(latestValues(operation('queryTransfer'), latest), {merchantTransferNo: 'TR-1'});
    assert.deepEqual(latestValues(operation('queryBankCardTransfer'), latest), {merchantTransferNo: 'CP-1'});
    assert.deepEqual(latestValues(operation('redeliverEvent'), latest), {notificationId: 'ntf_1'});
    assert.deepEqual(latestValues(operation('queryRefund'), latest), {});
  });

  test('a list starts on the last seven days, up to an hour ahead', () => {
    const now = Date.parse('2026-03-08T12:00:00.500Z');
    assert.equal(creationWindow('createdFrom', now), '2026-03-01T12:00:00Z');
    assert.equal(creationWindow('createdTo', now), '2026-03-08T13:00:00Z');
    assert.equal(creationWindow('updatedFrom', now), undefined);
  });

  test("a statement date defaults to the newest day whose statement is ready: yesterday from the sandbox data's hour on, the day before until then", () => {
    const readyAfterUtc = data.statementReadyAfterUtc;
    const readyAt = Date.parse(`2026-03-01T${readyAfterUtc}Z`);
    assert.equal(newestStatementDay(readyAt, readyAfterUtc), '2026-02-28');
    assert.equal(newestStatementDay(readyAt + 86_399_000, readyAfterUtc), '2026-02-28');
    // Just after midnight (where a run at 00:30 UTC once failed with STATEMENT_NOT_READY) and a second before the hour.
    assert.equal(
      newestStatementDay(Date.parse('2026-03-01T00:30:00Z'), readyAfterUtc),
      readyAfterUtc > '00:30:00' ? '2026-02-27' : '2026-02-28',
    );
    assert.equal(newestStatementDay(readyAt - 1000, readyAfterUtc), '2026-02-27');
    assert.throws(() => newestStatementDay(readyAt, '2 am'), /HH:MM:SS/);
  });

  test('state machines name the diagram the operation pages draw', () => {
    for (const [name, machine] of Object.entries(data.machines)) assert.ok(machine.diagram, `${name} has a drawn diagram`);
  });
});
