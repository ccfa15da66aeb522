import {Fragment, type ReactNode} from 'react';

/**
 * The pieces of `text` between its line-break opportunities: after each of `characters` (never at the very end) and,
 * with `humps`, before each capital that follows a lower-case letter (authorization|Expires|At). Pure.
 */
export function breakParts(text: string, characters: string, humps = false): string[] {
  const parts: string[] = [];
  let start = 0;
  for (let index = 1; index < text.length; index += 1) {
    const after = characters.includes(text.charAt(index - 1));
    const hump = humps && /[a-z]/.test(text.charAt(index - 1)) && /[A-Z]/.test(text.charAt(index));
    if (after || hump) {
      parts.push(text.slice(start, index));
      start = index;
    }
  }
  parts.push(text.slice(start));
  return parts;
}

/**
 * `text` with a line-break opportunity (<wbr>) after each of the given characters (and, with `humps`, inside camelCase):
 * a long token such as REFUND_AMOUNT_EXCEEDED or 2026-11-27T05:58:40Z may wrap at its joints, never inside a word,
 * and reads and copies exactly as written. The box it sits in must allow wrapping (white-space: normal).
 */
export default function BreakAfter({text, characters, humps = false}: {text: string; characters: string; humps?: boolean}): ReactNode {
  return breakParts(text, characters, humps).map((part, index) => (
    <Fragment key={index}>
      {index > 0 && <wbr />}
      {part}
    </Fragment>
  ));
}
