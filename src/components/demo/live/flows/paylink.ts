/**
 * Payment link: the merchant sends a link of its own by chat; opening it makes the server create the order
 * and send the customer to the cashier. Opened again, the link shows it was paid, reopens the cashier of an
 * unpaid order, or makes a new order once the first one closed.
 */
import {formatUsd, type FlowDefinition, type FlowRun} from '../flow';
import {createOrder, retrieve, shopOrigin, withOrder} from './checkout';
import {addCashierSteps, addReturnSteps, cardOutcomes, openCashier, showCashier, type CashierOptions} from './cardCheckout';

const options: CashierOptions = {framed: false, device: 'phone', subject: 'Deposit: made-to-measure tent'};
const linkOf = (run: FlowRun) => `shop.example.com/pay/PL-${run.suffix}`;
const scene = (merchantOrderNo: string) => ({scene: 'HOSTED_PAYPAGE', returnUrl: `${shopOrigin}/orders/${merchantOrderNo}`});

function addReopenStep(run: FlowRun): void {
  run.add(
    'The customer opens the same link again',
    'server',
    withOrder(run, async () => {
      run.note('shopper', `The customer taps ${linkOf(run)} again.`);
      const order = await retrieve(run);
      if (order.status === 'PAID')
        run.show({
          name: 'return',
          device: options.device,
          title: 'Juniper Outdoor: your order',
          address: linkOf(run),
          blocks: [
            {
              kind: 'status',
              tone: 'success',
              title: 'This link has been paid',
              text: `${formatUsd(run.amount)} for ${options.subject}. No second payment is taken.`,
            },
          ],
        });
      else if (order.status === 'CLOSED') {
        run.note('note', "The link's order is closed, but the link is still valid: your server creates a new order with the next number.");
        const next = `PL-${run.suffix}-2`;
        const created = await createOrder(run, scene(next), options.subject, options.device, next);
        if (created) showCashier(run, options, String(created.nextAction?.['cashierUrl'] ?? ''));
      } else if (order.status === 'PENDING') {
        const target = `/v1/orders/${encodeURIComponent(run.currentOrderNo)}/cashier-url`;
        const json = await run.call('getCashierUrl', 'Get cashier URL', 'POST', target, {});
        if (json.code !== 'SUCCESS') throw new Error(`Get cashier URL answered ${json.code}: ${json.message}`);
        showCashier(run, options, (json.data as {cashierUrl?: string} | undefined)?.cashierUrl ?? '');
      }
    }),
  );
}

export const paylink: FlowDefinition = {
  id: 'paylink',
  title: 'Payment link',
  device: options.device,
  deviceLabel: 'The customer’s phone',
  baseAmount: 6000,
  outcomes: cardOutcomes,
  orderNo: (suffix) => `PL-${suffix}-1`,
  firstScreen: (run) => ({
    name: 'chat',
    device: options.device,
    title: 'Messages',
    blocks: [
      {
        kind: 'text',
        text: `Juniper Outdoor: Hi Sam, here is the link for the ${formatUsd(run.amount)} deposit on your made-to-measure tent:`,
      },
      {kind: 'value', label: 'Link', value: linkOf(run)},
    ],
    action: 'Open the link',
  }),
  plan: (run) => {
    run.add('The customer opens the link; your server creates the order', 'server', async () => {
      run.note(
        'note',
        `You stored link PL-${run.suffix} for ${formatUsd(run.amount)} on your side and sent it by chat. No order exists yet.`,
      );
      run.note('shopper', `The customer taps ${linkOf(run)}.`);
      await openCashier(run, options, scene(run.merchantOrderNo));
    });
    if (run.outcome.kind === 'rejected') return;
    addCashierSteps(run, options);
    addReturnSteps(run, options, 'Open the link again');
    addReopenStep(run);
  },
};
