/**
 * Ejected from @docusaurus/theme-classic 3.10.2 (CodeBlock/Content), because
 * wrapping cannot change how the original highlights: it calls Prism while
 * hydrating, and importing Prism puts it, with every grammar, in the start-up
 * bundle of every page. Here:
 * - the server build highlights with Prism as before (server.tsx);
 * - hydration keeps the server's highlighted markup as it is (no Prism, no
 *   tokenising, no fibers for thousands of token spans);
 * - a block first rendered in the browser highlights once Prism's chunk loads.
 * Markup, class names and the theme's Line component are the original's.
 */
import {forwardRef, type ComponentProps, type ReactNode} from 'react';
import clsx from 'clsx';
import {useCodeBlockContext} from '@docusaurus/theme-common/internal';
import {usePrismTheme} from '@docusaurus/theme-common';
import {Highlight} from '@portal/highlighter';
import Line from '@theme/CodeBlock/Line';
import {useKeepServerMarkup} from '@site/src/components/StaticMarkup';
import type {Props} from '@theme/CodeBlock/Content';
import styles from './styles.module.css';

const Pre = forwardRef<HTMLPreElement, ComponentProps<'pre'>>(function Pre(props, ref) {
  // Focusable, as in the original: keyboard users can scroll long lines.
  return <pre ref={ref} tabIndex={0} {...props} className={clsx(props.className, styles.codeBlock, 'thin-scrollbar')} />;
});

function Code(props: ComponentProps<'code'>): ReactNode {
  const {metadata} = useCodeBlockContext();
  return (
    <code
      {...props}
      className={clsx(props.className, styles.codeBlockLines, metadata.lineNumbersStart !== undefined && styles.codeBlockLinesWithNumbering)}
      style={{
        ...props.style,
        counterReset: metadata.lineNumbersStart === undefined ? undefined : `line-count ${metadata.lineNumbersStart - 1}`,
      }}
    />
  );
}

export default function CodeBlockContent({className: classNameProp}: Props): ReactNode {
  const {
    metadata,
    wordWrap: {codeBlockRef},
  } = useCodeBlockContext();
  const prismTheme = usePrismTheme();
  const keepServerMarkup = useKeepServerMarkup();
  const {code, language, lineNumbersStart, lineClassNames} = metadata;

  if (keepServerMarkup) {
    // Same element and attributes as below; the highlighted lines inside stay as the server wrote them.
    return (
      <Pre
        ref={codeBlockRef}
        className={clsx(classNameProp, `prism-code language-${language}`)}
        style={prismTheme.plain}
        suppressHydrationWarning
        dangerouslySetInnerHTML={{__html: ''}}
      />
    );
  }
  return (
    <Highlight theme={prismTheme} code={code} language={language}>
      {({className, style, tokens: lines, getLineProps, getTokenProps}) => (
        <Pre ref={codeBlockRef} className={clsx(classNameProp, className)} style={style}>
          <Code>
            {lines.map((line, index) => (
              <Line
                key={index}
                line={line}
                getLineProps={getLineProps}
                getTokenProps={getTokenProps}
                classNames={lineClassNames[index]}
                showLineNumbers={lineNumbersStart !== undefined}
              />
            ))}
          </Code>
        </Pre>
      )}
    </Highlight>
  );
}
