/**
 * Copyright (c) Facebook, Inc. and its affiliates.
 *
 * This source code is licensed under the MIT license found in the
 * LICENSE file in the root directory of this source tree.
 */

import React, {type ReactNode} from 'react';
import {useThemeConfig} from '@docusaurus/theme-common';
import {
  CodeBlockContextProvider,
  type CodeBlockMetadata,
  createCodeBlockMetadata,
  useCodeWordWrap,
} from '@docusaurus/theme-common/internal';
import type {Props} from '@theme/CodeBlock/Content/String';
import CodeBlockLayout from '@theme/CodeBlock/Layout';
// BEGIN portal change: see useCodeWordWrapWhenVisible below
import {useHasBeenVisible} from '@site/src/hooks/useHasBeenVisible';
import {withoutLazyCodeButtons} from '@site/src/browser/firstLoadSwitches';
// END portal change

function useCodeBlockMetadata(props: Props): CodeBlockMetadata {
  const {prism} = useThemeConfig();
  return createCodeBlockMetadata({
    code: props.children,
    className: props.className,
    metastring: props.metastring,
    magicComments: prism.magicComments,
    defaultLanguage: prism.defaultLanguage,
    language: props.language,
    title: props.title,
    showLineNumbers: props.showLineNumbers,
  });
}

// BEGIN portal change: the theme's useCodeWordWrap measures every code block for
// horizontal overflow as soon as the page hydrates, and adds a resize listener to
// each: a forced layout of the whole page, off-screen content included, and then a
// re-render of the blocks that overflow. This one measures a block when it first
// comes near the viewport, as the word-wrap button it feeds does (see
// CodeBlock/Buttons). Same result shape and toggle as the theme's.
type WordWrap = ReturnType<typeof useCodeWordWrap>;

function useCodeWordWrapWhenVisible(): WordWrap {
  const [isEnabled, setIsEnabled] = React.useState(false);
  const [isCodeScrollable, setIsCodeScrollable] = React.useState(false);
  const codeBlockRef = React.useRef<HTMLPreElement>(null);
  const visible = useHasBeenVisible(codeBlockRef);

  const toggle = React.useCallback(() => {
    const code = codeBlockRef.current?.querySelector('code');
    if (code) {
      if (isEnabled) {
        code.removeAttribute('style');
      } else {
        code.style.whiteSpace = 'pre-wrap';
        // Very long tokens wrap too, so a wrapped block never scrolls sideways.
        code.style.overflowWrap = 'anywhere';
      }
    }
    setIsEnabled((value) => !value);
  }, [isEnabled]);

  const measure = React.useCallback(() => {
    const pre = codeBlockRef.current;
    if (pre) {
      setIsCodeScrollable(
        pre.scrollWidth > pre.clientWidth ||
          Boolean(pre.querySelector('code')?.hasAttribute('style')),
      );
    }
  }, []);

  React.useEffect(() => {
    if (!visible) {
      return undefined;
    }
    measure();
    window.addEventListener('resize', measure, {passive: true});
    return () => window.removeEventListener('resize', measure);
  }, [visible, isEnabled, measure]);

  return React.useMemo(
    () => ({codeBlockRef, isEnabled, isCodeScrollable, toggle}),
    [isEnabled, isCodeScrollable, toggle],
  );
}

// A benchmark build without lazy-code-buttons measures every block at hydration, as the theme does.
const useWordWrap = withoutLazyCodeButtons ? useCodeWordWrap : useCodeWordWrapWhenVisible;

// END portal change
// TODO Docusaurus v4: move this component at the root?
export default function CodeBlockString(props: Props): ReactNode {
  const metadata = useCodeBlockMetadata(props);
  // BEGIN portal change: see useCodeWordWrapWhenVisible above
  const wordWrap = useWordWrap();
  // END portal change
  return (
    <CodeBlockContextProvider metadata={metadata} wordWrap={wordWrap}>
      <CodeBlockLayout />
    </CodeBlockContextProvider>
  );
}
