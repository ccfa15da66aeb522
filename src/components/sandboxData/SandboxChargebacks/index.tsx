import type {ReactNode} from 'react';
import {formatSeconds} from '@site/src/lib/sandboxDataText';
import type {SandboxPageData} from '@site/src/sandbox/engine/rules/types';
import OutcomeText, {EventList} from '../OutcomeText';
import SandboxTable, {requireSandboxData} from '../SandboxTable';

/** What a simulated chargeback does at each step. */
export default function SandboxChargebacks({data: given}: {data: SandboxPageData<'chargebacks'>}): ReactNode {
  const data = requireSandboxData(given, 'SandboxChargebacks');
  const {opened, resolutions, whileOpen, evidenceDueSeconds} = data.chargebacks;
  const steps = [
    {step: 'Simulate chargeback', ...opened},
    ...resolutions.map((resolution) => ({...resolution, step: `Resolve as ${resolution.resolution.toLowerCase()}`})),
  ];
  return (
    <SandboxTable
      label="Simulated chargebacks"
      caption={`Simulated chargebacks; evidence is due ${formatSeconds(evidenceDueSeconds)} after opening`}
      columns={['Step', 'Chargeback status', 'Notification', 'Balance']}
    >
      {steps.map((step) => (
        <tr key={step.step}>
          <th scope="row">{step.step}</th>
          <td>
            <code>{step.status}</code>
          </td>
          <td>
            <EventList events={step.events} />
          </td>
          <td>{step.balance}</td>
        </tr>
      ))}
      <tr>
        <th scope="row">Refund while open</th>
        <td colSpan={3}>
          <OutcomeText outcome={whileOpen} operations={data.operations} />
        </td>
      </tr>
    </SandboxTable>
  );
}
