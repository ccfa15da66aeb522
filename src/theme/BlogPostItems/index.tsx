import type {ReactNode} from 'react';
import BlogPostItems from '@theme-original/BlogPostItems';
import type BlogPostItemsType from '@theme/BlogPostItems';
import type {WrapperProps} from '@docusaurus/types';
import {useLocation} from '@docusaurus/router';
import useDocusaurusContext from '@docusaurus/useDocusaurusContext';

type Props = WrapperProps<typeof BlogPostItemsType>;

/**
 * The blog's list pages have no level-one heading (tag pages do). Adds one,
 * visually hidden, naming the blog, so screen-reader users land on a title.
 */
export default function BlogPostItemsWrapper(props: Props): ReactNode {
  const {pathname} = useLocation();
  const {siteConfig} = useDocusaurusContext();
  const isListPage = /^\/blog(\/page\/\d+)?\/?$/.test(pathname);
  return (
    <>
      {isListPage && <h1 className="sr-only">{`${siteConfig.title} developer blog`}</h1>}
      <BlogPostItems {...props} />
    </>
  );
}
