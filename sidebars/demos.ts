import type {SidebarsConfig} from '@docusaurus/plugin-content-docs';

/** Demos, grouped the way a merchant chooses a checkout. */
const sidebars = {
  demos: [
    'overview',
    {
      type: 'category',
      label: 'Online checkout',
      collapsed: false,
      items: ['hosted-paypage', 'iframe-paypage', 'paylink', 'invoice'],
    },
    {
      type: 'category',
      label: 'Wallet and QR',
      collapsed: false,
      items: ['ewallet', 'jsapi', 'dynqr', 'smart-code'],
    },
    {
      type: 'category',
      label: 'Cash',
      collapsed: false,
      items: ['cash-top-up'],
    },
    'testaccount',
  ],
} satisfies SidebarsConfig;

export default sidebars;
