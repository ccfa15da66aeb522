import type {ReactNode} from 'react';
import type {IdempotencyRules as Rules} from '@site/src/contract/openapiTypes';
import TableScroller from '@site/src/components/ui/TableScroller';
import ContractText from '@site/src/components/ui/ContractText';
import styles from './styles.module.css';

/** The rules of x-idempotency other than the namespaces, in the order a reader needs them. */
const ruleOrder = [
  ['scope', 'Scope and retention'],
  ['comparison', 'How bodies are compared'],
  ['acceptedOnly', 'What a rejected request leaves behind'],
  ['replay', 'What a replay returns'],
  ['conflict', 'What a conflict does'],
  ['tombstone', 'The Revoke order tombstone'],
  ['withoutKey', 'Calls without a merchant number'],
] as const satisfies ReadonlyArray<readonly [Exclude<keyof Rules, 'namespaces'>, string]>;

/**
 * The contract's idempotency rules (x-idempotency): the merchant-number namespaces as a table,
 * then each rule under a plain-language name. Inlined at compile time by the contract's remark
 * plugin from `<IdempotencyRules />`.
 */
export default function IdempotencyRules({rules}: {rules: Rules}): ReactNode {
  return (
    <div data-contract-section="x-idempotency">
      <TableScroller label="Idempotency namespaces">
        <table className={styles.table}>
          <caption className={styles.caption}>The merchant numbers that make writes idempotent. Each is its own namespace.</caption>
          <thead>
            <tr>
              <th scope="col">Merchant number</th>
              <th scope="col">What it covers</th>
            </tr>
          </thead>
          <tbody>
            {rules.namespaces.map((namespace) => (
              <tr key={namespace.field} data-namespace={namespace.field}>
                <td>
                  <code>{namespace.field}</code>
                </td>
                <td>
                  <ContractText text={namespace.covers} />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </TableScroller>
      <dl className={styles.rules}>
        {ruleOrder.map(([key, label]) => (
          <div key={key} className={styles.rule} data-rule={key}>
            <dt>{label}</dt>
            <dd>
              <ContractText text={rules[key]} />
            </dd>
          </div>
        ))}
      </dl>
    </div>
  );
}
