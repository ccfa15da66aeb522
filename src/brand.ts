/**
 * The provider's identity, in one place. The provider is fictional: an adopter
 * renames it, swaps the logo and points the hosts at their own domains here.
 * Every hostname uses the reserved example.com domain (RFC 2606).
 *
 * The code reads hosts and the sandbox client ID from here only (the site
 * config, the code samples, the Postman collection, the home page snippet, the
 * stub API). The contract (api/openapi.yaml) and the Markdown prose cannot
 * import TypeScript and name them as text: tests/unit/hosts.test.ts fails,
 * naming the file, wherever they differ from this module.
 *
 * Pure data: imported by docusaurus.config.ts (Node) and by components (browser).
 */
export interface Brand {
  /** Provider name as readers see it. */
  readonly name: string;
  /** Legal name used in the copyright line. */
  readonly legalName: string;
  readonly tagline: string;
  /** Logo paths under static/. */
  readonly logo: {readonly light: string; readonly dark: string; readonly alt: string};
  readonly favicon: string;
  readonly hosts: {
    /** Where this portal is published. */
    readonly portal: string;
    /** Payment API, test environment: no real money moves. */
    readonly sandboxApi: string;
    /** Payment API, live environment. */
    readonly productionApi: string;
    /** Hosted pay page (cashier), test and live. */
    readonly sandboxCashier: string;
    readonly productionCashier: string;
    /** Merchant dashboard where keys and settings are managed. */
    readonly dashboard: string;
    /** Example merchant site used in samples (the reader's own server). */
    readonly merchant: string;
    /** Where statement files are downloaded from (the contract's downloadUrl examples). */
    readonly statementFiles: string;
    /** Maven repository of the Android SDK. */
    readonly mavenRepository: string;
    /** Git host of the iOS SDK's Swift package. */
    readonly sourceRepository: string;
  };
  /** Client ID of the shared sandbox merchant that the samples, demos and Postman collection use. */
  readonly sandboxClientId: string;
  /** First year of the copyright line. */
  readonly copyrightYear: number;
  readonly supportEmail: string;
}

export const brand: Brand = {
  name: 'Veloxa Pay',
  legalName: 'Veloxa Payments Ltd.',
  tagline: 'Accept payments, pay out and reconcile with one API.',
  logo: {light: 'img/logo.svg', dark: 'img/logo-dark.svg', alt: 'Veloxa Pay logo'},
  favicon: 'img/favicon.svg',
  hosts: {
    portal: 'developers.example.com',
    sandboxApi: 'sandbox-api.example.com',
    productionApi: 'api.example.com',
    sandboxCashier: 'sandbox-cashier.example.com',
    productionCashier: 'cashier.example.com',
    dashboard: 'merchant.example.com',
    merchant: 'shop.example.com',
    statementFiles: 'files.example.com',
    mavenRepository: 'maven.example.com',
    sourceRepository: 'git.example.com',
  },
  sandboxClientId: 'sandbox-merchant-0001',
  copyrightYear: 2025,
  supportEmail: 'developer-support@example.com',
};
