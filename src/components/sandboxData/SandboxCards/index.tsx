import type {ReactNode} from 'react';
import {brandName} from '@site/src/lib/sandboxDataText';
import type {PaymentCard, SandboxPageData} from '@site/src/sandbox/engine/rules/types';
import SandboxTable, {requireSandboxData} from '../SandboxTable';

/** What a payment with the card does: its 3-D Secure step first (cards.threeDSecure), then its own behavior. */
export function CardBehavior({card, challengeFailure}: {card: PaymentCard; challengeFailure: string | undefined}): ReactNode {
  const enrolment = card.threeDSecure;
  if (enrolment?.flow === 'CHALLENGE' && enrolment.result === 'FAILED')
    return (
      <>
        3-D Secure challenge that fails: every attempt is declined with <code>{challengeFailure}</code> once the shopper answers it.
      </>
    );
  const before =
    enrolment?.flow === 'CHALLENGE'
      ? '3-D Secure challenge that passes with any code; then it follows the amount endings.'
      : enrolment?.flow === 'FRICTIONLESS'
        ? '3-D Secure without a challenge: the issuer authenticates it at once; then it follows the amount endings.'
        : undefined;
  if (before) return before;
  return card.behavior === 'ENDINGS' ? (
    'Follows the amount endings.'
  ) : (
    <>
      Every attempt is declined with <code>{card.behavior.failureCode}</code>, whatever the amount.
    </>
  );
}

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
            <CardBehavior card={card} challengeFailure={data.cards.threeDSecure.failed.failureCode} />
          </td>
        </tr>
      ))}
    </SandboxTable>
  );
}
