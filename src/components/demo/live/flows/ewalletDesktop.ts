/**
 * E-wallet on a desktop browser, the contract's other path for the scene: Create order with terminalType WEB
 * answers a REDIRECT to the cashier, whose page shows a code for the wallet app; the customer scans it with the
 * phone and confirms with the PIN there, and the cashier sends the browser to the return URL, whose page asks
 * your server. The code drawn here holds this order's cashier URL (the contract leaves the cashier's own code
 * to the cashier).
 */
import {formatUsd, type FlowDefinition} from '../flow';
import type {Screen} from '../screen';
import {createOrder, shopOrigin, withOrder} from './checkout';
import {merchant, subject} from './ewallet';
import {addWalletTail, cancelInWallet, confirmedBlocks, payInWallet, walletOutcomes, walletScreen} from './walletCheckout';

const checkout = {device: 'desktop', title: `${merchant}: checkout`, address: 'shop.example.com/checkout'} as const;

const cashierScreen = (name: string, address: string, blocks: Screen['blocks'], action?: string): Screen => ({
  name,
  device: 'desktop',
  title: 'Veloxa Pay cashier',
  address,
  blocks,
  ...(action ? {action} : {}),
});

export const ewalletDesktop: FlowDefinition = {
  id: 'ewallet-desktop',
  title: 'E-wallet on a desktop',
  device: 'desktop',
  deviceLabel: 'The customer’s computer and phone',
  baseAmount: 1800,
  outcomes: (data) =>
    walletOutcomes(data, {label: 'The customer closes the cashier', testValue: 'any amount: nobody scans, and the customer leaves'}),
  firstScreen: (run) => ({
    name: 'checkout',
    ...checkout,
    blocks: [
      {kind: 'summary', merchant, subject, amount: run.amount},
      {kind: 'text', text: 'Payment method: Veloxa Pay wallet (scan a code with the wallet app).'},
    ],
    action: 'Pay with Veloxa Pay',
  }),
  plan: (run) => {
    run.add('The customer picks the wallet; your server creates an EWALLET order for a desktop browser (WEB)', 'server', async () => {
      const scene = {scene: 'EWALLET', terminalType: 'WEB', returnUrl: `${shopOrigin}/orders/${run.currentOrderNo}`};
      const order = await createOrder(run, scene, subject, checkout);
      if (!order) return;
      const cashierUrl = String(order.nextAction?.['cashierUrl'] ?? '');
      run.message('Page → browser', 'window.location = cashierUrl', {type: String(order.nextAction?.['type'] ?? ''), cashierUrl});
      const address = cashierUrl.replace(/^https:\/\//, '').replace(/\?.*$/, '');
      run.show(
        cashierScreen(
          'cashier',
          address,
          [
            {kind: 'summary', merchant, subject, amount: run.amount},
            {
              kind: 'qr',
              content: cashierUrl,
              label: `Code to pay order ${run.currentOrderNo}, ${formatUsd(run.amount)}, with the wallet app`,
            },
            {kind: 'text', text: 'Open the Veloxa Pay app, tap Scan and point your phone at this code.'},
          ],
          run.outcome.kind === 'abandon' ? 'Close the cashier' : 'Scan with the phone',
        ),
      );
    });
    if (run.outcome.kind === 'rejected') return;
    if (run.outcome.kind === 'abandon')
      run.add(
        'The customer closes the cashier without scanning',
        'shopper',
        withOrder(run, async () => {
          await cancelInWallet(run, 'The customer leaves the cashier; nobody scans the code.');
        }),
      );
    else {
      run.add(
        'The customer scans the code with the phone; the wallet app shows the order',
        'shopper',
        withOrder(run, async () => {
          run.note(
            'shopper',
            `The wallet ${run.outcome.wallet?.phone ?? ''} scans the cashier’s code and loads the order from Veloxa Pay.`,
          );
          run.show(
            walletScreen(
              'wallet',
              [
                {kind: 'summary', merchant, subject, amount: run.amount},
                {kind: 'text', text: `Pay from the wallet ${run.outcome.wallet?.phone ?? ''}. PIN ${run.outcome.wallet?.pin ?? ''}.`},
              ],
              `Pay ${formatUsd(run.amount)}`,
            ),
          );
        }),
      );
      run.add(
        `The customer confirms ${formatUsd(run.amount)} on the phone with the PIN`,
        'shopper',
        withOrder(run, async () => {
          await payInWallet(run);
          run.show(walletScreen('wallet-result', confirmedBlocks(run, merchant)));
        }),
      );
    }
    addWalletTail(run, {
      merchant,
      device: 'desktop',
      address: `shop.example.com/orders/${run.currentOrderNo}`,
      retrieveTitle: 'The cashier sends the browser to your return URL; the page asks your server, which retrieves the order',
    });
  },
};
