import type {ReactNode} from 'react';
import Info from '@theme-original/BlogPostItem/Header/Info';
import type InfoType from '@theme/BlogPostItem/Header/Info';
import type {WrapperProps} from '@docusaurus/types';
import StaticMarkup from '@site/src/components/ui/StaticMarkup';
import {withoutBlogDateKept} from '@site/src/browser/firstLoadSwitches';

type Props = WrapperProps<typeof InfoType>;

/**
 * The post's date and reading time, kept as the server wrote them while the page hydrates.
 * The original builds an Intl.DateTimeFormat on every render; the first one in a page loads
 * the locale's calendar data, 20 to 45 ms of a phone's hydration task, to print a date
 * the HTML already shows. Client-side navigation renders it live as usual.
 */
function InfoWrapper(props: Props): ReactNode {
  return (
    <StaticMarkup>
      <Info {...props} />
    </StaticMarkup>
  );
}

// A benchmark build without blog-date-kept hydrates the date as the theme does.
export default withoutBlogDateKept ? Info : InfoWrapper;
