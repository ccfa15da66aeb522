import type {ReactNode} from 'react';
import {currencyExponents, isCurrencyCode} from '@site/src/lib/money';
import {formatMoney} from '@site/src/lib/sandboxDataText';
import type {SandboxPageData} from '@site/src/sandbox/engine/rules/types';
import SandboxTable, {requireSandboxData} from '../SandboxTable';

/** "none (whole units)", "2", "3": the currency's minor-unit exponent, in words a reader checks their code against. */
function decimalPlaces(currency: string): string {
  if (!isCurrencyCode(currency)) return 'unknown';
  const exponent = currencyExponents[currency];
  return exponent === 0 ? 'None: whole units' : String(exponent);
}

/** The currencies the sandbox merchant takes, what each may be used for, and its starting balance. */
export default function SandboxCurrencies({data: given}: {data: SandboxPageData<'currencies' | 'merchant'>}): ReactNode {
  const data = requireSandboxData(given, 'SandboxCurrencies');
  const {payments, payouts} = data.currencies;
  const starting = new Map(
    data.merchant.balances.map((balance) => [balance.currency, balance.available + balance.pending + balance.frozen]),
  );
  return (
    <SandboxTable
      label="Enabled currencies"
      caption="Currencies of every sandbox merchant"
      columns={['Currency', 'Decimal places', 'Orders and refunds', 'Payouts and quotes', 'Starting balance']}
    >
      {payments.map((currency) => (
        <tr key={currency}>
          <th scope="row">{currency}</th>
          <td>{decimalPlaces(currency)}</td>
          <td>Yes</td>
          <td>{payouts.includes(currency) ? 'Yes' : 'No'}</td>
          <td>{formatMoney(starting.get(currency) ?? 0, currency)}</td>
        </tr>
      ))}
    </SandboxTable>
  );
}
