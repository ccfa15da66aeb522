/**
 * Copyright (c) Facebook, Inc. and its affiliates.
 *
 * This source code is licensed under the MIT license found in the
 * LICENSE file in the root directory of this source tree.
 */

import React, {isValidElement, type ReactNode} from 'react';
// BEGIN portal change: no useIsBrowser, the block is not re-created after hydration (see CodeBlock below)
// END portal change
import ElementContent from '@theme/CodeBlock/Content/Element';
import StringContent from '@theme/CodeBlock/Content/String';
import type {Props} from '@theme/CodeBlock';

/**
 * Best attempt to make the children a plain string so it is copyable. If there
 * are react elements, we will not be able to copy the content, and it will
 * return `children` as-is; otherwise, it concatenates the string children
 * together.
 */
function maybeStringifyChildren(children: ReactNode): ReactNode {
  if (React.Children.toArray(children).some((el) => isValidElement(el))) {
    return children;
  }
  // The children is now guaranteed to be one/more plain strings
  return Array.isArray(children) ? children.join('') : (children as string);
}

export default function CodeBlock({
  children: rawChildren,
  ...props
}: Props): ReactNode {
  // BEGIN portal change: no key={String(isBrowser)}. The original re-creates every code block
  // right after hydration so that inline Prism colours switch to the reader's colour mode. Here
  // code colours are CSS per colour mode (plugins/performance/deferred-highlighting/codeThemeCss.ts), the server markup is right
  // in both modes, and re-creating the blocks would only tokenise them all again with Prism.
  const children = maybeStringifyChildren(rawChildren);
  const CodeBlockComp =
    typeof children === 'string' ? StringContent : ElementContent;
  return (
    <CodeBlockComp {...props}>
      {children as string}
    </CodeBlockComp>
  );
  // END portal change
}
