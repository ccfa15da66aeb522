/**
 * Old or alternative URLs that must keep working, each landing on its
 * canonical page. Read by the client-redirects plugin in the config and by the
 * tests that check them against the route contract.
 */
export interface RouteAlias {
  readonly from: string;
  readonly to: string;
  /** Why the alias exists. */
  readonly reason: string;
}

export const routeAliases: readonly RouteAlias[] = [
  {from: '/docs', to: '/docs/integration-guide', reason: 'The docs root opens the main doc.'},
  {from: '/demos', to: '/demos/overview', reason: 'The demos root opens the demo overview.'},
  {from: '/demos/invoice-b2b', to: '/demos/invoice', reason: 'Earlier name of the B2B invoice demo.'},
  {from: '/docs/A_SDKs/inapp', to: '/docs/sdks/inapp', reason: 'SDK pages used to live under A_SDKs.'},
  {from: '/docs/A_SDKs/online-JAVA', to: '/docs/sdks/online-JAVA', reason: 'SDK pages used to live under A_SDKs.'},
  {from: '/docs/A_SDKs/online-php', to: '/docs/sdks/online-php', reason: 'SDK pages used to live under A_SDKs.'},
  {
    from: '/docs/online-payment-integration/special-payment-scenes/dynqr',
    to: '/docs/online-payment-integration/special-payment-scenes/dynrq',
    reason: 'The dynamic QR scene is also spelled dynqr, as on its demo page.',
  },
];
