import type {ReactNode} from 'react';
import Link from '@docusaurus/Link';
import Layout from '@theme/Layout';
import Heading from '@theme/Heading';
import JourneyCards from '@site/src/components/home/JourneyCards';
import QuickStart from '@site/src/components/home/QuickStart';
import {brand} from '@site/src/brand';
import styles from './index.module.css';

export default function Home(): ReactNode {
  return (
    <Layout
      title="Take payments, pay out and reconcile with one signed API"
      description={`Guides, API reference, SDKs and demos for integrating ${brand.name}: online payments, orders, refunds, transfers, balance and reconciliation.`}>
      <header className={styles.hero}>
        <div className={`container ${styles.heroInner}`}>
          <div className={styles.heroText}>
            <p className={styles.eyebrow}>{brand.name} developer portal</p>
            <Heading as="h1" className={styles.heroTitle}>
              Take payments, pay out and reconcile with one signed API
            </Heading>
            <p className={styles.heroTagline}>
              One Create order call serves hosted and embedded checkout, in-app SDKs, QR codes, wallets and cash. Refund,
              transfer to wallets, banks and cards, and match every movement against a daily statement.
            </p>
            <div className={styles.heroActions}>
              <Link className="button button--primary button--lg" to="/docs/integration-guide">
                Start integrating
              </Link>
              <Link className="button button--secondary button--lg" to="/demos/overview">
                See the demos
              </Link>
            </div>
          </div>
          <QuickStart />
        </div>
      </header>
      <main className="container margin-vert--xl">
        <Heading as="h2">What do you want to build?</Heading>
        <JourneyCards />
        <section className={styles.resources} aria-labelledby="resources-heading">
          <Heading as="h2" id="resources-heading">
            Everything you need to test
          </Heading>
          <ul className={styles.resourceList}>
            <li>
              <Link to="/docs/general/test-accounts">Sandbox test accounts</Link>: wallets, cards and amounts that trigger every
              outcome.
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
