import type {ReactNode} from 'react';
import BlogPostItems from '@theme-original/BlogPostItems';
import type BlogPostItemsType from '@theme/BlogPostItems';
import type {WrapperProps} from '@docusaurus/types';
import {useLocation} from '@docusaurus/router';
import useDocusaurusContext from '@docusaurus/useDocusaurusContext';
import Link from '@docusaurus/Link';

type Props = WrapperProps<typeof BlogPostItemsType>;

/**
 * The blog's list pages have no level-one heading (tag pages do). Adds one,
 * visually hidden, naming the blog, so screen-reader users land on a title, and
 * links the archive and the authors' page, which nothing else in the blog links.
 */
export default function BlogPostItemsWrapper(props: Props): ReactNode {
  const {pathname} = useLocation();
  const {siteConfig} = useDocusaurusContext();
  const isListPage = /^\/blog(\/page\/\d+)?\/?$/.test(pathname);
  return (
    <>
      {isListPage && (
        <>
          <h1 className="sr-only">{`${siteConfig.title} developer blog`}</h1>
          <p>
            Every post by date is in the <Link to="/blog/archive">archive</Link>; posts by writer are on the{' '}
            <Link to="/blog/authors">authors page</Link>.
          </p>
        </>
      )}
      <BlogPostItems {...props} />
    </>
  );
}
