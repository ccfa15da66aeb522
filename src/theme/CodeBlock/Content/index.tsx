/**
 * Copyright (c) Facebook, Inc. and its affiliates.
 *
 * This source code is licensed under the MIT license found in the
 * LICENSE file in the root directory of this source tree.
 */

import React, {type ComponentProps, type ReactNode} from 'react';
import clsx from 'clsx';
import {useCodeBlockContext} from '@docusaurus/theme-common/internal';
import {usePrismTheme} from '@docusaurus/theme-common';
// BEGIN portal change: Prism stays out of the browser's start-up bundle and out of hydration
// (plugins/performance/deferred-highlighting/highlighter, plugins/performance/deferred-highlighting). The server build's highlighter is
// prism-react-renderer's; the browser's loads Prism when a block is first rendered there.
import {Highlight} from '@portal/highlighter';
import useIsBrowser from '@docusaurus/useIsBrowser';
import {withoutHighlighting} from '@site/src/firstLoadSwitches';
// END portal change
import type {Props} from '@theme/CodeBlock/Content';
import Line from '@theme/CodeBlock/Line';

import styles from './styles.module.css';

// TODO Docusaurus v4: remove useless forwardRef
const Pre = React.forwardRef<HTMLPreElement, ComponentProps<'pre'>>(
  (props, ref) => {
    return (
      <pre
        ref={ref}
        /* eslint-disable-next-line jsx-a11y/no-noninteractive-tabindex */
        tabIndex={0}
        {...props}
        className={clsx(props.className, styles.codeBlock, 'thin-scrollbar')}
      />
    );
  },
);

function Code(props: ComponentProps<'code'>) {
  const {metadata} = useCodeBlockContext();
  return (
    <code
      {...props}
      className={clsx(
        props.className,
        styles.codeBlockLines,
        metadata.lineNumbersStart !== undefined &&
          styles.codeBlockLinesWithNumbering,
      )}
      style={{
        ...props.style,
        counterReset:
          metadata.lineNumbersStart === undefined
            ? undefined
            : `line-count ${metadata.lineNumbersStart - 1}`,
      }}
    />
  );
}

// BEGIN portal change: hydration keeps the server markup (the hook used below)
/**
 * Whether this render may keep the server's markup: true only when it is the hydration of a
 * server-rendered page. In production, hydration neither compares nor applies an element's
 * dangerouslySetInnerHTML, so a stand-in one keeps the server's highlighted lines without fibers.
 * Decided once, on the first render: in the browser that render is hydration only while
 * useIsBrowser() is false. A block first rendered in the browser (a client-side navigation, a tab
 * opened later) has no server markup and is highlighted as usual.
 */
function useKeepServerMarkup(
  codeBlock: React.RefObject<HTMLPreElement | null>,
): boolean {
  const isBrowser = useIsBrowser();
  const [keep, setKeep] = React.useState(
    () => typeof window !== 'undefined' && !isBrowser,
  );
  // When React renders the page afresh instead of hydrating it (it starts over after a hydration error anywhere on the
  // page, a browser extension's change to the page for one), the kept inner HTML replaces the lines with an empty
  // <code>, which the theme's word-wrap hook needs to find: render the block again as one first rendered in the browser.
  useBrowserLayoutEffect(() => {
    if (keep && codeBlock.current?.querySelector('.token-line') === null) {
      setKeep(false);
    }
  }, [keep, codeBlock]);
  return keep;
}

/** useLayoutEffect in the browser, nothing on the server (where layout effects only warn). */
const useBrowserLayoutEffect =
  typeof window === 'undefined' ? () => undefined : React.useLayoutEffect;

// END portal change
export default function CodeBlockContent({
  className: classNameProp,
}: Props): ReactNode {
  const {metadata, wordWrap} = useCodeBlockContext();
  const prismTheme = usePrismTheme();
  const {code, language, lineNumbersStart, lineClassNames} = metadata;
  // BEGIN portal change: hydration keeps the server's highlighted lines as they are (no Prism,
  // no tokenising, no fibers for thousands of token spans): same element and attributes as
  // below, with an inner HTML that React neither compares nor applies.
  const keepServerMarkup = useKeepServerMarkup(wordWrap.codeBlockRef);
  if (keepServerMarkup && !withoutHighlighting) {
    const {codeBlockRef} = wordWrap;
    return (
      <Pre
        ref={codeBlockRef}
        className={clsx(classNameProp, `prism-code language-${language}`)}
        style={prismTheme.plain}
        suppressHydrationWarning
        dangerouslySetInnerHTML={{__html: '<code></code>'}}
      />
    );
  }
  // END portal change
  return (
    <Highlight theme={prismTheme} code={code} language={language}>
      {({className, style, tokens: lines, getLineProps, getTokenProps}) => (
        <Pre
          ref={wordWrap.codeBlockRef}
          className={clsx(classNameProp, className)}
          style={style}>
          <Code>
            {lines.map((line, i) => (
              <Line
                key={i}
                line={line}
                getLineProps={getLineProps}
                getTokenProps={getTokenProps}
                classNames={lineClassNames[i]}
                showLineNumbers={lineNumbersStart !== undefined}
              />
            ))}
          </Code>
        </Pre>
      )}
    </Highlight>
  );
}
