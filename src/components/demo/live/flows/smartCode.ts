/**
 * Smart code: the merchant's static QR code on a counter sign holds the address of the merchant's own page.
 * Scanned in the wallet, the page opens inside it (auth code exchanged by your server), the customer types
 * the amount, and your server creates a JSAPI order for it; the amount's ending picks the sandbox outcome.
 */
import {formatUsd, type FlowDefinition} from '../flow';
import {shopOrigin, withOrder} from './checkout';
import {addSheetAndTail, inWalletOutcomes, openInWallet, openSheet, pageScreen, type InWalletPage} from './inWallet';

/** The sign's content: an address on the merchant's site, the same for every payment at this till. */
export const signAddress = `${shopOrigin}/pay/store-12`;

const page: InWalletPage = {
  merchant: 'Corner Bakery',
  subject: 'Corner Bakery, store 12',
  page: {device: 'phone', title: 'Corner Bakery', address: 'shop.example.com/pay/store-12'},
};

export const smartCode: FlowDefinition = {
  id: 'smart-code',
  title: 'Smart code',
  device: 'terminal',
  deviceLabel: 'The counter sign and the customer’s wallet',
  baseAmount: 800,
  amountEntry: true,
  outcomes: inWalletOutcomes,
  firstScreen: () => ({
    name: 'sign',
    device: 'terminal',
    title: 'Counter sign',
    blocks: [
      {kind: 'text', text: 'Corner Bakery'},
      {kind: 'qr', content: signAddress, label: 'Smart code of Corner Bakery, store 12'},
      {kind: 'text', text: 'Scan to pay with Veloxa Pay'},
    ],
    action: 'Scan the sign with the wallet',
  }),
  plan: (run) => {
    run.add('The customer scans the sign; the page opens in the wallet and your server exchanges its auth code', 'server', async () => {
      await openInWallet(run);
      run.show(
        pageScreen(
          page,
          'amount',
          [
            {kind: 'text', text: 'Paying Corner Bakery, store 12'},
            {kind: 'amount-entry', label: 'Amount (USD)'},
          ],
          'Continue',
        ),
      );
    });
    run.add(`The customer enters ${formatUsd(run.amount)}; your server creates a JSAPI order for it`, 'server', async () => {
      await openSheet(run, page);
    });
    addSheetAndTail(run, page, 'The page asks your server, which retrieves the order');
    if (run.outcome.kind === 'success' || run.outcome.kind === 'slow')
      run.add(
        'The staff screen at the till lists the payment from your database',
        'server',
        withOrder(run, async () => {
          run.note('note', `Your server stored ORDER.PAID for ${run.currentOrderNo} with the store; the till's screen lists it.`);
          run.show({
            name: 'staff',
            device: 'terminal',
            title: 'Store 12 payments',
            blocks: [{kind: 'status', tone: 'success', title: `Received ${formatUsd(run.amount)}`, text: `Receipt ${run.currentOrderNo}.`}],
          });
        }),
      );
  },
};
