import type {ReactNode} from 'react';
import Link from '@docusaurus/Link';
import Heading from '@theme/Heading';
import styles from './styles.module.css';

interface Journey {
  readonly title: string;
  readonly to: string;
  readonly summary: string;
}

/** The main journeys of a merchant integration, in the order most build them. */
export const journeys: readonly Journey[] = [
  {
    title: 'Accept payments',
    to: '/docs/online-payment-integration/overview',
    summary: 'Hosted or embedded checkout, in-app SDKs, QR codes, wallets and cash, all from one Create order call.',
  },
  {
    title: 'Manage orders and refunds',
    to: '/docs/retrieveorderdetail',
    summary: 'Look up, cancel, revoke and refund orders, and react to refund and chargeback notifications.',
  },
  {
    title: 'Pay out and transfer',
    to: '/docs/transfer/transfer',
    summary: 'Send money from your balance to wallets, bank accounts and bank cards, with quotes for cross-currency payouts.',
  },
  {
    title: 'Reconcile',
    to: '/docs/reconciliation/statement-download',
    summary: 'Download the daily statement, verify it and match every line against your own records.',
  },
  {
    title: 'Use an SDK',
    to: '/docs/sdks/online-JAVA',
    summary: 'Java and PHP server libraries that sign and verify for you, plus Android and iOS in-app SDKs.',
  },
  {
    title: 'Try the demos',
    to: '/demos/overview',
    summary: 'Walk through each checkout as your customer sees it, with the sandbox accounts to try it yourself.',
  },
];

export default function JourneyCards(): ReactNode {
  return (
    <ul className={styles.grid}>
      {journeys.map((journey) => (
        <li key={journey.to} className={styles.card}>
          <Heading as="h3" className={styles.title}>
            <Link to={journey.to}>{journey.title}</Link>
          </Heading>
          <p>{journey.summary}</p>
        </li>
      ))}
    </ul>
  );
}
