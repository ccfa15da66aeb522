import type {ReactNode} from 'react';
import {formatMoney} from '@site/src/lib/sandboxDataText';
import {paymentFee} from '@site/src/sandbox/engine/rules/rules';
import type {SandboxPageData} from '@site/src/sandbox/engine/rules/types';
import SandboxTable, {requireSandboxData} from '../SandboxTable';

const payoutNames = {
  WALLET: 'Transfer to wallet',
  BANK: 'Transfer to bank, same currency',
  BANK_CROSS_CURRENCY: 'Transfer to bank, another destination currency',
  CARD: 'Transfer to bank card',
} as const;

/** A worked payment fee in the first payment currency: amount, fee and net amount as a paid order reports them. */
const exampleAmount = 1250;

/** The sandbox's fees: the payment fee rule with a worked example, and the flat payout fees by source currency. */
export default function SandboxPricing({data: given}: {data: SandboxPageData<'pricing' | 'currencies'>}): ReactNode {
  const data = requireSandboxData(given, 'SandboxPricing');
  const {pricing} = data;
  const currencies = data.currencies.payouts;
  const exampleCurrency = data.currencies.payments[0] ?? 'USD';
  const exampleFee = paymentFee(data, exampleAmount);
  const percent = (pricing.paymentFeeBasisPoints / 100).toLocaleString('en-US', {maximumFractionDigits: 2});
  return (
    <>
      <SandboxTable label="Payment fee" caption="Fee on a payment, in the order's currency" columns={['Rule', 'Value']}>
        <tr>
          <th scope="row">Payment fee</th>
          <td>
            {percent}% of <code>amount.value</code> ({pricing.paymentFeeBasisPoints} basis points), rounded up to the next minor unit, taken
            when the order is paid
          </td>
        </tr>
        <tr>
          <th scope="row">Example</th>
          <td>
            An order of {formatMoney(exampleAmount, exampleCurrency)} (<code>{exampleAmount}</code>) reports <code>fee</code>{' '}
            <code>{exampleFee}</code> and <code>netAmount</code> <code>{exampleAmount - exampleFee}</code>; its PAYMENT row has{' '}
            <code>fee_amount</code> <code>{-exampleFee}</code> and <code>net_amount</code> <code>{exampleAmount - exampleFee}</code>
          </td>
        </tr>
        <tr>
          <th scope="row">Settlement</th>
          <td>
            The net amount is in <code>pending</code>, and moves to <code>available</code> {pricing.settlementDays}{' '}
            {pricing.settlementDays === 1 ? 'day' : 'days'} after the payment day (UTC)
          </td>
        </tr>
      </SandboxTable>
      <SandboxTable
        label="Payout fees"
        caption="Flat fee per payout, in its source currency, on top of the amount"
        columns={['Payout', ...currencies]}
      >
        {(Object.keys(payoutNames) as Array<keyof typeof payoutNames>).map((product) => (
          <tr key={product}>
            <th scope="row">{payoutNames[product]}</th>
            {currencies.map((currency) => (
              <td key={currency}>{formatMoney(pricing.payoutFees[product][currency] ?? 0, currency)}</td>
            ))}
          </tr>
        ))}
      </SandboxTable>
    </>
  );
}
