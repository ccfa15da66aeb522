import type {ReactNode} from 'react';
import type {StateMachineView} from '@site/src/contract/apiModel';
import TableScroller from '@site/src/components/ui/TableScroller';
import BreakAfter from '@site/src/components/ui/BreakAfter';

/** A state's name, which may wrap after an underscore (PARTIALLY_|REFUNDED) so the tables fit a narrow column. */
const State = ({name}: {name: string}) => (
  <code>
    <BreakAfter text={name} characters="_" />
  </code>
);

/** One of the two tables: its caption also names its scroll box. */
function CaptionedTable({caption, columns, children}: {caption: string; columns: readonly string[]; children: ReactNode}): ReactNode {
  return (
    <TableScroller label={caption} cardsOnPhone>
      <table>
        <caption style={{textAlign: 'left'}}>{caption}</caption>
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

/** States and transitions as tables, server-rendered beside the diagram so they are searchable. */
export default function StateMachineTable({machine}: {machine: StateMachineView}): ReactNode {
  return (
    <div data-state-machine={machine.schemaName}>
      <CaptionedTable caption={`States of ${machine.schemaName}`} columns={['State', 'Final', 'Meaning']}>
        {machine.states.map((state) => (
          <tr key={state.name}>
            <td>
              <State name={state.name} />
            </td>
            <td data-label="Final" data-inline="">
              {state.terminal ? 'Yes' : 'No'}
            </td>
            <td>{state.description}</td>
          </tr>
        ))}
      </CaptionedTable>
      <CaptionedTable caption={`Transitions of ${machine.schemaName}`} columns={['From', 'To', 'When']}>
        {machine.transitions.map((transition) => (
          <tr key={`${transition.from}-${transition.to}`}>
            <td data-label="From" data-inline="">
              <State name={transition.from} />
            </td>
            <td data-label="To" data-inline="">
              <State name={transition.to} />
            </td>
            <td>{transition.trigger}</td>
          </tr>
        ))}
      </CaptionedTable>
    </div>
  );
}
