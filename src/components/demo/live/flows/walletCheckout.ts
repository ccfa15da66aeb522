/**
 * The wallet checkouts (dynamic QR, smart code, e-wallet, JSAPI): the customer confirms in the Veloxa Pay
 * wallet with a test wallet and its PIN. The outcomes are the amount endings paid with the everyday wallet,
 * and the test wallets whose own behaviour decides (too little balance, frozen), and a wrong PIN.
 */
import type {SandboxData} from '@site/src/sandbox/engine/rules/types';
import {walletParts} from '../../testWallets';
import {formatUsd, orderOf, type FlowRun, type OrderLike, type Outcome} from '../flow';
import type {Block, Screen} from '../screen';
import {
  addClockSteps,
  addRefundStep,
  endingOutcomes,
  orderPageScreen,
  refundedScreen,
  retrieve,
  withOrder,
  type SettleScreens,
} from './checkout';

/** Juniper Outdoor's mini-app in the wallet, as the contract's examples name it. */
export const walletAppId = 'wa_Bk7Tq2Mx9L';

type Wallet = SandboxData['wallets'][number];

const walletText = (wallet: Wallet) => `the wallet ${wallet.phone} (PIN ${wallet.pin})`;

/** The outcomes of a wallet payment, each with the wallet and amount that produce it. */
export function walletOutcomes(data: SandboxData, abandon: {label: string; testValue: string}): Outcome[] {
  const {everyday, low, frozen} = walletParts(data.wallets);
  if (!everyday) return [];
  const pay = {phone: everyday.phone, pin: everyday.pin};
  const outcomes = endingOutcomes(data, `with ${walletText(everyday)}`, abandon).map((outcome) => ({...outcome, wallet: pay}));
  const rules = data.walletRules.payments;
  if (low && rules.insufficientBalance.failureCode)
    outcomes.push({
      id: 'wallet-low',
      label: `Declined: ${rules.insufficientBalance.failureCode} (the wallet's balance)`,
      testValue: `${walletText(low)}, which holds ${formatUsd(low.balance)}: any larger amount`,
      ending: '00',
      kind: 'decline',
      summary: data.walletRules.balance,
      failureCode: rules.insufficientBalance.failureCode,
      wallet: {phone: low.phone, pin: low.pin},
    });
  if (frozen && rules.frozen.failureCode)
    outcomes.push({
      id: 'wallet-frozen',
      label: `Declined: ${rules.frozen.failureCode} (a frozen wallet)`,
      testValue: `${walletText(frozen)}: any amount`,
      ending: '00',
      kind: 'decline',
      summary: frozen.note ?? 'The wallet is frozen.',
      failureCode: rules.frozen.failureCode,
      wallet: {phone: frozen.phone, pin: frozen.pin},
    });
  if (rules.wrongPin.failureCode)
    outcomes.push({
      id: 'wrong-pin',
      label: `Declined: ${rules.wrongPin.failureCode} (a wrong PIN)`,
      testValue: `the wallet ${everyday.phone} with a PIN other than ${everyday.pin}`,
      ending: '00',
      kind: 'decline',
      summary: 'The wallet refuses the PIN; the attempt fails and the order stays PENDING.',
      failureCode: rules.wrongPin.failureCode,
      wallet: {phone: everyday.phone, pin: everyday.pin === '000000' ? '111111' : '000000'},
    });
  return outcomes;
}

/** The wallet app's own screen on the phone. */
export const walletScreen = (name: string, blocks: readonly Block[], action?: string): Screen => ({
  name,
  device: 'phone',
  title: 'Veloxa Pay',
  blocks,
  ...(action ? {action} : {}),
});

/** What the wallet shows after the customer confirmed, for the chosen outcome. */
export function confirmedBlocks(run: FlowRun, merchant: string): Block[] {
  const {outcome} = run;
  if (outcome.kind === 'decline')
    return [
      {
        kind: 'status',
        tone: 'error',
        title: 'Payment declined',
        text: `${outcome.failureCode ?? 'Declined'}: nothing was charged. The order stays open, so the customer can try again.`,
      },
    ];
  if (outcome.kind === 'expiry')
    return [{kind: 'status', tone: 'pending', title: 'Waiting for the payment…', text: 'The payment gets no answer.'}];
  if (outcome.kind === 'slow' || outcome.kind === 'timeout')
    return [{kind: 'status', tone: 'pending', title: 'Processing your payment…', text: 'The payment is PROCESSING.'}];
  return [{kind: 'status', tone: 'success', title: `Paid ${formatUsd(run.amount)} to ${merchant}`, text: 'The wallet shows the receipt.'}];
}

/** The customer confirms with the outcome's wallet and PIN: shopper.pay for an order the wallet opened. */
export async function payInWallet(run: FlowRun): Promise<OrderLike> {
  const wallet = run.outcome.wallet;
  if (!wallet) throw new Error(`The outcome ${run.outcome.id} names no test wallet.`);
  const input = {clientId: run.ports.client.clientId, merchantOrderNo: run.currentOrderNo, method: 'WALLET', ...wallet};
  const order = orderOf(
    await run.act('shopper.pay', input, `The customer confirms in the wallet ${wallet.phone} with the PIN ${wallet.pin}.`),
  );
  run.setOrderStatus(order.status);
  return order;
}

/** The customer cancels in the wallet (shopper.abandon): the order stays PENDING. */
export async function cancelInWallet(run: FlowRun, text: string): Promise<void> {
  const order = orderOf(await run.act('shopper.abandon', {clientId: run.ports.client.clientId, merchantOrderNo: run.currentOrderNo}, text));
  run.setOrderStatus(order.status);
}

/** Your server cancels the order (the customer walked away, or the code expired), so it can no longer be paid. */
export async function cancelOrder(run: FlowRun, reason: string): Promise<void> {
  const target = `/v1/orders/${encodeURIComponent(run.currentOrderNo)}/cancel`;
  const json = await run.call('cancelOrder', 'Cancel order', 'POST', target, {reason});
  if (json.code !== 'SUCCESS') throw new Error(`Cancel order answered ${json.code}: ${json.message}`);
  run.setOrderStatus(orderOf(json.data).status);
}

/**
 * The page inside the wallet asks the bridge for a one-time auth code and sends it to your server, which
 * exchanges it for the wallet user ID and keeps it in the session: the page never sends an ID of its own.
 */
export async function exchangeAuthCode(run: FlowRun): Promise<string> {
  const wallet = run.outcome.wallet;
  if (!wallet) throw new Error(`The outcome ${run.outcome.id} names no test wallet.`);
  const issued = (await run.act(
    'shopper.authCode',
    {clientId: run.ports.client.clientId, wallet: wallet.phone},
    `The page calls VeloxaWallet.getAuthCode(); the wallet ${wallet.phone} is signed in.`,
  )) as {authCode?: string};
  const authCode = issued.authCode ?? '';
  run.message('Wallet → page', 'getAuthCode() callback', {authCode});
  const json = await run.call('exchangeWalletAuthCode', 'Exchange wallet auth code', 'POST', '/v1/wallet-auth/token', {authCode});
  if (json.code !== 'SUCCESS') throw new Error(`Exchange wallet auth code answered ${json.code}: ${json.message}`);
  const userId = (json.data as {payerWalletUserId?: string} | undefined)?.payerWalletUserId ?? '';
  run.note(
    'note',
    `Your server keeps payerWalletUserId ${userId} in the customer's session. The page never sees it, and no ID from the page is trusted.`,
  );
  return userId;
}

export interface WalletTail {
  readonly merchant: string;
  /** The merchant's page after the result: where it is and how it is reached. */
  readonly device: Screen['device'];
  readonly address: string;
  readonly retrieveTitle: string;
  /** The wallet's answer to the page (a bridge callback), where the flow has one. */
  readonly onSettled?: SettleScreens['onSettled'];
}

/** After the confirmation: the sandbox clock where the outcome needs it, the merchant's page asking your server, the refund. */
export function addWalletTail(run: FlowRun, tail: WalletTail): void {
  addClockSteps(run, {
    paid: () =>
      walletScreen('wallet-result', [
        {
          kind: 'status',
          tone: 'success',
          title: `Paid ${formatUsd(run.amount)} to ${tail.merchant}`,
          text: 'The payment went through after PROCESSING.',
        },
      ]),
    failed: (code) =>
      walletScreen('wallet-result', [
        {kind: 'status', tone: 'error', title: 'Payment failed', text: `${code}: nothing was charged; the customer can try again.`},
      ]),
    expired: () =>
      walletScreen('wallet-result', [
        {kind: 'status', tone: 'warning', title: 'This payment has expired', text: 'The order closed unpaid at its expiry time.'},
      ]),
    ...(tail.onSettled ? {onSettled: tail.onSettled} : {}),
  });
  run.add(
    tail.retrieveTitle,
    'server',
    withOrder(run, async () => {
      const order = await retrieve(run);
      run.show({...orderPageScreen(run, order.status ?? 'unknown', tail.device, tail.address, 'Continue'), title: tail.merchant});
    }),
  );
  addRefundStep(run, () => ({...refundedScreen(run, tail.device, 'the wallet'), title: tail.merchant}));
}
