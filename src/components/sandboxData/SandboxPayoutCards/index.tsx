import type {ReactNode} from 'react';
import {brandName} from '@site/src/lib/sandboxDataText';
import type {Eligibility, SandboxPageData} from '@site/src/sandbox/engine/rules/types';
import CodeSpans from '@site/src/components/ui/CodeSpans';
import OutcomeText from '../OutcomeText';
import SandboxTable, {requireSandboxData} from '../SandboxTable';

function EligibilityText({eligibility}: {eligibility: Eligibility}): ReactNode {
  return eligibility.eligible ? (
    <>
      Eligible, <code>{eligibility.fundsAvailability}</code>
    </>
  ) : (
    <>
      Not eligible, <code>{eligibility.reason}</code>
    </>
  );
}

/** Cards for Verify card payout eligibility and Transfer to bank card. */
export default function SandboxPayoutCards({data: given}: {data: SandboxPageData<'payoutCards'>}): ReactNode {
  const data = requireSandboxData(given, 'SandboxPayoutCards');
  const {cards, unknownCard, currencies} = data.payoutCards;
  return (
    <SandboxTable
      label="Cards for card payouts"
      caption={`Cards for card payouts, in ${currencies.join(', ')}`}
      columns={['Card number', 'Brand, issuer', 'Eligibility', 'Transfer to bank card']}
    >
      {cards.map((card) => (
        <tr key={card.number}>
          <th scope="row">
            <code>{card.number}</code>
          </th>
          <td>
            {brandName(card.brand)}, {card.issuerCountry}
          </td>
          <td>
            <EligibilityText eligibility={card.eligibility} />
          </td>
          <td>
            {card.payout.note ? (
              <>
                <CodeSpans text={card.payout.note} />{' '}
              </>
            ) : null}
            <OutcomeText outcome={card.payout} operations={data.operations} operation="transferToBankCard" />
          </td>
        </tr>
      ))}
      <tr>
        <th scope="row">Any other card</th>
        <td>Any</td>
        <td>
          <EligibilityText eligibility={unknownCard.eligibility} />
        </td>
        <td>
          <OutcomeText outcome={unknownCard.payout} operations={data.operations} operation="transferToBankCard" />
        </td>
      </tr>
    </SandboxTable>
  );
}
