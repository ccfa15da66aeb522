import type {ReactNode} from 'react';
import type {StateMachineView} from '@site/src/lib/apiModel';

/** States and transitions as tables, server-rendered beside the diagram so they are searchable. */
export default function StateMachineTable({machine}: {machine: StateMachineView}): ReactNode {
  return (
    <div data-state-machine={machine.schemaName}>
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
    </div>
  );
}
