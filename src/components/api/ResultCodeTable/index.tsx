import type {ReactNode} from 'react';
import Link from '@docusaurus/Link';
import type {ResultCodeView} from '@site/src/contract/apiModel';
import TableScroller from '@site/src/components/ui/TableScroller';
import styles from './styles.module.css';
import CodeSpans from '@site/src/components/ui/CodeSpans';
import BreakAfter from '@site/src/components/ui/BreakAfter';

/** The response codes one operation can return: its own first, then those every call can return. */
export default function ResultCodeTable({codes}: {codes: readonly ResultCodeView[]}): ReactNode {
  const ordered = [...codes.filter((code) => !code.common), ...codes.filter((code) => code.common)];
  return (
    <TableScroller label="Response codes of this call" cardsOnPhone className={styles.wrapper}>
      <table className={styles.table}>
        <caption className={styles.caption}>
          Codes this call can return. Codes marked <em>all calls</em> can come from any call; the{' '}
          <Link to="/docs/response-code">response code catalogue</Link> lists every code.
        </caption>
        <thead>
          <tr>
            <th scope="col">Code</th>
            <th scope="col">HTTP</th>
            <th scope="col">Retry helps</th>
            <th scope="col">Meaning and what to do</th>
          </tr>
        </thead>
        <tbody>
          {ordered.map((code) => (
            <tr key={code.code} data-result-code={code.code}>
              <td>
                {/* The code may wrap after an underscore, so the table fits an API page's text column beside the pane. */}
                <code>
                  <BreakAfter text={code.code} characters="_" />
                </code>
                {code.common && <span className={styles.common}>all calls</span>}
              </td>
              <td data-label="HTTP" data-inline="">
                {code.httpStatus}
              </td>
              <td data-label="Retry helps" data-inline="">
                {code.retry ? 'Yes' : 'No'}
              </td>
              <td>
                <CodeSpans text={code.meaning} />{' '}
                <strong>
                  <CodeSpans text={code.action} />
                </strong>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </TableScroller>
  );
}
