/**
 * The provider's identity, in one place. The provider is fictional: an adopter
 * renames it, swaps the logo and points the hosts at their own domains here and
 * nowhere else. Every hostname uses the reserved example.com domain (RFC 2606).
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
  };
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
  },
  copyrightYear: 2025,
  supportEmail: 'developer-support@example.com',
};
