import type {ReactNode} from 'react';
import TableScroller from '@site/src/components/ui/TableScroller';
import styles from './styles.module.css';

/**
 * The data remarkSandboxData inlines into the page. MDX is not type-checked, so a page whose content
 * folder lacks the remark plugin would otherwise fail with an unhelpful TypeError while rendering.
 */
export function requireSandboxData<T>(data: T | undefined, component: string): T {
  if (data === undefined || data === null) {
    throw new Error(
      `<${component}> got no data: its page must be compiled with plugins/content/openapi-contract/remarkSandboxData (beforeDefaultRemarkPlugins of the content folder in docusaurus.config.ts).`,
    );
  }
  return data;
}

interface Props {
  /** Names the scroll region for screen readers. */
  readonly label: string;
  /** The visible caption: what the table lists. */
  readonly caption: ReactNode;
  /** Column headers, in order. */
  readonly columns: readonly string[];
  readonly children: ReactNode;
}

/**
 * The table every sandbox component renders: a labelled, keyboard-scrollable box (TableScroller)
 * around a captioned table with column headers. Static, like the API reference tables: the
 * browser keeps its server markup instead of hydrating it.
 */
export default function SandboxTable({label, caption, columns, children}: Props): ReactNode {
  return (
    <TableScroller label={label} className={styles.wrapper}>
      <table className={styles.table}>
        <caption className={styles.caption}>{caption}</caption>
        <thead>
          <tr>
            {columns.map((column) => (
              <th key={column} scope="col">
                {column}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>{children}</tbody>
      </table>
    </TableScroller>
  );
}
