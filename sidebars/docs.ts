import type {SidebarsConfig} from '@docusaurus/plugin-content-docs';

/**
 * The docs sidebar reads as a learning path: start, take payments, manage the
 * orders that result, pay money out, reconcile, then the SDKs that wrap it all.
 * Every doc appears exactly once (a unit test checks it against the route contract).
 */
const sidebars = {
  docs: [
    {
      type: 'category',
      label: 'Getting started',
      collapsed: false,
      items: [
        'general/integration-guide',
        'general/test-accounts',
        'local-sandbox',
        'hosted-sandbox',
        'hosted-sandbox-operations',
        'mcp-server',
        'signature-debugger',
        'sandbox-console',
        'response-code',
        'idempotency',
        'rate-limits',
        {
          type: 'category',
          label: 'Events',
          items: ['events/list-events', 'events/redeliver-event'],
        },
        'api-evolution',
        'api-changelog',
      ],
    },
    {
      type: 'category',
      label: 'Accept payments',
      collapsed: false,
      items: [
        'online-payment-integration/overview',
        {
          type: 'category',
          label: 'Checkout',
          items: [
            'online-payment-integration/checkout/hosted-paypage',
            'online-payment-integration/checkout/iframe-paypage',
            'online-payment-integration/checkout/inapp-sdk-android',
            'online-payment-integration/checkout/inapp-sdk-ios',
          ],
        },
        {
          type: 'category',
          label: 'Special payment scenes',
          items: [
            'online-payment-integration/special-payment-scenes/ewallet',
            'online-payment-integration/special-payment-scenes/jsapi',
            'wallet-auth/exchange-auth-code',
            'online-payment-integration/special-payment-scenes/dynrq',
            'online-payment-integration/special-payment-scenes/qrpay',
            'online-payment-integration/special-payment-scenes/direct-pay',
            {
              type: 'category',
              label: 'Direct pay agreements',
              items: [
                'agreements/create-agreement',
                'agreements/query-agreement',
                'agreements/cancel-agreement',
                'agreements/agreement-notification',
              ],
            },
            'online-payment-integration/special-payment-scenes/cash-top-up',
          ],
        },
        {
          type: 'category',
          label: 'Payment API',
          items: ['createorder', 'payment/get-cashier-url', 'payment/adjust-order-expiry-time', 'payment/payment-result-notification'],
        },
        'online-payment-integration/best-practice',
        'online-payment-integration/test-case',
      ],
    },
    {
      type: 'category',
      label: 'Manage orders and refunds',
      items: [
        'queryorderpage',
        'retrieveorderdetail',
        'retrieveorderpayer',
        'cancel',
        'revoke',
        'refund',
        'refund/order-refund-query',
        'refund/query-refund-order-page',
        'refund/refund-result-notification',
        'payment/chargeback-notif',
      ],
    },
    {
      type: 'category',
      label: 'Payouts and transfers',
      items: [
        'member/get-balance',
        {
          type: 'category',
          label: 'Transfer to wallet',
          items: ['transfer/transfer', 'transfer/transfer-query', 'transfer/list-transfers', 'transfer/transfer-notification'],
        },
        {
          type: 'category',
          label: 'Transfer to bank',
          items: [
            'transfer-to-bank/list-countries-and-currencies',
            'transfer-to-bank/rate-calculator',
            'transfer-to-bank/get-iban-holder-name',
            'transfer-to-bank/transfer-to-bank',
            'transfer-to-bank/transfer-to-bank-query',
            'transfer-to-bank/list-bank-transfers',
            'transfer-to-bank/transfer-to-bank-notification',
          ],
        },
        {
          type: 'category',
          label: 'Transfer to bank card',
          items: [
            'transfer-to-bank-card/verify-card-payout-eligibility',
            'transfer-to-bank-card/transfer-to-bank-card',
            'transfer-to-bank-card/query-bank-card-transfer',
            'transfer-to-bank-card/list-card-payouts',
            'transfer-to-bank-card/bank-card-transfer-notif',
          ],
        },
        {
          type: 'category',
          label: 'VAM top-up',
          items: ['vam-top-up/async_notif_vam_topup'],
        },
      ],
    },
    {
      type: 'category',
      label: 'Reconciliation',
      items: ['reconciliation/statement-download', 'reconciliation/statement-parameters'],
    },
    {
      type: 'category',
      label: 'SDKs',
      items: ['sdks/online-JAVA', 'sdks/online-php', 'sdks/inapp'],
    },
  ],
} satisfies SidebarsConfig;

export default sidebars;
