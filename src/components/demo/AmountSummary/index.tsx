import type {ReactNode} from 'react';
import {fromMinorUnits, type CurrencyCode} from '@site/src/lib/money';
import styles from './styles.module.css';

/** An amount as the API carries it: integer minor units and an ISO 4217 currency (1250 USD is 12.50 USD). */
export interface DemoMoney {
  readonly value: number;
  readonly currency: CurrencyCode;
}

/** One line above the total, such as an item, shipping or a tax. */
export interface AmountLine {
  readonly label: string;
  readonly amount: DemoMoney;
}

export interface AmountSummaryProps {
  /** Who is paid, as the customer sees it. */
  readonly merchant?: string;
  /** What is paid for: the order's subject. */
  readonly subject?: string;
  /** Lines above the total. */
  readonly lines?: readonly AmountLine[];
  /** The amount to pay. */
  readonly total: DemoMoney;
  /** Label of the total line. Default "Total". */
  readonly totalLabel?: string;
}

/** Formats minor units for display, for example 1250 USD as "12.50 USD". Same output on server and client. */
export function formatMoney(money: DemoMoney): string {
  const sign = money.value < 0 ? '−' : '';
  return `${sign}${fromMinorUnits(Math.abs(Math.trunc(money.value)), money.currency)} ${money.currency}`;
}

/** The payee, what is being paid for, and the amount, as a cashier or wallet shows them. */
export default function AmountSummary({merchant, subject, lines = [], total, totalLabel = 'Total'}: AmountSummaryProps): ReactNode {
  return (
    <div className={styles.summary}>
      {merchant === undefined ? null : <p className={styles.merchant}>{merchant}</p>}
      {subject === undefined ? null : <p className={styles.subject}>{subject}</p>}
      <dl className={styles.lines}>
        {lines.map((line, index) => (
          <div key={`${index}-${line.label}`} className={styles.line}>
            <dt>{line.label}</dt>
            <dd>{formatMoney(line.amount)}</dd>
          </div>
        ))}
        <div className={`${styles.line} ${styles.total}`}>
          <dt>{totalLabel}</dt>
          <dd>{formatMoney(total)}</dd>
        </div>
      </dl>
    </div>
  );
}
