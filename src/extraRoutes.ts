/**
 * Pages the portal publishes beyond the route contract (spec/routes.json), each with
 * the reason it exists. The contract lists what the product spec requires; this list holds what
 * the portal adds. The tests read both lists as one: every page here must have exactly one source
 * file and a place in its sidebar (tests/unit/contentTree.test.ts), and answer 200 with its own
 * title, pass axe and fit a phone (tests/e2e/routes.spec.ts, through allPages in
 * tests/support/routeContract.ts). A source file that publishes a URL in neither list fails the
 * stray-page test.
 *
 * To add a page: add its URL (what src/contract/node/docRoutes.ts derives from the file path) to its section
 * with a one-line reason. When the route contract starts listing a page, delete it here: a unit
 * test fails while a URL is in both lists.
 *
 * Pure data: read by the tests.
 */
export interface ExtraRoute {
  /** URL path, as src/contract/node/docRoutes.ts derives it from the source file (no trailing slash). */
  readonly path: string;
  /** Why the page exists, in one line. */
  readonly reason: string;
}

/** Extra pages per section of the route contract, in sidebar order within each section. */
export const extraRoutes = {
  docs: [
    {
      path: '/docs/local-sandbox',
      reason:
        'The sandbox as a local server, downloaded as one Node.js file (/downloads/veloxa-sandbox.mjs): starting it, pointing a backend and CI at it, its control endpoints.',
    },
    {
      path: '/docs/hosted-sandbox',
      reason:
        "The hosted sandbox (issue 33): a merchant of the reader's own made in the browser, the signed test tools, and the published limits and retention.",
    },
    {
      path: '/docs/hosted-sandbox-operations',
      reason:
        'How the provider runs the hosted sandbox (issue 33): instances of the local server on one PostgreSQL database behind nginx, migrations, health, shutdown, logs, failures and the measured figures.',
    },
    {
      path: '/docs/mcp-server',
      reason:
        'The MCP server (issue 22), downloaded as one Node.js file (/downloads/veloxa-mcp.mjs): docs, contract and an in-process sandbox as tools for AI assistants, how to connect common MCP clients, and the Inspector CLI one call at a time with --data.',
    },
    {
      path: '/docs/signature-debugger',
      reason:
        'Signature debugger (issue 21): the canonical string, verification and the likely cause of a mismatch for a pasted message, in the browser; a key pair generator.',
    },
    {
      path: '/docs/sandbox-console',
      reason:
        'Sandbox console: the in-browser sandbox at a glance (objects, balances, ledger, notification inbox checked, clock), with reset, export and import of its state.',
    },
    {
      path: '/docs/api-evolution',
      reason: 'Versioning and deprecation policy of the API: what can change without notice and what a client must tolerate.',
    },
    {
      path: '/docs/api-changelog',
      reason: 'Every change to the API contract by version, from api/changelog.yaml; also published as an Atom feed.',
    },
    {
      path: '/docs/idempotency',
      reason: 'The idempotency rules of every write (x-idempotency): namespaces, body comparison, replays, the Revoke tombstone.',
    },
    {
      path: '/docs/rate-limits',
      reason: 'Rate limits per operation class (x-rate-limits), their headers, and the timeouts a client should use.',
    },
    {path: '/docs/events/list-events', reason: 'API page of List events (listEvents), the recovery path for missed notifications.'},
    {path: '/docs/events/redeliver-event', reason: 'API page of Redeliver event (redeliverEvent).'},
    {path: '/docs/transfer/list-transfers', reason: 'API page of List transfers (listTransfers).'},
    {path: '/docs/transfer-to-bank/list-bank-transfers', reason: 'API page of List bank transfers (listBankTransfers).'},
    {path: '/docs/transfer-to-bank-card/list-card-payouts', reason: 'API page of List card payouts (listCardPayouts).'},
    {path: '/docs/agreements/create-agreement', reason: 'API page of Create agreement (createAgreement), the start of direct pay.'},
    {path: '/docs/agreements/query-agreement', reason: 'API page of Query agreement (queryAgreement).'},
    {path: '/docs/agreements/cancel-agreement', reason: 'API page of Cancel agreement (cancelAgreement).'},
    {path: '/docs/agreements/agreement-notification', reason: 'API page of the agreement notification (agreementNotification).'},
    {
      path: '/docs/wallet-auth/exchange-auth-code',
      reason: 'API page of Exchange wallet auth code (exchangeWalletAuthCode), used by JSAPI checkout.',
    },
  ],
  demos: [],
} as const satisfies Readonly<Record<string, readonly ExtraRoute[]>>;
