import type {ReactNode} from 'react';

/**
 * Names in the contract's prose-like extension texts (x-idempotency, x-rate-limits) that read
 * best as code: field and operation names in camelCase, result codes in UPPER_SNAKE case, SUCCESS,
 * and HTTP header names with a hyphen. The texts carry no markup of their own.
 */
const codeLike =
  /\b(?:[a-z]+(?:[A-Z][a-z0-9]*)+|[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+|SUCCESS|(?:Idempotent-Replayed|Retry-After|RateLimit-[A-Z][a-z]+))\b/g;

/** A contract text with its field names, result codes and header names shown as code. */
export default function ContractText({text}: {text: string}): ReactNode {
  const runs: ReactNode[] = [];
  let last = 0;
  for (const match of text.matchAll(codeLike)) {
    const start = match.index ?? 0;
    if (start > last) runs.push(text.slice(last, start));
    runs.push(<code key={start}>{match[0]}</code>);
    last = start + match[0].length;
  }
  if (last < text.length) runs.push(text.slice(last));
  return runs;
}
