import type {ReactNode} from 'react';
import Buttons from '@theme-original/CodeBlock/Buttons';
import type ButtonsType from '@theme/CodeBlock/Buttons';
import type {WrapperProps} from '@docusaurus/types';
import {useCodeBlockContext} from '@docusaurus/theme-common/internal';
import {useHasBeenVisible} from '@site/src/hooks/useHasBeenVisible';
import {withoutLazyCodeButtons} from '@site/src/browser/firstLoadSwitches';

type Props = WrapperProps<typeof ButtonsType>;

/**
 * The copy and word-wrap buttons are browser-only in the theme, so every code
 * block on the page renders them (with their SVG icons) the moment hydration
 * ends. Here a block gets them when it first comes near the viewport: keyboard
 * focus on a block scrolls it into view, so they are there before Tab reaches
 * them.
 */
function CodeBlockButtonsWrapper(props: Props): ReactNode {
  const {
    wordWrap: {codeBlockRef},
  } = useCodeBlockContext();
  return useHasBeenVisible(codeBlockRef) ? <Buttons {...props} /> : null;
}

// A benchmark build without lazy-code-buttons renders every block's buttons at hydration, as the theme does.
export default withoutLazyCodeButtons ? Buttons : CodeBlockButtonsWrapper;
