/**
 * The console's read-outs: the balance cards, and the tables of objects with their amounts aligned on the
 * last digit and a link that opens each object in Try it. Below 600 px the rows read as cards (TableScroller).
 */
import type {ReactNode} from 'react';
import Link from '@docusaurus/Link';
import TableScroller from '@site/src/components/ui/TableScroller';
import BreakAfter from '@site/src/components/ui/BreakAfter';
import type {Balance, Cell, Money, Row} from './view';
import styles from './styles.module.css';

function Amount({money}: {money: Money}): ReactNode {
  return (
    <span className={styles.amount}>
      <span className={styles.figure}>{money.figure}</span> <span className={styles.currency}>{money.currency}</span>
    </span>
  );
}

const isMoney = (cell: Cell): cell is Money => typeof cell !== 'string';
/** An ISO timestamp may wrap between its date and its time, so a table of them fits the console's width. */
const isTimestamp = (cell: string): boolean => /^\d{4}-\d{2}-\d{2}T[\d:.]+Z$/.test(cell);

export function Table({
  label,
  columns,
  rows,
  empty,
}: {
  label: string;
  columns: readonly string[];
  rows: readonly Row[];
  empty: ReactNode;
}): ReactNode {
  if (rows.length === 0) return <p className={styles.empty}>{empty}</p>;
  // A column is money when its cells are: its heading aligns with them.
  const moneyColumn = columns.map((_, index) => rows.some((row) => isMoney(row.cells[index] ?? '')));
  const opens = rows.some((row) => row.open);
  return (
    <TableScroller label={label} cardsOnPhone>
      <table className={styles.table}>
        <thead>
          <tr>
            {columns.map((column, index) => (
              <th key={column} scope="col" className={moneyColumn[index] ? styles.money : undefined}>
                {column}
              </th>
            ))}
            {opens ? (
              <th scope="col">
                <span className="sr-only">Open</span>
              </th>
            ) : null}
          </tr>
        </thead>
        <tbody>
          {rows.map((row) => (
            <tr key={row.key}>
              {row.cells.map((cell, index) => (
                <td
                  key={columns[index]}
                  className={
                    moneyColumn[index]
                      ? styles.money
                      : index === 1
                        ? styles.state
                        : typeof cell === 'string' && isTimestamp(cell)
                          ? styles.time
                          : undefined
                  }
                  data-label={columns[index]}
                >
                  {isMoney(cell) ? <Amount money={cell} /> : isTimestamp(cell) ? <BreakAfter text={cell} characters="T" /> : cell}
                </td>
              ))}
              {opens ? (
                <td data-label="Open" className={styles.open}>
                  {row.open ? (
                    <Link
                      to={row.open.href}
                      aria-label={`${row.open.summary} ${typeof row.cells[0] === 'string' ? row.cells[0] : row.key} in Try it`}
                    >
                      Open in Try it
                    </Link>
                  ) : null}
                </td>
              ) : null}
            </tr>
          ))}
        </tbody>
      </table>
    </TableScroller>
  );
}

/** One card per currency: what can be paid out now first, then what is on its way and what is held. */
export function BalanceCards({balances}: {balances: readonly Balance[]}): ReactNode {
  if (balances.length === 0) return <p className={styles.empty}>No balances.</p>;
  return (
    <ul className={styles.balances} aria-label="Balances">
      {balances.map((balance) => (
        <li key={balance.currency} className={styles.balance}>
          <p className={styles.balanceCurrency}>{balance.currency}</p>
          <dl>
            <dt>Available</dt>
            <dd className={styles.available}>
              <Amount money={balance.available} />
            </dd>
            <dt>Pending</dt>
            <dd>
              <Amount money={balance.pending} />
            </dd>
            <dt>Frozen</dt>
            <dd>
              <Amount money={balance.frozen} />
            </dd>
          </dl>
        </li>
      ))}
    </ul>
  );
}
