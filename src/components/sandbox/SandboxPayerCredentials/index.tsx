import type {ReactNode} from 'react';
import type {SandboxPageData} from '@site/src/lib/sandbox/types';
import SandboxTable, {requireSandboxData} from '../SandboxTable';

/** The QR_PAY payment code and the DIRECT_PAY agreement token of each test wallet. */
export default function SandboxPayerCredentials({data: given}: {data: SandboxPageData<'paymentCodes' | 'agreementTokens' | 'wallets'>}): ReactNode {
  const data = requireSandboxData(given, 'SandboxPayerCredentials');
  const wallets = data.wallets.filter((wallet) => data.paymentCodes.codes.some((code) => code.wallet === wallet.phone) || data.agreementTokens.tokens.some((token) => token.wallet === wallet.phone));
  return (
    <SandboxTable
      label="Payment codes and agreement tokens"
      caption={
        <>
          Payment codes (<code>payerPaymentCode</code>) and agreement tokens (<code>payerAgreementToken</code>) of the test wallets
        </>
      }
      columns={['Wallet', 'QR_PAY payment code', 'DIRECT_PAY agreement token']}>
      {wallets.map((wallet) => {
        const code = data.paymentCodes.codes.find((entry) => entry.wallet === wallet.phone)?.code;
        const token = data.agreementTokens.tokens.find((entry) => entry.wallet === wallet.phone)?.token;
        return (
          <tr key={wallet.phone}>
            <th scope="row">
              <code>{wallet.phone}</code>
            </th>
            <td>{code ? <code>{code}</code> : 'None'}</td>
            <td>{token ? <code>{token}</code> : 'None'}</td>
          </tr>
        );
      })}
    </SandboxTable>
  );
}
