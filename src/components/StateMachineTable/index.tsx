import type {ReactNode} from 'react';
import type {StateMachineView} from '@site/src/lib/apiModel';
import StaticMarkup from '@site/src/components/StaticMarkup';
import TableScroller from '@site/src/components/TableScroller';

/** States and transitions as tables, server-rendered beside the diagram so they are searchable. */
export default function StateMachineTable({machine}: {machine: StateMachineView}): ReactNode {
  return (
    // Static: kept as server-rendered instead of hydrated (see StaticMarkup).
    <StaticMarkup data-state-machine={machine.schemaName} data-render-when-idle="">
      <TableScroller label={`States of ${machine.schemaName}`}>
        <table>
          <caption style={{textAlign: 'left'}}>States of {machine.schemaName}</caption>
          <thead>
            <tr>
              <th scope="col">State</th>
              <th scope="col">Final</th>
              <th scope="col">Meaning</th>
            </tr>
          </thead>
          <tbody>
            {machine.states.map((state) => (
              <tr key={state.name}>
                <td>
                  <code>{state.name}</code>
                </td>
                <td>{state.terminal ? 'Yes' : 'No'}</td>
                <td>{state.description}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </TableScroller>
      <TableScroller label={`Transitions of ${machine.schemaName}`}>
        <table>
          <caption style={{textAlign: 'left'}}>Transitions of {machine.schemaName}</caption>
          <thead>
            <tr>
              <th scope="col">From</th>
              <th scope="col">To</th>
              <th scope="col">When</th>
            </tr>
          </thead>
          <tbody>
            {machine.transitions.map((transition) => (
              <tr key={`${transition.from}-${transition.to}`}>
                <td>
                  <code>{transition.from}</code>
                </td>
                <td>
                  <code>{transition.to}</code>
                </td>
                <td>{transition.trigger}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </TableScroller>
    </StaticMarkup>
  );
}
