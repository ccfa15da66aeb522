/**
 * Every checkout flow the demos show, once: what the overview compares side by side (who redirects, who asks
 * for the result, who waits for the notification, the shopper's device, the event that ends it) and where its
 * demo page is. The overview (DemoOverview) and the test accounts page (SandboxTestValues) read it; the unit
 * test tests/unit/demoFlows.test.ts holds each entry to the sidebar, the contract's scenes and events.
 * Pure data: no React.
 */

export interface DemoFlow {
  /** The demo page's id in demos/ (its URL is /demos/<id>). */
  readonly id: string;
  readonly title: string;
  /** The scene of Create order, as the contract names it. */
  readonly scene: string;
  /** Where the shopper is while paying. */
  readonly device: string;
  /** Who sends the shopper where: a redirect, a frame, an app switch, or nobody. */
  readonly redirects: string;
  /** Who asks for the result before the notification arrives. */
  readonly polls: string;
  /** What waits for the payment result notification, and what it does then. */
  readonly waits: string;
  /** The notification event types that end the flow (success first). */
  readonly endsWith: readonly string[];
  /** The live demo's flow id, when the page runs the flow on the sandbox (?demo=<flow>). */
  readonly live?: string;
}

export const demoFlows: readonly DemoFlow[] = [
  {
    id: 'hosted-paypage',
    title: 'Hosted pay page',
    scene: 'HOSTED_PAYPAGE',
    device: 'Desktop or phone browser',
    redirects: 'Your shop redirects to the cashier; the cashier redirects back to your return URL.',
    polls: 'Your return page asks your server, which retrieves the order.',
    waits: 'Your server: it fulfils on the notification.',
    endsWith: ['ORDER.PAID', 'ORDER.CLOSED'],
    live: 'hosted',
  },
  {
    id: 'iframe-paypage',
    title: 'Iframe pay page',
    scene: 'IFRAME_PAYPAGE',
    device: 'Desktop or phone browser, the cashier in a frame',
    redirects: 'Nobody: the cashier runs in a frame and posts messages to your page.',
    polls: 'Your page asks your server after the frame says the payment ended.',
    waits: 'Your server: the frame messages only drive the screen.',
    endsWith: ['ORDER.PAID', 'ORDER.CLOSED'],
    live: 'iframe',
  },
  {
    id: 'paylink',
    title: 'Payment link',
    scene: 'HOSTED_PAYPAGE',
    device: 'Phone, from a chat or an email',
    redirects: 'Your link page creates the order and redirects to the cashier.',
    polls: 'Your link page retrieves the order each time the link is opened.',
    waits: 'Your server: it marks the link paid.',
    endsWith: ['ORDER.PAID', 'ORDER.CLOSED'],
    live: 'paylink',
  },
  {
    id: 'invoice',
    title: 'B2B invoice',
    scene: 'HOSTED_PAYPAGE',
    device: "The buyer's desktop, or their bank",
    redirects: 'The invoice page redirects to the cashier; a bank transfer needs no redirect.',
    polls: 'Nobody: a bank transfer can take days.',
    waits: 'Your server: it matches the payment or the top-up to the invoice.',
    endsWith: ['ORDER.PAID', 'VAM.TOP_UP'],
    live: 'invoice',
  },
  {
    id: 'ewallet',
    title: 'E-wallet',
    scene: 'EWALLET',
    device: 'Phone browser and the wallet app, or a desktop showing a code',
    redirects: 'Your shop redirects to the cashier, which switches to the wallet app and back.',
    polls: 'Your return page asks your server, which retrieves the order.',
    waits: 'Your server: it fulfils on the notification, never on the return page.',
    endsWith: ['ORDER.PAID', 'ORDER.CLOSED'],
    live: 'ewallet',
  },
  {
    id: 'jsapi',
    title: 'JSAPI',
    scene: 'JSAPI',
    device: 'Your page inside the wallet app',
    redirects: 'Nobody: your page calls the wallet bridge to pay.',
    polls: 'Your page asks your server after the bridge callback.',
    waits: 'Your server: the bridge callback only updates the screen.',
    endsWith: ['ORDER.PAID', 'ORDER.PAYMENT_FAILED'],
    live: 'jsapi',
  },
  {
    id: 'dynqr',
    title: 'Dynamic QR',
    scene: 'DYNAMIC_QR',
    device: 'Your screen shows a code; the customer scans it with the wallet app',
    redirects: 'Nobody: the code carries the order.',
    polls: 'Your screen asks your server until the order is paid or the code expires.',
    waits: 'Your server: it tells the screen the order is paid.',
    endsWith: ['ORDER.PAID', 'ORDER.CLOSED'],
    live: 'dynqr',
  },
  {
    id: 'smart-code',
    title: 'Smart code',
    scene: 'JSAPI',
    device: "The customer's phone, on your page opened from a static code",
    redirects: 'The static code opens your page; it pays through the wallet.',
    polls: 'Your staff screen asks your server for the newest payments.',
    waits: 'Your server: it feeds the confirmation and the staff screen.',
    endsWith: ['ORDER.PAID'],
    live: 'smart-code',
  },
  {
    id: 'cash-top-up',
    title: 'Cash top-up',
    scene: 'CASH_TOP_UP',
    device: 'A store counter, with a reference code',
    redirects: 'Nobody: the customer takes the reference to a store.',
    polls: 'Nobody: the payment can take a day.',
    waits: 'Your server: it credits the customer when the cash is confirmed.',
    endsWith: ['ORDER.PAID', 'ORDER.CLOSED'],
    live: 'cash',
  },
];

/** The URL of a demo page. */
export const demoPage = (flow: Pick<DemoFlow, 'id'>): string => `/demos/${flow.id}`;

/** The demo flow whose live demo has this id. */
export const demoOfLiveFlow = (live: string): DemoFlow | undefined => demoFlows.find((flow) => flow.live === live);

/** A replay link: the demo page, playing `outcome` of its live flow (with `amount` in minor units when given). */
export function replayLink(live: string, outcome: string, amount?: number): string | undefined {
  const flow = demoOfLiveFlow(live);
  if (!flow) return undefined;
  const amountPart = amount === undefined ? '' : `&amount=${amount}`;
  return `${demoPage(flow)}?demo=${encodeURIComponent(live)}&outcome=${encodeURIComponent(outcome)}${amountPart}#live-demo-${encodeURIComponent(live)}`;
}
