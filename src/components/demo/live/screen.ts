/**
 * What the shopper's device shows, as data: a flow module builds screens from these blocks and the panel
 * draws any of them (ShopperScreen.tsx), so a new flow needs no new drawing code.
 */

import type {CurrencyCode} from '@site/src/lib/money';

export type ScreenTone = 'success' | 'error' | 'pending' | 'warning' | 'info';

export type Block =
  /** Merchant, subject and total, as a checkout shows them. */
  | {
      readonly kind: 'summary';
      readonly merchant: string;
      readonly subject?: string;
      readonly amount: number;
      readonly currency?: CurrencyCode;
    }
  | {readonly kind: 'text'; readonly text: string}
  /** A value the reader may want to copy: a cashier URL, a deep link, a payment reference. */
  | {readonly kind: 'value'; readonly label: string; readonly value: string}
  | {readonly kind: 'status'; readonly tone: ScreenTone; readonly title: string; readonly text: string}
  /** A real QR code of `content` (drawn with the demo chunk's QR library). */
  | {readonly kind: 'qr'; readonly content: string; readonly label: string}
  /** A framed part of the screen: the cashier's iframe, the wallet's payment sheet. */
  | {readonly kind: 'panel'; readonly variant: 'frame' | 'sheet'; readonly label: string; readonly blocks: readonly Block[]}
  /** The amount the customer types (a flow with amountEntry); the action button submits it. */
  | {readonly kind: 'amount-entry'; readonly label: string};

export interface Screen {
  /** What the screen is (cart, cashier, wallet, ...): for tests and the page's data attribute. */
  readonly name: string;
  readonly device: 'desktop' | 'phone' | 'terminal';
  readonly title: string;
  readonly address?: string;
  readonly blocks: readonly Block[];
  /** The label of the button on the device that runs the next step; none when the customer has nothing to press. */
  readonly action?: string;
}
