/**
 * Copyright (c) Facebook, Inc. and its affiliates.
 *
 * This source code is licensed under the MIT license found in the
 * LICENSE file in the root directory of this source tree.
 */

// BEGIN portal change: the not-found content loads when a docs URL matches no doc, not with every docs page
import React, {lazy, Suspense, type ReactNode} from 'react';
// END portal change
import clsx from 'clsx';
import {HtmlClassNameProvider, ThemeClassNames} from '@docusaurus/theme-common';
import {
  DocsSidebarProvider,
  useDocRootMetadata,
} from '@docusaurus/plugin-content-docs/client';
import DocRootLayout from '@theme/DocRoot/Layout';
// BEGIN portal change: see the import of React
// END portal change
import type {Props} from '@theme/DocRoot';
// BEGIN portal change: see the import of React

// Reached only after a link to a docs URL that has no doc: every built docs page matches one.
const NotFoundContent = lazy(() => import('@theme/NotFound/Content'));
// END portal change

export default function DocRoot(props: Props): ReactNode {
  const currentDocRouteMetadata = useDocRootMetadata(props);
  if (!currentDocRouteMetadata) {
    // We only render the not found content to avoid a double layout
    // see https://github.com/facebook/docusaurus/pull/7966#pullrequestreview-1077276692
    // BEGIN portal change: see the import of React
    return (
      <Suspense fallback={null}>
        <NotFoundContent />
      </Suspense>
    );
    // END portal change
  }
  const {docElement, sidebarName, sidebarItems} = currentDocRouteMetadata;
  return (
    <HtmlClassNameProvider className={clsx(ThemeClassNames.page.docsDocPage)}>
      <DocsSidebarProvider name={sidebarName} items={sidebarItems}>
        <DocRootLayout>{docElement}</DocRootLayout>
      </DocsSidebarProvider>
    </HtmlClassNameProvider>
  );
}
