/** Iframe pay page: the cashier in a frame on the shop's checkout page, with the messages the frame posts to the page. */
import type {FlowDefinition} from '../flow';
import {addCashierSteps, addReturnSteps, cardOutcomes, merchant, openCashier, type CashierOptions} from './cardCheckout';
import {shopOrigin} from './checkout';

const options: CashierOptions = {framed: true, device: 'desktop', subject: 'Two-person tent'};

export const iframe: FlowDefinition = {
  id: 'iframe',
  title: 'Iframe pay page',
  device: options.device,
  deviceLabel: 'The customer’s browser',
  baseAmount: 4200,
  outcomes: cardOutcomes,
  firstScreen: (run) => ({
    name: 'cart',
    device: options.device,
    title: `${merchant}: checkout`,
    address: 'shop.example.com/checkout',
    blocks: [{kind: 'summary', merchant, subject: options.subject, amount: run.amount}],
    action: 'Go to payment',
  }),
  plan: (run) => {
    run.add('The checkout page opens; your server creates the order for the frame', 'server', async () => {
      await openCashier(run, options, {scene: 'IFRAME_PAYPAGE', parentOrigin: shopOrigin});
    });
    if (run.outcome.kind === 'rejected') return;
    addCashierSteps(run, options);
    addReturnSteps(run, options);
  },
};
