/**
 * E-wallet on a phone: the shop's mobile checkout creates an EWALLET order for MOBILE_WEB, opens the deep
 * link of the answer, the wallet app shows the order and the customer confirms with the PIN; the wallet
 * switches back to the return URL, whose page asks your server.
 */
import {formatUsd, type FlowDefinition} from '../flow';
import {createOrder, shopOrigin, withOrder} from './checkout';
import {addWalletTail, cancelInWallet, confirmedBlocks, payInWallet, walletOutcomes, walletScreen} from './walletCheckout';

export const merchant = 'Juniper Outdoor';
export const subject = 'Steel water bottle';
const cancelled = {label: 'The customer cancels in the wallet', testValue: 'any amount: the customer presses Cancel in the wallet'};
const checkout = {device: 'phone', title: `${merchant}: checkout`, address: 'shop.example.com/checkout'} as const;

export const ewallet: FlowDefinition = {
  id: 'ewallet',
  title: 'E-wallet',
  device: 'phone',
  deviceLabel: 'The customer’s phone',
  baseAmount: 1800,
  outcomes: (data) => walletOutcomes(data, cancelled),
  firstScreen: (run) => ({
    name: 'checkout',
    ...checkout,
    blocks: [
      {kind: 'summary', merchant, subject, amount: run.amount},
      {kind: 'text', text: 'Payment method: Veloxa Pay wallet (opens the wallet app).'},
    ],
    action: 'Pay with Veloxa Pay',
  }),
  plan: (run) => {
    run.add('The customer picks the wallet; your server creates an EWALLET order for a phone browser', 'server', async () => {
      const scene = {scene: 'EWALLET', terminalType: 'MOBILE_WEB', returnUrl: `${shopOrigin}/orders/${run.currentOrderNo}`};
      const order = await createOrder(run, scene, subject, checkout);
      if (!order) return;
      const deepLink = String(order.nextAction?.['deepLink'] ?? '');
      run.message('Page → phone', 'window.location = deepLink', {deepLink, fallbackUrl: order.nextAction?.['fallbackUrl'] ?? ''});
      run.show(
        walletScreen(
          'wallet',
          [
            {kind: 'text', text: 'The phone switched to the wallet app by the deep link from the response.'},
            {kind: 'value', label: 'Deep link', value: deepLink},
            {kind: 'summary', merchant, subject, amount: run.amount},
            {kind: 'text', text: `Pay from the wallet ${run.outcome.wallet?.phone ?? ''}. PIN ${run.outcome.wallet?.pin ?? ''}.`},
          ],
          run.outcome.kind === 'abandon' ? 'Cancel' : `Pay ${formatUsd(run.amount)}`,
        ),
      );
    });
    if (run.outcome.kind === 'rejected') return;
    if (run.outcome.kind === 'abandon')
      run.add(
        'The customer cancels in the wallet, which switches back to your site',
        'shopper',
        withOrder(run, async () => {
          await cancelInWallet(run, 'The customer presses Cancel.');
        }),
      );
    else
      run.add(
        `The customer confirms ${formatUsd(run.amount)} in the wallet with the PIN`,
        'shopper',
        withOrder(run, async () => {
          await payInWallet(run);
          run.show(walletScreen('wallet-result', confirmedBlocks(run, merchant), 'Back to Juniper Outdoor'));
        }),
      );
    addWalletTail(run, {
      merchant,
      device: 'phone',
      address: `shop.example.com/orders/${run.currentOrderNo}`,
      retrieveTitle: 'The wallet switches back to your return URL; the page asks your server, which retrieves the order',
    });
  },
};
