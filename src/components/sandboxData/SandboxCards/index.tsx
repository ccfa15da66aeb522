import type {ReactNode} from 'react';
import CodeSpans from '@site/src/components/ui/CodeSpans';
import {brandName, cardBehaviorText} from '@site/src/lib/sandboxDataText';
import type {SandboxPageData} from '@site/src/sandbox/engine/rules/types';
import SandboxTable, {requireSandboxData} from '../SandboxTable';

/** The cards the sandbox cashier and the in-app SDK accept. */
export default function SandboxCards({data: given}: {data: SandboxPageData<'cards'>}): ReactNode {
  const data = requireSandboxData(given, 'SandboxCards');
  return (
    <SandboxTable label="Test cards" caption="Test cards for payments" columns={['Card number', 'Brand', 'Behavior']}>
      {data.cards.cards.map((card) => (
        <tr key={card.number}>
          <th scope="row">
            <code>{card.number}</code>
          </th>
          <td>
            {brandName(card.brand)} {card.funding.toLowerCase()}
          </td>
          <td>
            <CodeSpans text={cardBehaviorText(card, data.cards.threeDSecure.failed.failureCode)} />
          </td>
        </tr>
      ))}
    </SandboxTable>
  );
}
