import useDocusaurusContext from '@docusaurus/useDocusaurusContext';
import {brand} from '@site/src/brand';

/** The hosted sandbox's origin this build was given (docusaurus.config.ts, SANDBOX_HOSTED_ORIGIN), else the brand's host. */
export function useHostedSandboxOrigin(): string {
  const {siteConfig} = useDocusaurusContext();
  return String(siteConfig.customFields?.['hostedSandboxOrigin'] ?? `https://${brand.hosts.sandboxApi}`);
}
