/**
 * Replaces (does not wrap) the theme's not-found content: the original text
 * tells readers to "contact the owner of the site", which is wrong here, and a
 * wrapper can only add around it, not change it. Keeps the theme's heading
 * text and classes so the page looks and reads like the rest of the site.
 */
import type {ReactNode} from 'react';
import clsx from 'clsx';
import Link from '@docusaurus/Link';
import Heading from '@theme/Heading';
import type {Props} from '@theme/NotFound/Content';
import styles from './styles.module.css';

const sections = [
  {to: '/docs/integration-guide', label: 'Integration guide', hint: 'environments, keys, signing and your first order'},
  {to: '/docs/online-payment-integration/overview', label: 'Accept payments', hint: 'checkout options and payment scenes'},
  {to: '/docs/response-code', label: 'Response codes', hint: 'what a code means and what to do'},
  {to: '/docs/transfer/transfer', label: 'Payouts and transfers', hint: 'wallets, bank accounts and cards'},
  {to: '/demos/overview', label: 'Demos', hint: 'every checkout from the customer’s side'},
  {to: '/blog', label: 'Blog', hint: 'release notes and integration patterns'},
];

export default function NotFoundContent({className}: Props): ReactNode {
  return (
    <main className={clsx('container margin-vert--xl', className)}>
      <div className="row">
        <div className="col col--8 col--offset-2">
          <Heading as="h1" className="hero__title">
            Page Not Found
          </Heading>
          <p>
            Nothing lives at this address. Pages sometimes move when the API changes; the sections below hold everything the
            portal documents, and the sidebar on any docs page lists every guide and API call.
          </p>
          <ul className={styles.sections}>
            {sections.map((section) => (
              <li key={section.to}>
                <Link to={section.to}>{section.label}</Link>: {section.hint}
              </li>
            ))}
          </ul>
          <p>
            Looking for a field or a response code? The <Link to="/docs/response-code">response code catalogue</Link> has a
            filter box, and each API page lists every field of its request and response.
          </p>
        </div>
      </div>
    </main>
  );
}
