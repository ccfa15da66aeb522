import {useEffect, useId, useRef, useState, type ReactNode} from 'react';
import Link from '@docusaurus/Link';
import type {ResultCode} from '@site/src/contract/openapiTypes';
import styles from './styles.module.css';
import CodeSpans from '@site/src/components/ui/CodeSpans';
import TableScroller from '@site/src/components/ui/TableScroller';
import BreakAfter from '@site/src/components/ui/BreakAfter';

export interface CatalogueEntry extends ResultCode {
  readonly returnedBy: ReadonlyArray<{operationId: string; summary: string; url: string}>;
}

/** True when every word of the query appears in the entry's code, status, texts or operations. */
export function matchesQuery(entry: CatalogueEntry, query: string): boolean {
  const haystack = [entry.code, String(entry.httpStatus), entry.message, entry.meaning, entry.action, ...entry.returnedBy.map((op) => op.summary)]
    .join(' ')
    .toLowerCase();
  return query
    .toLowerCase()
    .split(/\s+/)
    .filter(Boolean)
    .every((word) => haystack.includes(word));
}

/** The whole response code catalogue, server-rendered, with a filter box. */
export default function ResponseCodeCatalogue({codes}: {codes: readonly CatalogueEntry[]}): ReactNode {
  const id = useId();
  const [query, setQuery] = useState('');
  const [retryOnly, setRetryOnly] = useState(false);
  const queryInput = useRef<HTMLInputElement>(null);
  const retryInput = useRef<HTMLInputElement>(null);
  // The page is readable, and its inputs usable, before React hydrates it: keep what the reader already typed or ticked.
  useEffect(() => {
    if (queryInput.current?.value) setQuery(queryInput.current.value);
    if (retryInput.current?.checked) setRetryOnly(true);
  }, []);
  const visible = codes.filter((entry) => matchesQuery(entry, query) && (!retryOnly || entry.retry));
  return (
    <div>
      <div className={styles.controls} role="search">
        <label htmlFor={`${id}-filter`}>Filter codes</label>
        <input
          id={`${id}-filter`}
          ref={queryInput}
          type="search"
          value={query}
          placeholder="e.g. 409 or refund"
          onChange={(event) => setQuery(event.target.value)}
          aria-controls={`${id}-table`}
        />
        <label className={styles.checkbox}>
          <input ref={retryInput} type="checkbox" checked={retryOnly} onChange={(event) => setRetryOnly(event.target.checked)} /> Only codes where a retry
          helps
        </label>
      </div>
      <p aria-live="polite" className={styles.count}>
        {visible.length === codes.length ? `${codes.length} codes` : `${visible.length} of ${codes.length} codes match`}
      </p>
      <TableScroller label="Response code catalogue" cardsOnPhone>
        <table id={`${id}-table`} className={styles.table}>
          <thead>
            <tr>
              <th scope="col">Code</th>
              <th scope="col">HTTP</th>
              <th scope="col">Message</th>
              <th scope="col">Meaning</th>
              <th scope="col">Retry helps</th>
              <th scope="col">What to do</th>
              <th scope="col">Returned by</th>
            </tr>
          </thead>
          <tbody>
            {visible.map((entry) => (
              <tr key={entry.code} id={`code-${entry.code}`} data-result-code={entry.code}>
                <td>
                  {/* Breaks only after an underscore: the Code column takes its longest word, and the catalogue fits 1280 px. */}
                  <code>
                    <BreakAfter text={entry.code} characters="_" />
                  </code>
                </td>
                <td data-label="HTTP" data-inline="">
                  {entry.httpStatus}
                </td>
                <td data-label="Message" data-inline="">
                  {entry.message}
                </td>
                <td>
                  <CodeSpans text={entry.meaning} />
                </td>
                <td data-label="Retry helps">{entry.retry ? 'Yes' : 'No'}</td>
                <td data-label="What to do">
                  <CodeSpans text={entry.action} />
                </td>
                <td data-label="Returned by">
                  {entry.scope === 'common'
                    ? 'Any call'
                    : entry.returnedBy.map((operation, index) => (
                        <span key={operation.operationId}>
                          {index > 0 && ', '}
                          <Link to={operation.url}>{operation.summary}</Link>
                        </span>
                      ))}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </TableScroller>
      {visible.length === 0 && <p>No code matches “{query}”. Try a shorter word or an HTTP status such as 409.</p>}
    </div>
  );
}
