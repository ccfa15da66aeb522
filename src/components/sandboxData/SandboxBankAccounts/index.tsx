import type {ReactNode} from 'react';
import type {Outcome, SandboxPageData} from '@site/src/sandbox/engine/rules/types';
import CodeSpans from '@site/src/components/ui/CodeSpans';
import OutcomeText from '../OutcomeText';
import SandboxTable, {requireSandboxData} from '../SandboxTable';

type Data = SandboxPageData<'bankAccounts'>;

/** Beneficiary accounts for Transfer to bank and Get IBAN holder name, then the rules for any other account. */
export default function SandboxBankAccounts({data: given}: {data: Data}): ReactNode {
  const data = requireSandboxData(given, 'SandboxBankAccounts');
  const {accounts, unknownAccount, invalidIban, nameMismatch, currencyMismatch} = data.bankAccounts;
  const rules: Array<[ReactNode, Outcome]> = [
    ['Any other IBAN with valid check digits, or any other account number', unknownAccount],
    ['Any IBAN with wrong check digits', invalidIban],
    ['A beneficiary name other than the holder name', nameMismatch],
    [
      <>
        A <code>destinationCurrency</code> other than the account&apos;s currency
      </>,
      currencyMismatch,
    ],
  ];
  return (
    <SandboxTable
      label="Bank accounts for payouts"
      caption="Bank accounts for payouts"
      columns={['IBAN', 'Holder name', 'Country, currency', 'Lookup returns', 'Transfer to bank']}
    >
      {accounts.map((account) => (
        <tr key={account.iban}>
          <th scope="row">
            <code>{account.iban}</code>
            {account.accountNumber ? (
              <>
                {' '}
                (also account number <code>{account.accountNumber}</code>, sort code <code>{account.routingCode}</code>)
              </>
            ) : null}
          </th>
          <td>{account.holderName ?? 'None'}</td>
          <td>
            {account.country}, {account.currency}
          </td>
          <td>
            {account.bankName && account.bic ? (
              <>
                {account.bankName}, BIC <code>{account.bic}</code>
              </>
            ) : (
              <>
                Rejected with <code>{account.behavior.resultCode}</code>
              </>
            )}
          </td>
          <td>
            {account.behavior.note ? (
              <>
                <CodeSpans text={account.behavior.note} />{' '}
              </>
            ) : null}
            <OutcomeText outcome={account.behavior} operations={data.operations} operation="transferToBank" />
          </td>
        </tr>
      ))}
      {rules.map(([label, outcome], index) => (
        <tr key={index}>
          <th scope="row">{label}</th>
          <td colSpan={4}>
            <OutcomeText outcome={outcome} operations={data.operations} operation="transferToBank" />
          </td>
        </tr>
      ))}
    </SandboxTable>
  );
}
