/** Hosted pay page: the customer presses Pay on the shop's cart, is redirected to the cashier and comes back to the return page. */
import {formatUsd} from '../flow';
import {cartCheckoutFlow, merchant} from './cardCheckout';
import {shopOrigin} from './checkout';

export const hosted = cartCheckoutFlow({
  id: 'hosted',
  title: 'Hosted pay page',
  options: {framed: false, device: 'desktop', subject: 'Trail backpack, 28 l, with shipping'},
  page: {title: `${merchant}: cart`, address: 'shop.example.com/cart'},
  action: (amount) => `Pay ${formatUsd(amount)}`,
  createTitle: (amount) => `The customer presses Pay ${formatUsd(amount)}; your server creates the order`,
  scene: (run) => ({scene: 'HOSTED_PAYPAGE', returnUrl: `${shopOrigin}/orders/${run.currentOrderNo}`}),
});
