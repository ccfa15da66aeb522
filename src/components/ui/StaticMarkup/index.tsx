import {useState, type ComponentProps, type ReactNode} from 'react';
import useIsBrowser from '@docusaurus/useIsBrowser';
import {withoutApiTablesKept} from '@site/src/firstLoadSwitches';

/** Whether this render may keep the server markup: true only when it is the hydration of a server-rendered page. Also used by the ejected CodeBlock/Content. */
export function useKeepServerMarkup(): boolean {
  const isBrowser = useIsBrowser();
  // Decided once, on the first render: in the browser that render is hydration only while useIsBrowser() is false.
  const [keep] = useState(() => typeof window !== 'undefined' && !isBrowser);
  return keep;
}

type Props = ComponentProps<'div'>;

/**
 * An element whose server-rendered content the browser keeps instead of hydrating.
 *
 * The API reference tables have no interactivity, yet hydrating their thousands
 * of cells is most of an API page's blocking time on a phone. On the first
 * client render (hydration, when useIsBrowser() is still false) the element is
 * given an empty innerHTML that React neither compares nor applies, so the
 * server markup stays and no fibers are created for it. When the page is
 * reached by client-side navigation there is no server markup, so the children
 * render as usual.
 */
export default function StaticMarkup({children, ...props}: Props): ReactNode {
  const hydrating = useKeepServerMarkup();
  // A benchmark build without api-tables-kept hydrates the default-kept content (the API tables).
  if (hydrating && !withoutApiTablesKept) {
    return <div {...props} data-static-markup="" suppressHydrationWarning dangerouslySetInnerHTML={{__html: ''}} />;
  }
  return (
    <div {...props} data-static-markup="">
      {children}
    </div>
  );
}
