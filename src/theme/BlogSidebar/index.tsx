import type {ReactNode} from 'react';
import BlogSidebar from '@theme-original/BlogSidebar';
import BlogSidebarMobile from '@theme/BlogSidebar/Mobile';
import type BlogSidebarType from '@theme/BlogSidebar';
import type {WrapperProps} from '@docusaurus/types';
import {SidebarKeptBelowDesktop} from '@site/src/components/ui/StaticMarkup';

type Props = WrapperProps<typeof BlogSidebarType>;

/** As DocSidebar: the hidden desktop list of posts stays server markup on a phone (see SidebarKeptBelowDesktop). */
export default function BlogSidebarWrapper(props: Props): ReactNode {
  if (!props.sidebar?.items.length) {
    return <BlogSidebar {...props} />;
  }
  return <SidebarKeptBelowDesktop sidebar={<BlogSidebar {...props} />} mobileMenuFiller={<BlogSidebarMobile sidebar={props.sidebar} />} />;
}
