/** Hosted pay page: the customer presses Pay on the shop's cart, is redirected to the cashier and comes back to the return page. */
import {formatUsd, type FlowDefinition} from '../flow';
import {addCashierSteps, addReturnSteps, cardOutcomes, merchant, openCashier, type CashierOptions} from './cardCheckout';
import {shopOrigin} from './checkout';

const options: CashierOptions = {framed: false, device: 'desktop', subject: 'Trail backpack, 28 l, with shipping'};

export const hosted: FlowDefinition = {
  id: 'hosted',
  title: 'Hosted pay page',
  device: options.device,
  deviceLabel: 'The customer’s browser',
  baseAmount: 4200,
  outcomes: cardOutcomes,
  firstScreen: (run) => ({
    name: 'cart',
    device: options.device,
    title: `${merchant}: cart`,
    address: 'shop.example.com/cart',
    blocks: [{kind: 'summary', merchant, subject: options.subject, amount: run.amount}],
    action: `Pay ${formatUsd(run.amount)}`,
  }),
  plan: (run) => {
    run.add(`The customer presses Pay ${formatUsd(run.amount)}; your server creates the order`, 'server', async () => {
      await openCashier(run, options, {scene: 'HOSTED_PAYPAGE', returnUrl: `${shopOrigin}/orders/${run.currentOrderNo}`});
    });
    if (run.outcome.kind === 'rejected') return;
    addCashierSteps(run, options);
    addReturnSteps(run, options);
  },
};
