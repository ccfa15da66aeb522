/**
 * Ejected from @docusaurus/theme-classic 3.10.2 (CodeBlock) to drop one line:
 * the original gives the block `key={String(isBrowser)}`, which re-creates
 * every code block right after hydration so inline Prism colours can switch
 * to the dark theme. Here the colours are CSS per colour mode
 * (src/lib/codeThemeCss.ts), the server markup is right in both modes, and
 * re-creating the blocks would only re-tokenise them all with Prism.
 */
import {Children, isValidElement, type ReactNode} from 'react';
import ElementContent from '@theme/CodeBlock/Content/Element';
import StringContent from '@theme/CodeBlock/Content/String';
import type {Props} from '@theme/CodeBlock';

function maybeStringifyChildren(children: ReactNode): ReactNode {
  if (Children.toArray(children).some((element) => isValidElement(element))) {
    return children;
  }
  // Only plain strings are left.
  return Array.isArray(children) ? children.join('') : children;
}

export default function CodeBlock({children: rawChildren, ...props}: Props): ReactNode {
  const children = maybeStringifyChildren(rawChildren);
  return typeof children === 'string' ? <StringContent {...props}>{children}</StringContent> : <ElementContent {...props}>{children as ReactNode}</ElementContent>;
}
