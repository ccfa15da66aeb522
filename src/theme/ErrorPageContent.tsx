/**
 * Copyright (c) Facebook, Inc. and its affiliates.
 *
 * This source code is licensed under the MIT license found in the
 * LICENSE file in the root directory of this source tree.
 */

import React, {type ReactNode} from 'react';
import Translate from '@docusaurus/Translate';
import {
  ErrorBoundaryError,
  ErrorBoundaryTryAgainButton,
} from '@docusaurus/theme-common';
import type {Props} from '@theme/Error';
import Heading from '@theme/Heading';
// BEGIN portal change: Try again is the site's primary button; Infima's button rules are left out of the stylesheet
// (plugins/performance/configured-out-css)
import {buttonClassName} from '@site/src/components/ui/Button';
// END portal change

export default function ErrorPageContent({error, tryAgain}: Props): ReactNode {
  return (
    <main className="container margin-vert--xl">
      <div className="row">
        <div className="col col--6 col--offset-3">
          <Heading as="h1" className="hero__title">
            <Translate
              id="theme.ErrorPageContent.title"
              description="The title of the fallback page when the page crashed">
              This page crashed.
            </Translate>
          </Heading>
          <div className="margin-vert--lg">
            {/* BEGIN portal change: the site's primary button */}
            <ErrorBoundaryTryAgainButton
              onClick={tryAgain}
              className={buttonClassName({variant: 'primary'})}
            />
            {/* END portal change */}
          </div>
          <hr />
          {/* BEGIN portal change: the error in the danger text colour (src/css/custom.css), not theme-common's red, 4:1 on white */}
          <div className="margin-vert--md crash-error">
            {/* END portal change */}
            <ErrorBoundaryError error={error} />
          </div>
        </div>
      </div>
    </main>
  );
}
