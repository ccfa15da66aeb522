import {useState, type ComponentProps, type ReactNode} from 'react';
import useIsBrowser from '@docusaurus/useIsBrowser';
import {useWindowSize} from '@docusaurus/theme-common';
import {withoutDesktopPartsKept, withoutApiTablesKept} from '@site/src/browser/firstLoadSwitches';

/** Whether this render may keep the server markup: true only when it is the hydration of a server-rendered page. Also used by the ejected CodeBlock/Content. */
export function useKeepServerMarkup(): boolean {
  const isBrowser = useIsBrowser();
  // Decided once, on the first render: in the browser that render is hydration only while useIsBrowser() is false.
  const [keep] = useState(() => typeof window !== 'undefined' && !isBrowser);
  return keep;
}

// The theme's breakpoint: useWindowSize() says "desktop" above 996 px.
const DESKTOP_MIN_WIDTH = 997;

/**
 * For desktop-only parts of the layout (the docs sidebar column, the table of
 * contents): true while the page was hydrated in a window narrower than the
 * theme's desktop breakpoint, where CSS hides them. The theme would hydrate
 * them and then unmount them as soon as it learns the window size; keeping
 * their server markup skips both. Turns false, for good, when the window
 * becomes desktop-wide, so they render live from then on.
 */
export function useKeepServerMarkupBelowDesktop(): boolean {
  const hydrating = useKeepServerMarkup();
  // A benchmark build without desktop-parts-kept hydrates them as the theme does.
  const [keep, setKeep] = useState(() => !withoutDesktopPartsKept && hydrating && window.innerWidth < DESKTOP_MIN_WIDTH);
  const windowSize = useWindowSize();
  if (keep && windowSize === 'desktop') {
    // State adjusted during render, React's pattern for state derived from a changing value.
    setKeep(false);
  }
  return keep && windowSize !== 'desktop';
}

type Props = ComponentProps<'div'> & {
  /** Element to render; the server markup must have used the same. */
  as?: 'div' | 'nav';
  /** Keep the server markup on this render. Default: only while hydrating (useKeepServerMarkup). */
  keep?: boolean;
};

/**
 * An element whose server-rendered content the browser keeps instead of hydrating.
 *
 * The API reference tables have no interactivity, yet hydrating their thousands
 * of cells is most of an API page's blocking time on a phone. On the first
 * client render (hydration, when useIsBrowser() is still false) the element is
 * given an empty innerHTML that React neither compares nor applies, so the
 * server markup stays and no fibers are created for it. When the page is
 * reached by client-side navigation there is no server markup, so the children
 * render as usual. With `keep`, the caller decides how long the markup stays.
 */
export default function StaticMarkup({children, as: Element = 'div', keep, ...props}: Props): ReactNode {
  const hydrating = useKeepServerMarkup();
  // The key makes the switch to live children a new element: React would otherwise leave the kept markup in place and add the children after it.
  // A benchmark build without api-tables-kept hydrates the default-kept content (the API tables).
  if (keep ?? (hydrating && !withoutApiTablesKept)) {
    return <Element key="kept" {...props} data-static-markup="" suppressHydrationWarning dangerouslySetInnerHTML={{__html: ''}} />;
  }
  return (
    <Element key="live" {...props} data-static-markup="">
      {children}
    </Element>
  );
}

/**
 * A theme sidebar that renders its desktop version on the server and during
 * hydration, and swaps it for a menu filler once it knows the window is a
 * phone's (DocSidebar, BlogSidebar). Below the desktop breakpoint the desktop
 * markup, hidden there by CSS, is kept un-hydrated; the phone's version, which
 * only fills the navbar's mobile menu, is rendered as the theme does. From a
 * desktop-wide window on, `sidebar`
 * renders live and chooses for itself.
 */
export function SidebarKeptBelowDesktop({sidebar, mobileMenuFiller}: {sidebar: ReactNode; mobileMenuFiller: ReactNode}): ReactNode {
  const keep = useKeepServerMarkupBelowDesktop();
  const windowSize = useWindowSize();
  return (
    <>
      <StaticMarkup keep={keep} style={{display: 'contents'}}>
        {sidebar}
      </StaticMarkup>
      {keep && windowSize === 'mobile' && mobileMenuFiller}
    </>
  );
}
