import {brand} from '../../brand';

/**
 * Environment variables every sample reads, with their sandbox defaults (the contract's sandbox host, brand's
 * sandbox merchant). The provider keys are one map for all languages: `version=file` pairs separated by commas,
 * e.g. "1=provider-test-public.pem,2=provider-2027-public.pem"; the sandbox signs with provider keyVersion 1,
 * whose public key is the published provider-test-public.pem.
 */
export const sampleEnvironment = {
  host: {name: 'VELOXA_API_HOST', default: `https://${brand.hosts.sandboxApi}`},
  clientId: {name: 'VELOXA_CLIENT_ID', default: brand.sandboxClientId},
  /** No default file: unset, a request sample signs with the shared test merchant's published key it embeds. */
  privateKey: {name: 'VELOXA_PRIVATE_KEY_PATH'},
  keyVersion: {name: 'VELOXA_KEY_VERSION', default: '1'},
  /**
   * Unset, a request sample trusts the published provider test key only while it signs as the shared test merchant;
   * a notification handler has no default at all: one deployed without it must not trust the published test key.
   */
  providerKeys: {name: 'VELOXA_PROVIDER_KEYS', sandboxValue: '1=provider-test-public.pem'},
  notifyUrl: {name: 'VELOXA_NOTIFY_URL', default: `https://${brand.hosts.merchant}/payments/notify`},
  /** SQLite database of the Python and PHP notification handlers. */
  notifyDatabase: {name: 'VELOXA_NOTIFY_DB', default: 'notifications.sqlite3'},
  notifyPort: {name: 'PORT', default: '8080'},
} as const;
