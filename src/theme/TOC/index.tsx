import type {ReactNode} from 'react';
import TOC from '@theme-original/TOC';
import type TOCType from '@theme/TOC';
import type {WrapperProps} from '@docusaurus/types';
import StaticMarkup, {useKeepServerMarkupBelowDesktop} from '@site/src/components/ui/StaticMarkup';

type Props = WrapperProps<typeof TOCType>;

/**
 * Puts the table of contents in a navigation landmark. On blog posts it sits
 * outside <main>, where axe reports content outside any landmark. display:
 * contents keeps the theme's sticky positioning working.
 *
 * This TOC is the desktop one (phones get the theme's collapsible TOC), hidden
 * by CSS below the desktop breakpoint: there its server markup is kept rather
 * than hydrated, until the window becomes desktop-wide.
 */
export default function TOCWrapper(props: Props): ReactNode {
  const keep = useKeepServerMarkupBelowDesktop();
  return (
    <StaticMarkup as="nav" keep={keep} aria-label="On this page" style={{display: 'contents'}}>
      <TOC {...props} />
    </StaticMarkup>
  );
}
