import type {ReactNode} from 'react';
import TOC from '@theme-original/TOC';
import type TOCType from '@theme/TOC';
import type {WrapperProps} from '@docusaurus/types';

type Props = WrapperProps<typeof TOCType>;

/**
 * Puts the table of contents in a navigation landmark. On blog posts it sits
 * outside <main>, where axe reports content outside any landmark. display:
 * contents keeps the theme's sticky positioning working.
 */
export default function TOCWrapper(props: Props): ReactNode {
  return (
    <nav aria-label="On this page" style={{display: 'contents'}}>
      <TOC {...props} />
    </nav>
  );
}
