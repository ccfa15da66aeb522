import type {ReactNode} from 'react';
import DocSidebar from '@theme-original/DocSidebar';
import DocSidebarMobile from '@theme/DocSidebar/Mobile';
import type DocSidebarType from '@theme/DocSidebar';
import type {WrapperProps} from '@docusaurus/types';
import {SidebarKeptBelowDesktop} from '@site/src/components/ui/StaticMarkup';

type Props = WrapperProps<typeof DocSidebarType>;

/**
 * On a phone the theme hydrates the hidden desktop sidebar, a hundred-odd
 * links, only to unmount it once it knows the window size; here its markup is
 * kept instead (see SidebarKeptBelowDesktop).
 */
export default function DocSidebarWrapper(props: Props): ReactNode {
  return <SidebarKeptBelowDesktop sidebar={<DocSidebar {...props} />} mobileMenuFiller={<DocSidebarMobile {...props} />} />;
}
