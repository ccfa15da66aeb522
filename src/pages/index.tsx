import type {ReactNode} from 'react';
import Link from '@docusaurus/Link';
import Layout from '@theme/Layout';
import Heading from '@theme/Heading';
import JourneyCards from '@site/src/components/JourneyCards';
import {brand} from '@site/src/brand';
import styles from './index.module.css';

export default function Home(): ReactNode {
  return (
    <Layout
      title={`${brand.name} developer portal`}
      description={`Guides, API reference, SDKs and demos for integrating ${brand.name}: online payments, orders, refunds, transfers, balance and reconciliation.`}>
      <header className={styles.hero}>
        <div className="container">
          <Heading as="h1" className={styles.heroTitle}>
            {brand.name} developer portal
          </Heading>
          <p className={styles.heroTagline}>
            Build checkout, refunds, payouts and reconciliation on one signed JSON API. Start in the sandbox in minutes; go
            live when your integration passes the test cases.
          </p>
          <div className={styles.heroActions}>
            <Link className="button button--primary button--lg" to="/docs/integration-guide">
              Read the integration guide
            </Link>
            <Link className="button button--secondary button--lg" to="/demos/overview">
              See the demos
            </Link>
          </div>
        </div>
      </header>
      <main className="container margin-vert--lg">
        <Heading as="h2">What do you want to build?</Heading>
        <JourneyCards />
      </main>
    </Layout>
  );
}
