/**
 * Ejected from @docusaurus/theme-classic 3.10.2 (CodeBlock/Content/String) to
 * swap one hook. The theme's useCodeWordWrap measures every code block for
 * horizontal overflow as soon as the page hydrates (and adds a resize listener
 * to each), which forces layout of the whole page, skipped off-screen content
 * included, and then re-renders the blocks that overflow. Wrapping cannot
 * change a hook called inside. Here a block is measured when it first comes
 * near the viewport; the word-wrap button it feeds appears no later than the
 * block itself (see CodeBlock/Buttons). Everything else is the original.
 */
import {useCallback, useEffect, useMemo, useRef, useState, type ReactNode} from 'react';
import {useThemeConfig} from '@docusaurus/theme-common';
import {CodeBlockContextProvider, createCodeBlockMetadata, type useCodeWordWrap} from '@docusaurus/theme-common/internal';
import CodeBlockLayout from '@theme/CodeBlock/Layout';
import type {Props} from '@theme/CodeBlock/Content/String';
import {useHasBeenVisible} from '@site/src/hooks/useHasBeenVisible';

function useCodeBlockMetadata(props: Props) {
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

type WordWrap = ReturnType<typeof useCodeWordWrap>;

function useCodeWordWrapWhenVisible(): WordWrap {
  const [isEnabled, setIsEnabled] = useState(false);
  const [isCodeScrollable, setIsCodeScrollable] = useState(false);
  const codeBlockRef = useRef<HTMLPreElement>(null);
  const visible = useHasBeenVisible(codeBlockRef);

  const toggle = useCallback(() => {
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

  const measure = useCallback(() => {
    const pre = codeBlockRef.current;
    if (pre) {
      setIsCodeScrollable(pre.scrollWidth > pre.clientWidth || Boolean(pre.querySelector('code')?.hasAttribute('style')));
    }
  }, []);

  useEffect(() => {
    if (!visible) {
      return undefined;
    }
    measure();
    window.addEventListener('resize', measure, {passive: true});
    return () => window.removeEventListener('resize', measure);
  }, [visible, isEnabled, measure]);

  return useMemo(() => ({codeBlockRef, isEnabled, isCodeScrollable, toggle}), [isEnabled, isCodeScrollable, toggle]);
}

export default function CodeBlockString(props: Props): ReactNode {
  const metadata = useCodeBlockMetadata(props);
  const wordWrap = useCodeWordWrapWhenVisible();
  return (
    <CodeBlockContextProvider metadata={metadata} wordWrap={wordWrap}>
      <CodeBlockLayout />
    </CodeBlockContextProvider>
  );
}
