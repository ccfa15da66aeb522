/**
 * The highlighter of the browser build. Prism (its grammars take a quarter of
 * the start-up script's work on a phone) is not in the start-up bundle: code
 * blocks that arrive with the page keep their server-highlighted HTML, and a
 * block rendered in the browser (after client-side navigation) shows plain
 * text first and is highlighted once this chunk has loaded.
 */
import {useEffect, useState, type ReactNode} from 'react';
import type * as PrismReactRenderer from 'prism-react-renderer';
import type {HighlightProps, LineInputProps, LineOutputProps, Token, TokenInputProps, TokenOutputProps} from 'prism-react-renderer';

type HighlightComponent = (props: HighlightProps) => ReactNode;

let loaded: HighlightComponent | undefined;
let loading: Promise<HighlightComponent> | undefined;

async function loadHighlight(): Promise<HighlightComponent> {
  // Same grammars, same order, as server.tsx.
  const renderer = (await import(/* webpackChunkName: "prism" */ 'prism-react-renderer/dist/index.mjs')) as typeof PrismReactRenderer;
  (globalThis as {Prism?: unknown}).Prism = renderer.Prism;
  try {
    await import(/* webpackChunkName: "prism-markup-templating" */ 'prismjs/components/prism-markup-templating.js');
    await import(/* webpackChunkName: "prism-php" */ 'prismjs/components/prism-php.js');
    await import(/* webpackChunkName: "prism-java" */ 'prismjs/components/prism-java.js');
    await import(/* webpackChunkName: "prism-bash" */ 'prismjs/components/prism-bash.js');
  } finally {
    delete (globalThis as {Prism?: unknown}).Prism;
  }
  loaded = renderer.Highlight;
  return loaded;
}

/** The code as unhighlighted lines, in the shape prism-react-renderer hands to its render function. */
function plainRender({code, language, theme, children}: HighlightProps): ReactNode {
  const lines: Token[][] = code
    .replace(/\n$/, '')
    .split('\n')
    .map((content) => [{types: ['plain'], content}]);
  const getLineProps = ({className, line: _line, ...rest}: LineInputProps): LineOutputProps => ({
    ...rest,
    className: className ? `token-line ${className}` : 'token-line',
  });
  const getTokenProps = ({token, className, ...rest}: TokenInputProps): TokenOutputProps => ({
    ...rest,
    className: className ? `token plain ${className}` : 'token plain',
    children: token.content,
  });
  return children({className: `prism-code language-${language}`, style: theme?.plain ?? {}, tokens: lines, getLineProps, getTokenProps});
}

export function Highlight(props: HighlightProps): ReactNode {
  const [Loaded, setLoaded] = useState<HighlightComponent | undefined>(() => loaded);
  useEffect(() => {
    if (Loaded) return;
    let current = true;
    loading ??= loadHighlight();
    loading.then(
      (component) => {
        if (current) setLoaded(() => component);
      },
      // Without the chunk (offline, for example) the code stays readable, just not coloured.
      () => undefined,
    );
    return () => {
      current = false;
    };
  }, [Loaded]);
  return Loaded ? <Loaded {...props} /> : plainRender(props);
}
