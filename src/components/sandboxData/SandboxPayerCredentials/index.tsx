import type {ReactNode} from 'react';
import type {SandboxPageData} from '@site/src/sandbox/engine/rules/types';
import SandboxTable, {requireSandboxData} from '../SandboxTable';

/** The QR_PAY payment code, the DIRECT_PAY agreement token and the JSAPI auth code of each test wallet. */
export default function SandboxPayerCredentials({
  data: given,
}: {
  data: SandboxPageData<'paymentCodes' | 'agreementTokens' | 'walletAuthCodes' | 'wallets'>;
}): ReactNode {
  const data = requireSandboxData(given, 'SandboxPayerCredentials');
  const credentialsOf = (phone: string) => ({
    code: data.paymentCodes.codes.find((entry) => entry.wallet === phone)?.code,
    token: data.agreementTokens.tokens.find((entry) => entry.wallet === phone)?.token,
    auth: data.walletAuthCodes.codes.find((entry) => entry.wallet === phone),
  });
  const wallets = data.wallets.filter((wallet) => Object.values(credentialsOf(wallet.phone)).some((value) => value !== undefined));
  return (
    <SandboxTable
      label="Payment codes, agreement tokens and auth codes"
      caption={
        <>
          Payment codes (<code>payerPaymentCode</code>), agreement tokens (<code>payerAgreementToken</code>) and wallet auth codes (
          <code>authCode</code>, with the <code>payerWalletUserId</code> each is exchanged for) of the test wallets
        </>
      }
      columns={['Wallet', 'QR_PAY payment code', 'DIRECT_PAY agreement token', 'JSAPI auth code and user ID']}
    >
      {wallets.map((wallet) => {
        const {code, token, auth} = credentialsOf(wallet.phone);
        return (
          <tr key={wallet.phone}>
            <th scope="row">
              <code>{wallet.phone}</code>
            </th>
            <td>{code ? <code>{code}</code> : 'None'}</td>
            <td>{token ? <code>{token}</code> : 'None'}</td>
            <td>
              {auth ? (
                <>
                  <code>{auth.code}</code> gives <code>{auth.userId}</code>
                </>
              ) : (
                'None'
              )}
            </td>
          </tr>
        );
      })}
    </SandboxTable>
  );
}
