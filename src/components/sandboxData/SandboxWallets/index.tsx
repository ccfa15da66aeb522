import type {ReactNode} from 'react';
import CodeSpans from '@site/src/components/ui/CodeSpans';
import {formatMoney} from '@site/src/lib/sandboxDataText';
import type {SandboxPageData, Wallet} from '@site/src/sandbox/engine/rules/types';
import SandboxTable, {requireSandboxData} from '../SandboxTable';

function Behavior({wallet, rules}: {wallet: Wallet; rules: SandboxPageData<'walletRules'>['walletRules']}): ReactNode {
  if (wallet.status === 'FROZEN') {
    return (
      <>
        <CodeSpans text={wallet.note} /> Payments are declined with <code>{rules.payments.frozen.failureCode}</code>. Transfers to it are
        accepted, then end <code>FAILED</code> with <code>{rules.transfers.frozen.failureCode}</code> after{' '}
        {rules.transfers.frozen.processingSeconds} seconds.
      </>
    );
  }
  return (
    <>
      <CodeSpans text={wallet.note} /> Payments in {wallet.currency} up to {formatMoney(wallet.balance, wallet.currency)} follow the amount
      endings; a larger payment, or one in another currency, is declined with <code>{rules.payments.insufficientBalance.failureCode}</code>.
      Receives transfers in {wallet.currency}.
    </>
  );
}

/** The test wallets: how to sign in, their IDs and balances, and what each does. */
export default function SandboxWallets({data: given}: {data: SandboxPageData<'wallets' | 'walletRules'>}): ReactNode {
  const data = requireSandboxData(given, 'SandboxWallets');
  return (
    <SandboxTable label="Test wallets" caption="Test wallets" columns={['Phone number', 'PIN', 'Wallet ID', 'Balance', 'Behavior']}>
      {data.wallets.map((wallet) => (
        <tr key={wallet.phone}>
          <th scope="row">
            <code>{wallet.phone}</code>
          </th>
          <td>
            <code>{wallet.pin}</code>
          </td>
          <td>
            <code>{wallet.walletId}</code>
          </td>
          <td>
            {formatMoney(wallet.balance, wallet.currency)}
            {wallet.status === 'FROZEN' ? ', frozen' : ''}
          </td>
          <td>
            <Behavior wallet={wallet} rules={data.walletRules} />
          </td>
        </tr>
      ))}
    </SandboxTable>
  );
}
