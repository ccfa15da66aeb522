/**
 * JSAPI: the shop's page runs inside the wallet app. On opening, it gets a one-time auth code from the
 * bridge, which your server exchanges for the wallet user ID; paying creates a JSAPI order for that ID and
 * opens the wallet's sheet with requestPayment(); the page asks your server before it confirms.
 */
import {formatUsd, type FlowDefinition} from '../flow';
import {addSheetAndTail, inWalletOutcomes, openInWallet, openSheet, pageScreen, type InWalletPage} from './inWallet';

const page: InWalletPage = {
  merchant: 'Juniper Outdoor',
  subject: 'Head torch',
  page: {device: 'phone', title: 'Juniper Outdoor (in Veloxa Pay)', address: 'shop.example.com/wallet/shop'},
};

export const jsapi: FlowDefinition = {
  id: 'jsapi',
  title: 'JSAPI',
  device: 'phone',
  deviceLabel: 'The shop’s page in the customer’s wallet app',
  baseAmount: 2400,
  outcomes: inWalletOutcomes,
  firstScreen: () =>
    pageScreen(
      page,
      'opening',
      [{kind: 'text', text: 'The customer opens Juniper Outdoor from the wallet’s service menu.'}],
      'Open the shop',
    ),
  plan: (run) => {
    run.add('The page opens in the wallet; your server exchanges the bridge’s auth code for the wallet user ID', 'server', async () => {
      await openInWallet(run);
      run.show(
        pageScreen(
          page,
          'basket',
          [{kind: 'summary', merchant: 'Your basket', subject: page.subject, amount: run.amount}],
          `Pay ${formatUsd(run.amount)}`,
        ),
      );
    });
    run.add(`The customer taps Pay; your server creates a JSAPI order for the user ID in the session`, 'server', async () => {
      await openSheet(run, page);
    });
    addSheetAndTail(run, page, 'The page asks your server, which retrieves the order');
  },
};
