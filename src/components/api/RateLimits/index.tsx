import type {ReactNode} from 'react';
import type {RateLimits as Limits} from '@site/src/contract/openapiTypes';
import ContractText from '@site/src/components/ui/ContractText';
import TableScroller from '@site/src/components/ui/TableScroller';
import styles from './styles.module.css';

/**
 * The contract's rate limits (x-rate-limits): one row per operation class with its production and
 * sandbox limit, then the response headers that report them. Inlined at compile time by the
 * contract's remark plugin from `<RateLimits />`.
 */
export default function RateLimits({limits}: {limits: Limits}): ReactNode {
  return (
    <div data-contract-section="x-rate-limits">
      <TableScroller label="Rate limits per class of call">
        <table className={styles.table}>
          <caption className={styles.caption}>Limits in {limits.unit}.</caption>
          <thead>
            <tr>
              <th scope="col">Class</th>
              <th scope="col" className={styles.number}>
                Production
              </th>
              <th scope="col" className={styles.number}>
                Sandbox
              </th>
              <th scope="col">Calls in the class</th>
            </tr>
          </thead>
          <tbody>
            {limits.classes.map((limit) => (
              <tr key={limit.name} data-rate-class={limit.name}>
                <th scope="row">{limit.name}</th>
                <td className={styles.number}>{limit.production}</td>
                <td className={styles.number}>{limit.sandbox}</td>
                <td>{limit.covers}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </TableScroller>
      <TableScroller label="Rate-limit response headers">
        <table className={styles.table}>
          <caption className={styles.caption}>Response headers that report your allowance.</caption>
          <thead>
            <tr>
              <th scope="col">Header</th>
              <th scope="col">Meaning</th>
            </tr>
          </thead>
          <tbody>
            {limits.headers.map((header) => (
              <tr key={header.name} data-rate-header={header.name}>
                <td>
                  <code>{header.name}</code>
                </td>
                <td>
                  <ContractText text={header.meaning} />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </TableScroller>
    </div>
  );
}
