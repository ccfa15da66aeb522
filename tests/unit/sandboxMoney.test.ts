/**
 * Money in the sandbox as a merchant books it (issue 29, findings I-8 to I-13 of the integration review of
 * 2026-11-26), through signed calls to the engine on a fixed clock: VAM top-ups are available on arrival, every
 * statement day reconciles from the day before the merchant existed, a chargeback won while open has no row, a
 * paid order's fee and net amount are its statement row's, and JPY and BHD work end to end.
 */
import {describe, test} from 'node:test';
import assert from 'node:assert/strict';
import {readFileSync} from 'node:fs';
import path from 'node:path';
import {parse as parseYaml} from 'yaml';
import {fixedClock, utcDay} from '../../src/sandbox/engine/clock';
import type {SandboxEngine} from '../../src/sandbox/engine/engine';
import type {NotificationTransport} from '../../src/sandbox/engine/http';
import {createNodeEngine, sandboxFiles} from '../../src/sandbox/hosts/server/loadEngine';
import {paymentFee} from '../../src/sandbox/engine/rules/rules';
import {engineClient, type CallResult} from '../support/sandboxClient';

const repoRoot = path.resolve(import.meta.dirname, '..', '..');
const start = Date.parse('2026-11-25T10:00:00Z');
const day = 86_400_000;
const data = sandboxFiles().spec.sandbox;

interface Received {
  readonly url: string;
  readonly body: string;
}

async function setUp() {
  const received: Received[] = [];
  const transport: NotificationTransport = {
    deliver: async (delivery) => {
      received.push(delivery);
      return {status: 200, body: '{"code":"SUCCESS"}'};
    },
  };
  const engine = await createNodeEngine({clock: fixedClock(start), transport, rateLimits: false});
  return {engine, client: engineClient(engine), received};
}

const ok = (result: CallResult, code = 'SUCCESS') => {
  assert.deepEqual(result.problems, [], `${result.status} ${result.body}`);
  assert.equal(result.json.code, code, result.body);
  return result.json.data as Record<string, unknown>;
};

let counter = 0;
const number = (prefix: string) => `${prefix}-${start}-${(counter += 1)}`;

interface Money {
  readonly value: number;
  readonly currency: string;
}

type Row = Readonly<Record<string, string>>;

/** The statement of a day as rows keyed by column name (the engine's rows hold no quoted commas). */
function statementRows(engine: SandboxEngine, clientId: string, statementDay: string, currency?: string): Row[] {
  const statement = engine.statementCsv(clientId, statementDay, currency);
  assert.ok(statement, `no statement for ${statementDay}`);
  const [header = '', ...lines] = statement.csv.trimEnd().split('\n');
  const names = header.split(',');
  return lines.map((line) => Object.fromEntries(line.split(',').map((cell, index) => [names[index] ?? '', cell])));
}

/** Per currency: opening, closing, and the movement rows, checked to add up. */
function reconcile(rows: readonly Row[], label: string): Map<string, {opening: number; closing: number; movements: Row[]}> {
  const byCurrency = new Map<string, {opening: number; closing: number; movements: Row[]}>();
  for (const row of rows) {
    const currency = row['currency'] ?? '';
    const entry = byCurrency.get(currency) ?? {opening: Number.NaN, closing: Number.NaN, movements: []};
    byCurrency.set(currency, entry);
    if (row['transaction_type'] === 'OPENING_BALANCE') entry.opening = Number(row['net_amount']);
    else if (row['transaction_type'] === 'CLOSING_BALANCE') entry.closing = Number(row['net_amount']);
    else entry.movements.push(row);
  }
  for (const [currency, entry] of byCurrency) {
    const sum = entry.movements.reduce((total, row) => total + Number(row['net_amount']), 0);
    assert.equal(
      entry.opening + sum,
      entry.closing,
      `${label} ${currency}: opening ${entry.opening} + movements ${sum} is not closing ${entry.closing}`,
    );
  }
  return byCurrency;
}

async function payByCard(engine: SandboxEngine, client: ReturnType<typeof engineClient>, amount: Money): Promise<string> {
  const no = number('ORD');
  ok(
    await client.call('POST', '/v1/orders', {
      merchantOrderNo: no,
      amount,
      scene: 'HOSTED_PAYPAGE',
      subject: 'Money test',
      returnUrl: 'https://shop.example.com/return',
      notifyUrl: 'https://shop.example.com/payments/notify',
    }),
  );
  const paid = await engine.shopper.pay(client.clientId, no, {method: 'CARD', cardNumber: '4000000000000002'});
  assert.ok(paid.ok, JSON.stringify(paid));
  return no;
}

describe('sandbox money as the statement books it', () => {
  test('I-8: a VAM top-up is available on arrival: Get balance, then a payout that needs it, then its statement row', async () => {
    const {engine, client} = await setUp();
    const gbp = async () =>
      (ok(await client.call('GET', '/v1/balances?currency=GBP'))['balances'] as Array<{available: Money; pending: Money}>)[0];
    // Spend the GBP balance down with wallet transfers to the pound wallet, so the last payout needs the top-up.
    const wallet = data.wallets.find((candidate) => candidate.currency === 'GBP' && candidate.status === 'ACTIVE');
    assert.ok(wallet);
    const fee = data.pricing.payoutFees.WALLET['GBP'] ?? 0;
    const transfer = (value: number) =>
      client.call('POST', '/v1/transfers', {
        merchantTransferNo: number('TRF'),
        amount: {value, currency: 'GBP'},
        payee: {payeeType: 'PHONE', phoneNumber: wallet.phone},
      });
    const chunk = data.limits.maxAmount - 100;
    while (((await gbp())?.available.value ?? 0) > chunk + fee) ok(await transfer(chunk));
    await engine.advance(10);
    const before = await gbp();
    assert.ok(before);
    const needed = before.available.value + 5000;
    ok(await transfer(needed), 'INSUFFICIENT_BALANCE');

    const account = data.virtualAccounts.accounts.find((candidate) => candidate.currency === 'GBP');
    assert.ok(account);
    const topUp = await engine.control.topUpVirtualAccount(client.clientId, account.iban, 25000);
    assert.ok(topUp.ok, JSON.stringify(topUp));
    await engine.advance(data.virtualAccounts.creditSeconds);
    const after = await gbp();
    assert.deepEqual(after?.available, {value: before.available.value + 25000, currency: 'GBP'}, 'the top-up is in available');
    assert.deepEqual(after?.pending, before.pending, 'and not in pending');
    ok(await transfer(needed));

    const bankReference = (topUp.value as {bankReference: string}).bankReference;
    const event = engine.snapshot(client.clientId)?.events.find((candidate) => candidate.event.eventType === 'VAM.TOP_UP');
    assert.equal(
      (event?.event['notification'] as {data?: {bankReference?: string}} | undefined)?.data?.bankReference,
      bankReference,
      'the notification names the bankReference',
    );
    const rows = statementRows(engine, client.clientId, utcDay(engine.clock.now()), 'GBP');
    reconcile(rows, 'the top-up day');
    const row = rows.find((candidate) => candidate['transaction_type'] === 'VAM_TOP_UP');
    assert.ok(row, 'a VAM_TOP_UP row');
    assert.equal(row['provider_reference'], bankReference, 'I-11: provider_reference is the bankReference');
    assert.equal(row['available_on'], utcDay(engine.clock.now()), 'available_on is the day it arrived');
    assert.equal(row['net_amount'], '25000');
  });

  test('I-9: every day reconciles, from the day before the merchant existed (0, no rows, 0) through its first days', async () => {
    const {engine, client} = await setUp();
    const created = utcDay(start);
    // Movements on the creation day and the next two: a payment, its partial refund the next day, a payout on the third.
    const no = await payByCard(engine, client, {value: 2500, currency: 'USD'});
    await engine.advance(86_400);
    ok(await client.call('POST', `/v1/orders/${no}/refunds`, {merchantRefundNo: number('RFD'), amount: {value: 500, currency: 'USD'}}));
    await engine.advance(86_400);
    ok(
      await client.call('POST', '/v1/transfers', {
        merchantTransferNo: number('TRF'),
        amount: {value: 1000, currency: 'USD'},
        payee: {payeeType: 'PHONE', phoneNumber: '+10000000001'},
      }),
    );
    await engine.advance(60);
    const days = [utcDay(start - day), created, utcDay(start + day), utcDay(start + 2 * day)];
    const cases = [
      {day: days[0], opening: 0, types: [] as string[]},
      {day: days[1], opening: 0, types: ['SANDBOX_FUNDING', 'PAYMENT']},
      {day: days[2], opening: undefined, types: ['REFUND']},
      {day: days[3], opening: undefined, types: ['TRANSFER']},
    ];
    let carried: Map<string, number> | undefined;
    for (const expected of cases) {
      assert.ok(expected.day);
      const byCurrency = reconcile(statementRows(engine, client.clientId, expected.day), expected.day);
      assert.deepEqual(
        [...byCurrency.keys()].sort(),
        [...data.currencies.payments].sort(),
        `${expected.day}: a balance pair for every currency of the account`,
      );
      const usd = byCurrency.get('USD');
      assert.ok(usd);
      assert.deepEqual(
        usd.movements.map((row) => row['transaction_type']),
        expected.types,
        `${expected.day} USD rows`,
      );
      if (expected.opening !== undefined) assert.equal(usd.opening, expected.opening, `${expected.day} opens at ${expected.opening}`);
      for (const [currency, entry] of byCurrency) {
        if (carried) assert.equal(entry.opening, carried.get(currency), `${expected.day} ${currency} opens where the day before closed`);
        if (expected.day === days[0])
          assert.deepEqual([entry.opening, entry.movements.length, entry.closing], [0, 0, 0], `${currency} before the merchant existed`);
        if (expected.day === created) {
          const funding = entry.movements.find((row) => row['transaction_type'] === 'SANDBOX_FUNDING');
          const seed = data.merchant.balances.find((balance) => balance.currency === currency);
          assert.equal(
            Number(funding?.['net_amount']),
            (seed?.available ?? 0) + (seed?.pending ?? 0) + (seed?.frozen ?? 0),
            `${currency}: the starting funds are a row`,
          );
          assert.equal(funding?.['available_on'], '', 'starting funds count as available at once');
        }
      }
      carried = new Map([...byCurrency].map(([currency, entry]) => [currency, entry.closing]));
    }
    const balance = engine.balances(client.clientId).get('USD');
    assert.equal(
      (balance?.available ?? 0) + (balance?.pending ?? 0) + (balance?.frozen ?? 0),
      carried?.get('USD'),
      'the last closing balance is the balance',
    );
  });

  test('I-10: a chargeback won while open has no row; a lost one has a negative CHARGEBACK row; neither has a CHARGEBACK_REVERSAL', async () => {
    const {engine, client} = await setUp();
    const won = await payByCard(engine, client, {value: 3000, currency: 'USD'});
    const lost = await payByCard(engine, client, {value: 4000, currency: 'USD'});
    const wonCase = await engine.control.openChargeback(client.clientId, won);
    const lostCase = await engine.control.openChargeback(client.clientId, lost);
    assert.ok(wonCase.ok && lostCase.ok);
    const idOf = (value: unknown) => (value as {chargebackId: string}).chargebackId;
    assert.ok((await engine.control.resolveChargeback(client.clientId, idOf(wonCase.value), 'WON')).ok);
    assert.ok((await engine.control.resolveChargeback(client.clientId, idOf(lostCase.value), 'LOST')).ok);
    const rows = statementRows(engine, client.clientId, utcDay(start), 'USD');
    reconcile(rows, 'the chargeback day');
    const chargebackRows = rows.filter((row) => row['transaction_type']?.startsWith('CHARGEBACK'));
    assert.deepEqual(
      chargebackRows.map((row) => [row['transaction_type'], row['provider_reference'], row['net_amount'], row['status']]),
      [['CHARGEBACK', idOf(lostCase.value), '-4000', 'LOST']],
    );
  });

  test('I-12: a paid order reports fee and netAmount, in Retrieve order detail and ORDER.PAID, equal to its statement row, unchanged by a refund', async () => {
    const {engine, client, received} = await setUp();
    for (const amount of [
      {value: 1250, currency: 'USD'},
      {value: 2599, currency: 'EUR'},
      {value: 1501, currency: 'JPY'},
      {value: 12345, currency: 'BHD'},
    ]) {
      const no = await payByCard(engine, client, amount);
      const order = ok(await client.call('GET', `/v1/orders/${no}`));
      const fee = paymentFee(data, amount.value);
      assert.deepEqual(
        [order['fee'], order['netAmount']],
        [
          {value: fee, currency: amount.currency},
          {value: amount.value - fee, currency: amount.currency},
        ],
        `${amount.currency} order`,
      );
      const row = statementRows(engine, client.clientId, utcDay(engine.clock.now()), amount.currency).find(
        (candidate) => candidate['merchant_reference'] === no,
      );
      assert.ok(row);
      assert.deepEqual(
        [Number(row['gross_amount']), -Number(row['fee_amount']), Number(row['net_amount'])],
        [amount.value, (order['fee'] as Money).value, (order['netAmount'] as Money).value],
        'the statement row books what the order reports',
      );
      ok(
        await client.call('POST', `/v1/orders/${no}/refunds`, {
          merchantRefundNo: number('RFD'),
          amount: {value: 100, currency: amount.currency},
        }),
      );
      await engine.advance(5);
      const paid = received
        .map((delivery) => JSON.parse(delivery.body) as {eventType: string; data: Record<string, unknown>})
        .find((body) => body.eventType === 'ORDER.PAID' && body.data['merchantOrderNo'] === no);
      assert.ok(paid, 'ORDER.PAID was delivered');
      assert.deepEqual([paid.data['fee'], paid.data['netAmount']], [order['fee'], order['netAmount']], 'the notification carries the same');
      const refunded = ok(await client.call('GET', `/v1/orders/${no}`));
      assert.equal(refunded['status'], 'PARTIALLY_REFUNDED');
      assert.deepEqual(refunded['fee'], order['fee'], 'a refund does not give the fee back');
    }
  });

  test('I-13: JPY and BHD take orders, refunds, balances and statements in their minor units; payouts and other currencies are refused', async () => {
    const {engine, client} = await setUp();
    for (const currency of ['JPY', 'BHD']) {
      const opening = engine.balances(client.clientId).get(currency);
      assert.ok(opening, `${currency} has a balance`);
      const no = await payByCard(engine, client, {value: 1500, currency});
      ok(await client.call('POST', `/v1/orders/${no}/refunds`, {merchantRefundNo: number('RFD'), amount: {value: 1500, currency}}));
      await engine.advance(5);
      assert.equal(ok(await client.call('GET', `/v1/orders/${no}`))['status'], 'REFUNDED');
      const balances = ok(await client.call('GET', `/v1/balances?currency=${currency}`))['balances'] as Array<{
        available: Money;
        pending: Money;
      }>;
      const fee = paymentFee(data, 1500);
      assert.deepEqual(balances[0]?.pending, {value: 1500 - fee, currency}, 'the net payment is pending');
      assert.deepEqual(balances[0]?.available, {value: opening.available - 1500, currency}, 'the refund left available');
      const rows = statementRows(engine, client.clientId, utcDay(start), currency);
      const byCurrency = reconcile(rows, currency);
      assert.deepEqual(
        byCurrency.get(currency)?.movements.map((row) => [row['transaction_type'], row['net_amount']]),
        [
          ['SANDBOX_FUNDING', String(opening.available)],
          ['PAYMENT', String(1500 - fee)],
          ['REFUND', '-1500'],
        ],
      );
      const payout = await client.call('POST', '/v1/transfers', {
        merchantTransferNo: number('TRF'),
        amount: {value: 1000, currency},
        payee: {payeeType: 'PHONE', phoneNumber: '+10000000001'},
      });
      ok(payout, data.currencies.notEnabled.resultCode);
    }
    const other = await client.call('POST', '/v1/orders', {
      merchantOrderNo: number('ORD'),
      amount: {value: 1000, currency: 'CHF'},
      scene: 'HOSTED_PAYPAGE',
      subject: 'Money test',
      returnUrl: 'https://shop.example.com/return',
    });
    ok(other, data.currencies.notEnabled.resultCode);
  });

  test('every transaction type the engine writes is declared in api/statement-columns.yaml', async () => {
    const {engine, client} = await setUp();
    await payByCard(engine, client, {value: 1000, currency: 'USD'});
    const account = data.virtualAccounts.accounts[0];
    assert.ok(account);
    assert.ok((await engine.control.topUpVirtualAccount(client.clientId, account.iban, 1000)).ok);
    await engine.advance(60);
    const columns = (
      parseYaml(readFileSync(path.join(repoRoot, 'api', 'statement-columns.yaml'), 'utf8')) as {
        columns: Array<{name: string; meaning: string}>;
      }
    ).columns;
    const declared = new Set(
      columns.find((column) => column.name === 'transaction_type')?.meaning.match(/\b[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)*\b/g) ?? [],
    );
    const written = new Set(engine.ledger(client.clientId).flatMap((entry) => (entry.row ? [entry.row.transactionType] : [])));
    assert.ok(written.has('SANDBOX_FUNDING') && written.has('VAM_TOP_UP'));
    assert.deepEqual(
      [...written].filter((type) => !declared.has(type)),
      [],
    );
  });
});

describe('the pages say what the sandbox does', () => {
  const page = readFileSync(path.join(repoRoot, 'docs', 'reconciliation', 'statement-parameters.md'), 'utf8');
  const tableRow = (type: string) => page.split('\n').find((line) => line.startsWith(`| ${type} |`)) ?? '';

  test('I-11: the row-type table names the bankReference as the provider_reference of a VAM_TOP_UP row', () => {
    assert.match(tableRow('VAM_TOP_UP'), /`bankReference`/);
  });

  test('I-10: CHARGEBACK_REVERSAL is a reversed LOST chargeback, and a chargeback won while open has no row', () => {
    assert.match(tableRow('CHARGEBACK_REVERSAL'), /`LOST` chargeback later reversed/);
    assert.match(tableRow('CHARGEBACK_REVERSAL'), /won while still open has no row/);
    assert.doesNotMatch(page, /CHARGEBACK_REVERSAL with status `WON` when it is decided for you/, 'the sentence the review quoted');
  });

  test('I-8: the VAM notification and Get balance pages say a top-up is available on arrival', () => {
    const vam = readFileSync(path.join(repoRoot, 'docs', 'vam-top-up', 'async_notif_vam_topup.md'), 'utf8');
    const balance = readFileSync(path.join(repoRoot, 'docs', 'member', 'get-balance.md'), 'utf8');
    assert.equal(data.virtualAccounts.creditedTo, 'available');
    assert.match(vam, /in your `available` balance when the notification is sent/);
    assert.match(balance, /land in `available` as they arrive, never in `pending`/);
  });
});
