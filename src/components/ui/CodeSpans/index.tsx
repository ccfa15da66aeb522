import type {ReactNode} from 'react';
import {splitCodeSpans} from '@site/src/lib/codeSpans';

/** A contract text with its `backtick` spans shown as code (see splitCodeSpans). */
export default function CodeSpans({text}: {text: string}): ReactNode {
  return splitCodeSpans(text).map((run, index) => (run.code ? <code key={index}>{run.text}</code> : run.text));
}
