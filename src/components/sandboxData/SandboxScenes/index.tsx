import type {ReactNode} from 'react';
import {formatSeconds} from '@site/src/lib/sandboxDataText';
import type {SandboxPageData} from '@site/src/sandbox/engine/rules/types';
import SandboxTable, {requireSandboxData} from '../SandboxTable';

/** Where each scene's payment attempt happens, with which methods, and how long slow methods take to confirm. */
export default function SandboxScenes({data: given}: {data: SandboxPageData<'payments'>}): ReactNode {
  const data = requireSandboxData(given, 'SandboxScenes');
  const {scenes, methods} = data.payments;
  const methodRule = (method: string) => methods.find((candidate) => candidate.method === method);
  return (
    <SandboxTable
      label="Where each scene's payment is attempted"
      caption="Where each scene's payment is attempted, and how it confirms"
      columns={['Scene', 'Attempt', 'Methods and confirmation']}
    >
      {scenes.map((scene) => (
        <tr key={scene.scene}>
          <th scope="row">
            <code>{scene.scene}</code>
          </th>
          <td>
            {scene.attempt === 'CREATE_ORDER'
              ? 'Inside Create order: the response carries the result'
              : 'When the payer confirms: the result comes by notification'}
          </td>
          <td>
            {scene.methods.map((method, index) => {
              const seconds = methodRule(method)?.processingSeconds;
              return (
                <span key={method}>
                  {index > 0 ? ', ' : ''}
                  <code>{method}</code>
                  {seconds !== undefined ? ` (PROCESSING for ${formatSeconds(seconds)}, then paid)` : ''}
                </span>
              );
            })}
          </td>
        </tr>
      ))}
    </SandboxTable>
  );
}
