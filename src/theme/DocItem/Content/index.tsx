import type {ReactNode} from 'react';
import Content from '@theme-original/DocItem/Content';
import type ContentType from '@theme/DocItem/Content';
import type {WrapperProps} from '@docusaurus/types';
import PageMarkdownActions from '@site/src/components/ui/PageMarkdownActions';

type Props = WrapperProps<typeof ContentType>;

/** Docs and demo pages: "Copy page" and "View as Markdown" (the page's twin) above the content. */
export default function DocItemContentWrapper(props: Props): ReactNode {
  return (
    <>
      <PageMarkdownActions />
      <Content {...props} />
    </>
  );
}
