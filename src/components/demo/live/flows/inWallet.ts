/**
 * A merchant page inside the wallet app (JSAPI), used by the JSAPI demo and the smart code: the page's auth
 * code exchanged by your server, the JSAPI order for the user ID in the session, the wallet's payment sheet
 * opened by requestPayment() with the parameters unchanged, and the bridge's callback.
 */
import {formatUsd, type FlowRun, type Outcome} from '../flow';
import type {SandboxData} from '@site/src/sandbox/engine/rules/types';
import type {Screen} from '../screen';
import {createOrder, withOrder} from './checkout';
import {addWalletTail, cancelInWallet, exchangeAuthCode, payInWallet, walletAppId, walletOutcomes} from './walletCheckout';

export interface InWalletPage {
  readonly merchant: string;
  readonly subject: string;
  /** The page's address and title inside the wallet. */
  readonly page: Pick<Screen, 'device' | 'title' | 'address'>;
}

/**
 * Your server's session for the page: the wallet user ID it got from the exchange, per run (a smart code's
 * steps are planned again when the customer types the amount, so the session cannot live in one plan).
 */
const sessions = new WeakMap<FlowRun, string>();

export const pageScreen = (page: InWalletPage, name: string, blocks: Screen['blocks'], action?: string): Screen => ({
  name,
  ...page.page,
  blocks,
  ...(action ? {action} : {}),
});

/** The page opens in the wallet: the bridge's auth code, exchanged by your server. */
export async function openInWallet(run: FlowRun): Promise<void> {
  sessions.set(run, await exchangeAuthCode(run));
}

/** The customer pays: your server creates the JSAPI order, the page hands jsapiParams to requestPayment(), the sheet opens. */
export async function openSheet(run: FlowRun, page: InWalletPage): Promise<void> {
  const scene = {scene: 'JSAPI', walletAppId, payerWalletUserId: sessions.get(run) ?? ''};
  const order = await createOrder(run, scene, page.subject, page.page);
  if (!order) return;
  run.message('Page → wallet bridge', 'VeloxaWallet.requestPayment(jsapiParams)', {...(order.nextAction?.['jsapiParams'] as object)});
  run.show(
    pageScreen(
      page,
      'sheet',
      [
        {kind: 'text', text: `Paying ${page.merchant}`},
        {
          kind: 'panel',
          variant: 'sheet',
          label: 'Veloxa Pay',
          blocks: [
            {kind: 'summary', merchant: page.merchant, subject: page.subject, amount: run.amount},
            {kind: 'text', text: `Pay from the wallet ${run.outcome.wallet?.phone ?? ''}. PIN ${run.outcome.wallet?.pin ?? ''}.`},
          ],
        },
      ],
      run.outcome.kind === 'abandon' ? 'Cancel' : 'Pay',
    ),
  );
}

const callback = (run: FlowRun, result: string) => run.message('Wallet bridge → page', 'requestPayment() callback', {result});

/** The customer confirms on the sheet with the PIN, or cancels; the bridge calls the page back. */
export function addSheetStep(run: FlowRun, page: InWalletPage): void {
  const {outcome} = run;
  if (outcome.kind === 'abandon') {
    run.add(
      'The customer cancels on the payment sheet',
      'shopper',
      withOrder(run, async () => {
        await cancelInWallet(run, 'The customer taps Cancel.');
        callback(run, 'cancel');
        run.show(
          pageScreen(
            page,
            'cancelled',
            [{kind: 'status', tone: 'info', title: 'Payment canceled', text: 'Your basket is saved. Nothing was charged.'}],
            'Continue',
          ),
        );
      }),
    );
    return;
  }
  run.add(
    `The customer confirms ${formatUsd(run.amount)} on the sheet with the PIN`,
    'shopper',
    withOrder(run, async () => {
      const order = await payInWallet(run);
      const result = order.status === 'PAID' ? 'success' : order.status === 'PROCESSING' || outcome.kind === 'expiry' ? 'pending' : 'fail';
      callback(run, result);
      const blocks: Screen['blocks'] =
        result === 'success'
          ? [
              {
                kind: 'status',
                tone: 'pending',
                title: 'Confirming your payment…',
                text: 'The bridge reported success; the page asks your server before it confirms.',
              },
            ]
          : result === 'fail'
            ? [
                {
                  kind: 'status',
                  tone: 'error',
                  title: 'Payment declined',
                  text: `${outcome.failureCode ?? 'Declined'}: nothing was charged. Try again or pay another way.`,
                },
              ]
            : [{kind: 'status', tone: 'pending', title: 'Waiting for the payment…', text: 'The wallet has no answer yet.'}];
      run.show(pageScreen(page, 'page-result', blocks, 'Continue'));
    }),
  );
}

/** The outcomes of a page in the wallet: the wallet's, and a cancel on the sheet. */
export const inWalletOutcomes = (data: SandboxData): Outcome[] =>
  walletOutcomes(data, {
    label: 'The customer cancels on the sheet',
    testValue: 'any amount: the customer taps Cancel on the payment sheet',
  });

/** The sheet, then the clock, the page asking your server and the refund, as the outcome needs them. */
export function addSheetAndTail(run: FlowRun, page: InWalletPage, retrieveTitle: string): void {
  if (run.outcome.kind === 'rejected') return;
  addSheetStep(run, page);
  addWalletTail(run, {merchant: page.merchant, device: page.page.device, address: page.page.address ?? '', retrieveTitle});
}
