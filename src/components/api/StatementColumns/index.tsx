import type {ReactNode} from 'react';
import CodeSpans from '@site/src/components/ui/CodeSpans';
import TableScroller from '@site/src/components/ui/TableScroller';
import type {StatementColumn} from '@site/src/contract/openapiTypes';

/** The columns of the reconciliation statement file, in file order. */
export default function StatementColumns({columns}: {columns: readonly StatementColumn[]}): ReactNode {
  return (
    <TableScroller label="Statement file columns">
      <table>
        <caption style={{textAlign: 'left'}}>Statement file columns, in order</caption>
        <thead>
          <tr>
            <th scope="col">#</th>
            <th scope="col">Column</th>
            <th scope="col">Type</th>
            <th scope="col">Example</th>
            <th scope="col">Meaning</th>
          </tr>
        </thead>
        <tbody>
          {columns.map((column, index) => (
            <tr key={column.name} data-column={column.name}>
              <td>{index + 1}</td>
              <td>
                <code>{column.name}</code>
              </td>
              <td>{column.type}</td>
              <td>
                <code>{column.example}</code>
              </td>
              <td>
                <CodeSpans text={column.meaning} />
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </TableScroller>
  );
}
