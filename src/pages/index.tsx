import type {ReactNode} from 'react';
import Link from '@docusaurus/Link';
import Layout from '@theme/Layout';
import Heading from '@theme/Heading';
import JourneyCards from '@site/src/components/home/JourneyCards';
import SandboxOrderDemo from '@site/src/components/home/SandboxOrderDemo';
import Button from '@site/src/components/ui/Button';
import {brand} from '@site/src/brand';
import styles from './index.module.css';

export default function Home(): ReactNode {
  return (
    <Layout
      title="Take payments, pay out and reconcile with one signed API"
      description={`Guides, API reference, SDKs and demos for integrating ${brand.name}: online payments, orders, refunds, transfers, balance and reconciliation.`}
    >
      <header className={styles.hero}>
        <div className={`container ${styles.heroInner}`}>
          <div className={styles.heroText}>
            <p className={styles.eyebrow}>{brand.name} developer portal</p>
            <Heading as="h1" className={styles.heroTitle}>
              Take payments, pay out and reconcile with one signed API
            </Heading>
            <p className={styles.heroTagline}>
              One Create order call serves every checkout, from hosted pay pages to wallets and cash; refunds, payouts and daily statements
              use the same keys and signatures.
            </p>
            <div className={styles.heroActions}>
              <Button variant="primary" size="lg" to="/docs/integration-guide" className={styles.heroPrimary}>
                Start integrating
              </Button>
              <Button variant="secondary" size="lg" to="/demos/overview" className={styles.heroSecondary}>
                See the demos
              </Button>
            </div>
            <p className={styles.heroNote}>
              The full first-order script, signing included, is in the{' '}
              <Link to="/docs/integration-guide#your-first-order">integration guide</Link>.
            </p>
          </div>
          <SandboxOrderDemo />
        </div>
      </header>
      <main className={`container ${styles.main}`}>
        <Heading as="h2" className={styles.sectionTitle}>
          What do you want to build?
        </Heading>
        <JourneyCards />
        <section className={styles.resources} aria-labelledby="resources-heading">
          <Heading as="h2" id="resources-heading">
            Everything you need to test
          </Heading>
          <ul className={styles.resourceList}>
            <li>
              <Link to="/docs/general/test-accounts">Sandbox test accounts</Link>: wallets, cards and amounts that trigger every outcome.
            </li>
            <li>
              <Link to="/docs/response-code">Response codes</Link>: every code, whether a retry helps and what to do.
            </li>
            <li>
              The API contract as <Link href="pathname:///openapi.yaml">OpenAPI YAML</Link> or{' '}
              <Link href="pathname:///openapi.json">JSON</Link>, and a{' '}
              <Link href="pathname:///veloxa-pay.postman_collection.json">Postman collection</Link>.
            </li>
          </ul>
        </section>
      </main>
    </Layout>
  );
}
