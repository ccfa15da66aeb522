/**
 * B2B invoice paid by bank transfer: the invoice carries the IBAN of the buyer's virtual account (VAM) and the
 * invoice number as reference; the buyer's bank sends money to it (the sandbox's Simulate VAM top-up,
 * control.topUpVirtualAccount), the sandbox credits it after creditSeconds and sends VAM.TOP_UP to your
 * default notification URL, and your server matches it to the invoice. Partial, exact and over-payment are
 * your server's reading of the amount: the sandbox credits whatever arrives. Today's statement is not ready
 * until the next day (the sandbox data's readyAfterUtc), so the demo asks for it, shows the refusal, and
 * reads the credit with Get balance.
 */
import type {SandboxData} from '@site/src/sandbox/engine/rules/types';
import {formatMoney, type FlowDefinition, type FlowRun, type Outcome} from '../flow';
import type {Block, Screen} from '../screen';
import {notifyUrl} from './checkout';

const merchant = 'Juniper Wholesale';
const buyer = 'Harbour Sports';
const currency = 'GBP';
/** What an over-payment sends beyond the invoice, in minor units. */
const overBy = 5000;

type VirtualAccount = SandboxData['virtualAccounts']['accounts'][number];

const accountOf = (data: SandboxData): VirtualAccount | undefined =>
  data.virtualAccounts.accounts.find((account) => account.currency === currency);
const gbp = (minor: number) => formatMoney(minor, currency);
/** The first transfer of a partial payment: about half the invoice, in whole pounds. */
const firstPart = (amount: number) => Math.max(100, Math.floor(amount / 200) * 100);

/** The transfers of an outcome, in minor units: what the buyer's bank sends, one after the other. */
export function transfersFor(outcome: Outcome, amount: number): number[] {
  switch (outcome.kind) {
    case 'partial':
      return [firstPart(amount)];
    case 'partial-then-rest':
      return [firstPart(amount), amount - firstPart(amount)];
    case 'overpayment':
      return [amount + overBy];
    default:
      return [amount];
  }
}

function outcomes(data: SandboxData): Outcome[] {
  const account = accountOf(data);
  if (!account) return [];
  const to = `to ${account.iban}`;
  const credited = `Credited to your available balance after ${data.virtualAccounts.creditSeconds} s, with VAM.TOP_UP.`;
  const base = {ending: '00'};
  return [
    {
      ...base,
      id: 'exact',
      label: 'Exact payment: the invoice is paid',
      testValue: `a transfer of the invoice amount ${to}`,
      kind: 'success',
      summary: `${credited} Your server matches customerReference ${account.customerReference} and the amount to the open invoice.`,
    },
    {
      ...base,
      id: 'partial',
      label: 'Partial payment: the invoice stays open',
      testValue: `a transfer of about half the invoice ${to}`,
      kind: 'partial',
      summary: `${credited} The amount is less than due, so your server keeps the invoice open with the remaining balance.`,
    },
    {
      ...base,
      id: 'partial-then-rest',
      label: 'Partial payment, then the rest: two notifications',
      testValue: `two transfers ${to}: about half, then the remainder`,
      kind: 'partial-then-rest',
      summary: `${credited} Each transfer is its own VAM.TOP_UP; the invoice is paid when the two add up.`,
    },
    {
      ...base,
      id: 'overpayment',
      label: 'Over-payment: paid, with a credit',
      testValue: `a transfer of ${gbp(overBy)} more than the invoice ${to}`,
      kind: 'overpayment',
      summary: `${credited} Your server marks the invoice paid and holds the excess as the buyer's credit, to refund or set against the next invoice.`,
    },
  ];
}

const desktop = (name: string, title: string, blocks: readonly Block[], action?: string, address?: string): Screen => ({
  name,
  device: 'desktop',
  title,
  blocks,
  ...(address ? {address} : {}),
  ...(action ? {action} : {}),
});

/** What your server has matched so far, and the invoice page that shows it. */
interface Ledger {
  received: number;
  balanceBefore: number | undefined;
  readonly bankReferences: string[];
}

function invoiceScreen(run: FlowRun, invoiceNo: string, ledger: Ledger, action?: string): Screen {
  const due = run.amount - ledger.received;
  const page = `shop.example.com/invoices/${invoiceNo}`;
  const received: Block = {kind: 'value', label: 'Received by bank transfer', value: gbp(ledger.received)};
  if (due > 0)
    return desktop(
      'invoice-open',
      `${merchant}: invoice ${invoiceNo}`,
      [received, {kind: 'status', tone: 'warning', title: `Part-paid: ${gbp(due)} still due`, text: 'Pay the rest to the same IBAN.'}],
      action,
      page,
    );
  return desktop(
    'invoice-paid',
    `${merchant}: invoice ${invoiceNo}`,
    [
      received,
      {
        kind: 'status',
        tone: 'success',
        title: `Invoice ${invoiceNo} is paid`,
        text: due < 0 ? `${gbp(-due)} over the invoice is held as ${buyer}' credit.` : 'Thank you: the invoice is settled.',
      },
    ],
    action,
    page,
  );
}

/**
 * VAM top-ups go only to the default notification URL (the contract's routing): read it, and set it when
 * there is none. The run records the change, so Reset leaves the merchant without one again.
 */
async function ensureDefaultNotifyUrl(run: FlowRun): Promise<void> {
  const current = await run.readSettings();
  if (current.defaultNotifyUrl) {
    run.note('note', `Your server's default notification URL is ${current.defaultNotifyUrl}; VAM.TOP_UP goes there.`);
    return;
  }
  await run.configure(
    {defaultNotifyUrl: notifyUrl},
    `VAM.TOP_UP goes only to your default notification URL, and this sandbox had none: the demo sets it to ${notifyUrl}.`,
  );
}

/** Get balance in the invoice's currency: the available amount, from a real call. */
async function availableBalance(run: FlowRun): Promise<number> {
  const json = await run.call('getBalance', `Get balance (${currency})`, 'GET', `/v1/balances?currency=${currency}`);
  if (json.code !== 'SUCCESS') throw new Error(`Get balance answered ${json.code}: ${json.message}`);
  const balances = (json.data as {balances?: {available?: {value?: number}}[]} | undefined)?.balances ?? [];
  return balances[0]?.available?.value ?? 0;
}

function addTransfer(run: FlowRun, account: VirtualAccount, invoiceNo: string, ledger: Ledger, amount: number, last: boolean): void {
  const which = ledger.bankReferences.length === 0 ? 'sends' : 'sends the rest,';
  run.add(`${buyer}' bank ${which} ${gbp(amount)} to the virtual account’s IBAN`, 'shopper', async () => {
    const input = {clientId: run.ports.client.clientId, iban: account.iban, amount, payerName: buyer};
    const topUp = (await run.act(
      'control.topUpVirtualAccount',
      input,
      `${buyer}' finance team sends ${gbp(amount)} to ${account.iban} with reference ${invoiceNo}.`,
    )) as {bankReference?: string};
    const bankReference = topUp.bankReference ?? '';
    ledger.bankReferences.push(bankReference);
    run.follow(bankReference);
    run.show(
      desktop('bank', 'Business online banking', [
        {kind: 'value', label: 'Payee IBAN', value: account.iban},
        {kind: 'value', label: 'Payment reference', value: invoiceNo},
        {kind: 'status', tone: 'info', title: `${gbp(amount)} sent`, text: `Bank reference ${bankReference}.`},
      ]),
    );
  });
  const seconds = run.ports.data.virtualAccounts.creditSeconds;
  run.add(
    `The sandbox clock moves ${seconds} s: the transfer is credited and VAM.TOP_UP is sent`,
    'sandbox',
    async () => {
      await run.advance(seconds, `The sandbox clock moves ${seconds} s, the virtual account's credit time.`);
    },
    {movesClock: () => seconds},
  );
  run.add('Your server matches VAM.TOP_UP to the invoice by customerReference and amount', 'server', async () => {
    ledger.received += amount;
    const due = run.amount - ledger.received;
    run.note(
      'note',
      `customerReference ${account.customerReference} is ${buyer}; ${gbp(amount)} against ${gbp(run.amount - ledger.received + amount)} due: ${
        due > 0 ? `part-paid, ${gbp(due)} still due` : due < 0 ? `paid, ${gbp(-due)} over` : 'paid exactly'
      }. Your server stores the notification under its notificationId, so a redelivery does not count twice.`,
    );
    run.show(invoiceScreen(run, invoiceNo, ledger, last ? 'See the statement' : `Pay ${gbp(due)}`));
  });
}

/** How the top-ups read: today's statement is refused until the next day, so the balance shows the credit. */
function addStatement(run: FlowRun, invoiceNo: string, ledger: Ledger): void {
  run.add('Your server reads the credit: today’s statement is not ready yet, Get balance shows it', 'server', async () => {
    const today = new Date(await run.ports.target.clock.now()).toISOString().slice(0, 10);
    const statement = await run.call('downloadStatement', 'Statement download', 'GET', `/v1/statements/${today}?currency=${currency}`);
    const {readyAfterUtc} = run.ports.data.statements;
    if (statement.code === 'SUCCESS') run.note('note', `The statement of ${today} is ready.`);
    else
      run.note(
        'refused',
        `${statement.code}: the statement of ${today} is generated after ${readyAfterUtc} UTC the next day. Each top-up will be a VAM_TOP_UP row with its bankReference (${ledger.bankReferences.join(', ')}) as provider_reference, a fee of 0 and ${today} as available_on.`,
      );
    const after = await availableBalance(run);
    const rose = after - (ledger.balanceBefore ?? after);
    run.note('note', `Available ${currency} rose by ${gbp(rose)}, the ${gbp(ledger.received)} received: a VAM top-up is settled money.`);
    // Its title is also the run's last line ("Finished: …"), so it says where the invoice ended.
    const due = run.amount - ledger.received;
    const ended = due > 0 ? `part-paid, ${gbp(due)} still due` : due < 0 ? `paid, with ${gbp(-due)} of credit` : 'paid';
    run.show(
      desktop('statement', `Invoice ${invoiceNo} ${ended}; the balance shows the credit`, [
        {kind: 'value', label: `Available ${currency} before`, value: gbp(ledger.balanceBefore ?? 0)},
        {kind: 'value', label: `Available ${currency} now`, value: gbp(after)},
        {
          kind: 'value',
          label: `Statement of ${today}`,
          value: statement.code === 'SUCCESS' ? 'ready' : `${statement.code}, after ${readyAfterUtc} UTC tomorrow`,
        },
        ...invoiceScreen(run, invoiceNo, ledger).blocks.slice(1),
      ]),
    );
  });
}

export const invoice: FlowDefinition = {
  id: 'invoice',
  title: 'B2B invoice',
  device: 'desktop',
  deviceLabel: 'The buyer’s inbox and bank, and your invoice page',
  baseAmount: 120_000,
  currency,
  orderless: true,
  outcomes,
  firstScreen: (run) =>
    desktop(
      'draft',
      `${merchant}: invoices`,
      [{kind: 'summary', merchant, subject: `Invoice for ${buyer}: 10 two-person tents`, amount: run.amount, currency}],
      'Send the invoice',
    ),
  plan: (run) => {
    const account = accountOf(run.ports.data);
    const invoiceNo = `INV-DEMO-${run.suffix}`;
    const ledger: Ledger = {received: 0, balanceBefore: undefined, bankReferences: []};
    run.add(`Your server issues invoice ${invoiceNo} with the virtual account’s IBAN`, 'server', async () => {
      if (!account) throw new Error(`The sandbox data has no ${currency} virtual account.`);
      await ensureDefaultNotifyUrl(run);
      ledger.balanceBefore = await availableBalance(run);
      run.show(
        desktop(
          'invoice',
          `Mail: invoice ${invoiceNo} from ${merchant}`,
          [
            {kind: 'summary', merchant, subject: `Invoice ${invoiceNo} for ${buyer}`, amount: run.amount, currency},
            {kind: 'value', label: 'Pay by bank transfer to IBAN', value: account.iban},
            {kind: 'value', label: 'Reference', value: invoiceNo},
            {
              kind: 'text',
              text: `The account is ${buyer}' own virtual account (${account.virtualAccountId}, customerReference ${account.customerReference}).`,
            },
          ],
          'Pay from online banking',
        ),
      );
    });
    if (!account) return;
    const transfers = transfersFor(run.outcome, run.amount);
    transfers.forEach((amount, index) => addTransfer(run, account, invoiceNo, ledger, amount, index === transfers.length - 1));
    addStatement(run, invoiceNo, ledger);
  },
};
