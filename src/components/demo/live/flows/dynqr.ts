/**
 * Dynamic QR: a counter screen shows a QR code made for one order (Create order, DYNAMIC_QR), the customer
 * scans it with the wallet in the page and confirms with the PIN. The code stays scannable until its
 * qrExpiresAt on the sandbox clock; a scan after that is refused, and your server cancels the order.
 */
import type {SandboxData} from '@site/src/sandbox/engine/rules/types';
import {formatUsd, orderOf, type FlowDefinition, type FlowRun, type Outcome} from '../flow';
import type {Screen} from '../screen';
import {createOrder, withOrder} from './checkout';
import {addWalletTail, cancelOrder, confirmedBlocks, walletOutcomes, walletScreen} from './walletCheckout';

const merchant = 'Corner Bakery';
const subject = 'Two coffees and a bagel';
/** The code's lifetime the counter asks for (the contract's default). */
const qrSeconds = 300;
const counter = {device: 'desktop', title: `${merchant}: pay at the counter`, address: 'shop.example.com/checkout/qr'} as const;

function outcomes(data: SandboxData): Outcome[] {
  const offered = walletOutcomes(data, {
    label: 'The customer walks away: your server cancels the order',
    testValue: 'any amount: nobody scans, and the counter cancels the sale',
  });
  const approve = offered.find((outcome) => outcome.kind === 'success');
  if (!approve) return offered;
  const expired: Outcome = {
    ...approve,
    id: 'qr-expired',
    label: 'Scanned after the code expired: refused',
    testValue: `a scan after qrExpiresAt (the counter asks for qrExpiresInSeconds ${qrSeconds}; the demo moves the sandbox clock past it)`,
    kind: 'qr-expired',
    summary: 'The sandbox refuses a scan after qrExpiresAt with ORDER_CLOSED; the order stays PENDING until your server cancels it.',
  };
  return [...offered, expired];
}

const counterScreen = (name: string, blocks: Screen['blocks'], action?: string): Screen => ({
  name,
  ...counter,
  blocks,
  ...(action ? {action} : {}),
});

const scanInput = (run: FlowRun, qrContent: string) => ({
  clientId: run.ports.client.clientId,
  qrContent,
  phone: run.outcome.wallet?.phone ?? '',
  pin: run.outcome.wallet?.pin ?? '',
});

/** Your server cancels the order, and the counter says so: after the code expired, or when the customer walks away. */
function addCancelStep(run: FlowRun, title: string, reason: string, screen: () => Screen): void {
  run.add(
    title,
    'server',
    withOrder(run, async () => {
      await cancelOrder(run, reason);
      run.show(screen());
    }),
  );
}

/** Seconds from `now` to one second past the code's qrExpiresAt. */
const pastQrExpiry = (expiresAt: string, now: number) => Math.max(1, Math.ceil((Date.parse(expiresAt) - now) / 1000) + 1);

function addExpiredScan(run: FlowRun, code: {content: string; expiresAt: string}): void {
  run.add(
    'The sandbox clock moves past the code’s qrExpiresAt',
    'sandbox',
    withOrder(run, async () => {
      const seconds = pastQrExpiry(code.expiresAt, await run.ports.target.clock.now());
      await run.advance(seconds, `The sandbox clock moves ${seconds} s, past qrExpiresAt (${code.expiresAt}). Nobody has scanned.`);
    }),
    {movesClock: (now) => (code.expiresAt && now !== undefined ? pastQrExpiry(code.expiresAt, now) : undefined)},
  );
  run.add(
    'The customer scans the expired code: the sandbox refuses it',
    'shopper',
    withOrder(run, async () => {
      const result = await run.tryAct('shopper.scan', scanInput(run, code.content), 'The customer scans the code on the counter screen.');
      if (result.ok) throw new Error('The sandbox took a scan after qrExpiresAt.');
      run.note('refused', `${result.code}: ${result.message} The order is still PENDING; no attempt was made.`);
      run.show(
        walletScreen('wallet-result', [
          {kind: 'status', tone: 'warning', title: 'This code has expired', text: 'Ask the merchant for a new code. Nothing was charged.'},
        ]),
      );
    }),
  );
  addCancelStep(run, 'Your server cancels the order; the counter offers a new code', 'QR code expired', () =>
    counterScreen('expired', [
      {
        kind: 'status',
        tone: 'warning',
        title: 'This code has expired',
        text: `Nothing was charged. Show a new code to pay ${formatUsd(run.amount)}.`,
      },
    ]),
  );
}

export const dynqr: FlowDefinition = {
  id: 'dynqr',
  title: 'Dynamic QR',
  device: 'desktop',
  deviceLabel: 'The counter screen and the customer’s wallet',
  baseAmount: 4800,
  outcomes,
  firstScreen: (run) => counterScreen('counter', [{kind: 'summary', merchant, subject, amount: run.amount}], 'Show the QR code'),
  plan: (run) => {
    // The code's content and expiry come from the Create order response; later steps read them from here.
    const code = {content: '', expiresAt: ''};
    run.add(`The counter asks for ${formatUsd(run.amount)}; your server creates a DYNAMIC_QR order`, 'server', async () => {
      const order = await createOrder(run, {scene: 'DYNAMIC_QR', qrExpiresInSeconds: qrSeconds}, subject, counter);
      if (!order) return;
      code.content = String(order.nextAction?.['qrContent'] ?? '');
      code.expiresAt = String(order.nextAction?.['qrExpiresAt'] ?? '');
      run.show(
        counterScreen(
          'qr',
          [
            {kind: 'summary', merchant, subject, amount: run.amount},
            {kind: 'qr', content: code.content, label: `QR code for order ${run.currentOrderNo}, ${formatUsd(run.amount)}`},
            {kind: 'text', text: `Scan with the Veloxa Pay app. The code expires at ${code.expiresAt} on the sandbox clock.`},
          ],
          run.outcome.kind === 'abandon' ? 'The customer walks away' : 'Scan with the wallet',
        ),
      );
    });
    const {outcome} = run;
    if (outcome.kind === 'rejected') return;
    if (outcome.kind === 'qr-expired') return addExpiredScan(run, code);
    if (outcome.kind === 'abandon') {
      addCancelStep(run, 'The customer walks away; your server cancels the order', 'The customer left the counter', () =>
        counterScreen('cancelled', [
          {kind: 'status', tone: 'info', title: 'Sale cancelled', text: 'A photo of the old code can no longer be paid.'},
        ]),
      );
      return;
    }
    run.add(
      `The customer scans the code and confirms ${formatUsd(run.amount)} with the PIN`,
      'shopper',
      withOrder(run, async () => {
        const text = `The customer scans the code with the wallet ${outcome.wallet?.phone ?? ''} and enters the PIN.`;
        run.setOrderStatus(orderOf(await run.act('shopper.scan', scanInput(run, code.content), text)).status);
        run.show(walletScreen('wallet-result', confirmedBlocks(run, merchant)));
      }),
    );
    addWalletTail(run, {
      merchant,
      device: 'desktop',
      address: counter.address,
      retrieveTitle: 'The counter screen asks your server, which retrieves the order',
    });
  },
};
