import type {ReactNode} from 'react';
import {formatSeconds, formatTotalSeconds} from '@site/src/lib/sandboxDataText';
import type {SandboxPageData} from '@site/src/sandbox/engine/rules/types';
import SandboxTable, {requireSandboxData} from '../SandboxTable';

const sum = (values: readonly number[]) => values.reduce((total, value) => total + value, 0);

/** The notification retry schedule, in production and compressed, attempt by attempt. */
export default function SandboxRetrySchedule({data: given}: {data: SandboxPageData<'notifications'>}): ReactNode {
  const data = requireSandboxData(given, 'SandboxRetrySchedule');
  const {retryScheduleSeconds, compressedRetryScheduleSeconds} = data.notifications;
  const attempts = retryScheduleSeconds.length + 1;
  return (
    <SandboxTable
      label="Notification retry schedule"
      caption={`Notification delivery: ${attempts} attempts, each after the previous one failed`}
      columns={['Attempt', 'Production schedule', 'Compressed schedule']}
    >
      <tr>
        <th scope="row">1</th>
        <td>At once</td>
        <td>At once</td>
      </tr>
      {retryScheduleSeconds.map((seconds, index) => (
        <tr key={index}>
          <th scope="row">{index + 2}</th>
          <td>After {formatSeconds(seconds)}</td>
          <td>After {formatSeconds(compressedRetryScheduleSeconds[index] ?? 0)}</td>
        </tr>
      ))}
      <tr>
        <th scope="row">In all</th>
        <td>{formatTotalSeconds(sum(retryScheduleSeconds))}</td>
        <td>{formatTotalSeconds(sum(compressedRetryScheduleSeconds))}</td>
      </tr>
    </SandboxTable>
  );
}
