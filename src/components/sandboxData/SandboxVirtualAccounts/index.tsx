import type {ReactNode} from 'react';
import {formatSeconds} from '@site/src/lib/sandboxDataText';
import type {SandboxPageData} from '@site/src/sandbox/engine/rules/types';
import {EventList} from '../OutcomeText';
import SandboxTable, {requireSandboxData} from '../SandboxTable';

/** The shared merchant's virtual accounts, which Simulate VAM top-up credits. */
export default function SandboxVirtualAccounts({data: given}: {data: SandboxPageData<'virtualAccounts'>}): ReactNode {
  const data = requireSandboxData(given, 'SandboxVirtualAccounts');
  const {accounts, creditSeconds, creditedTo, events} = data.virtualAccounts;
  return (
    <SandboxTable
      label="Virtual accounts"
      caption={
        <>
          Virtual accounts: a simulated top-up is credited to your <code>{creditedTo}</code> balance after {formatSeconds(creditSeconds)}{' '}
          and sent as <EventList events={events} />
        </>
      }
      columns={['IBAN', 'Virtual account ID', 'Customer reference', 'Currency']}
    >
      {accounts.map((account) => (
        <tr key={account.iban}>
          <th scope="row">
            <code>{account.iban}</code>
          </th>
          <td>
            <code>{account.virtualAccountId}</code>
          </td>
          <td>
            <code>{account.customerReference}</code>
          </td>
          <td>{account.currency}</td>
        </tr>
      ))}
    </SandboxTable>
  );
}
