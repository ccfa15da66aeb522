import {useId, useState, type ReactNode} from 'react';
import {currencyExponents, isCurrencyCode, toMinorUnits, type CurrencyCode} from '@site/src/lib/money';
import Callout from '@site/src/components/ui/Callout';
import Field from '@site/src/components/ui/Field';
import styles from './styles.module.css';

const currencies = Object.keys(currencyExponents).filter(isCurrencyCode);

/** Converts a typed amount into the integer the API's `amount` field takes. */
export default function MinorUnitsConverter(): ReactNode {
  const id = useId();
  const [currency, setCurrency] = useState<CurrencyCode>('USD');
  const [amount, setAmount] = useState('12.34');
  const result = toMinorUnits(amount, currency);

  return (
    <form className={styles.converter} onSubmit={(event) => event.preventDefault()} aria-label="Minor units converter">
      <Field id={`${id}-currency`} label="Currency">
        <select
          id={`${id}-currency`}
          value={currency}
          onChange={(event) => {
            if (isCurrencyCode(event.target.value)) setCurrency(event.target.value);
          }}
        >
          {currencies.map((code) => (
            <option key={code} value={code}>
              {code} ({currencyExponents[code]} decimals)
            </option>
          ))}
        </select>
      </Field>
      <Field id={`${id}-amount`} label="Amount as the customer reads it">
        <input
          id={`${id}-amount`}
          inputMode="decimal"
          autoComplete="off"
          value={amount}
          aria-invalid={!result.ok}
          aria-describedby={`${id}-result`}
          onChange={(event) => setAmount(event.target.value)}
        />
      </Field>
      <output id={`${id}-result`} className={styles.result} aria-live="polite">
        {result.ok ? (
          <>
            Send <code>{`"amount": {"value": ${result.minorUnits}, "currency": "${currency}"}`}</code>
          </>
        ) : (
          <Callout tone="danger">{result.error}</Callout>
        )}
      </output>
    </form>
  );
}
