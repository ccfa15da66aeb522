/** Iframe pay page: the cashier in a frame on the shop's checkout page, with the messages the frame posts to the page. */
import {cartCheckoutFlow, merchant} from './cardCheckout';
import {shopOrigin} from './checkout';

export const iframe = cartCheckoutFlow({
  id: 'iframe',
  title: 'Iframe pay page',
  options: {framed: true, device: 'desktop', subject: 'Two-person tent'},
  page: {title: `${merchant}: checkout`, address: 'shop.example.com/checkout'},
  action: () => 'Go to payment',
  createTitle: () => 'The checkout page opens; your server creates the order for the frame',
  scene: () => ({scene: 'IFRAME_PAYPAGE', parentOrigin: shopOrigin}),
});
