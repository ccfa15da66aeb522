import type {ReactNode} from 'react';
import Content from '@theme-original/DocItem/Content';
import type ContentType from '@theme/DocItem/Content';
import type {WrapperProps} from '@docusaurus/types';
import PageMarkdownActions from '@site/src/components/ui/PageMarkdownActions';

type Props = WrapperProps<typeof ContentType>;

/** Docs and demo pages: the "Page" menu (copy as Markdown, view the twin) beside the title. */
export default function DocItemContentWrapper(props: Props): ReactNode {
  return (
    <>
      <PageMarkdownActions />
      <Content {...props} />
    </>
  );
}
