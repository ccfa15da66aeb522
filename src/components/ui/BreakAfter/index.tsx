import {Fragment, type ReactNode} from 'react';

/**
 * `text` with a line-break opportunity (<wbr>) after each of the given characters: a long token such as
 * REFUND_AMOUNT_EXCEEDED or 2026-11-27T05:58:40Z may wrap at its joints, never inside a word, and reads and
 * copies exactly as written. The box it sits in must allow wrapping (white-space: normal).
 */
export default function BreakAfter({text, characters}: {text: string; characters: string}): ReactNode {
  const parts: string[] = [];
  let start = 0;
  for (let index = 0; index < text.length; index += 1) {
    if (characters.includes(text.charAt(index)) && index + 1 < text.length) {
      parts.push(text.slice(start, index + 1));
      start = index + 1;
    }
  }
  parts.push(text.slice(start));
  return parts.map((part, index) => (
    <Fragment key={index}>
      {index > 0 && <wbr />}
      {part}
    </Fragment>
  ));
}
