/**
 * Copyright (c) Facebook, Inc. and its affiliates.
 *
 * This source code is licensed under the MIT license found in the
 * LICENSE file in the root directory of this source tree.
 */

import React, {type ReactNode} from 'react';
import clsx from 'clsx';
import Translate from '@docusaurus/Translate';
import type {Props} from '@theme/NotFound/Content';
import Heading from '@theme/Heading';
// BEGIN portal change: the page points to the portal's main sections
import Link from '@docusaurus/Link';
import {NearPages, NotFoundSearch} from './NotFoundHelp';
import styles from './styles.module.css';

const sections = [
  {
    to: '/docs/integration-guide',
    label: 'Integration guide',
    hint: 'environments, keys, signing and your first order',
  },
  {
    to: '/docs/online-payment-integration/overview',
    label: 'Accept payments',
    hint: 'checkout options and payment scenes',
  },
  {
    to: '/docs/response-code',
    label: 'Response codes',
    hint: 'what a code means and what to do',
  },
  {
    to: '/docs/transfer/transfer',
    label: 'Payouts and transfers',
    hint: 'wallets, bank accounts and cards',
  },
  {
    to: '/demos/overview',
    label: 'Demos',
    hint: 'every checkout from the customer’s side',
  },
  {to: '/blog', label: 'Blog', hint: 'articles on integrating and testing'},
];
// END portal change

export default function NotFoundContent({className}: Props): ReactNode {
  return (
    <main className={clsx('container margin-vert--xl', className)}>
      <div className="row">
        {/* BEGIN portal change: a wider column, for the list of sections */}
        <div className="col col--8 col--offset-2">
          {/* END portal change */}
          <Heading as="h1" className="hero__title">
            <Translate
              id="theme.NotFound.title"
              description="The title of the 404 page">
              {/* BEGIN portal change: sentence case, as every other heading of the portal */}
              Page not found
              {/* END portal change */}
            </Translate>
          </Heading>
          {/* BEGIN portal change: the theme's text tells readers to contact "the owner of the site"; this one lists where to go instead */}
          <p>
            Nothing lives at this address. Pages sometimes move when the API
            changes; the sections below hold everything the portal documents,
            and the sidebar on any docs page lists every guide and API call.
          </p>
          <div className={styles.help}>
            <NotFoundSearch />
            {/* Before the sections: on a phone it is in the first screen. It keeps its height as the matches arrive. */}
            <NearPages />
            <div className={styles.start}>
              <Heading as="h2" className={styles.sectionsTitle}>
                Start from a section
              </Heading>
              <ul className={styles.sections}>
                {sections.map((section) => (
                  <li key={section.to}>
                    <Link to={section.to}>{section.label}</Link>: {section.hint}
                  </li>
                ))}
              </ul>
              <p>
                Looking for a field or a response code? The{' '}
                <Link to="/docs/response-code">response code catalogue</Link>{' '}
                has a filter box, and each API page lists every field of its
                request and response.
              </p>
            </div>
          </div>
          {/* END portal change */}
        </div>
      </div>
    </main>
  );
}
