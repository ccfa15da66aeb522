import type {ReactNode} from 'react';
import Link from '@docusaurus/Link';
import CopyButton from '@site/src/components/ui/CopyButton';
import {Card, CardGrid} from '@site/src/components/ui/CardGrid';
import CodeSpans from '@site/src/components/ui/CodeSpans';
import {requireSandboxData} from '../SandboxTable';
import {testValues, type TestValue, type TestValueData, type TestValueGroup} from './testValues';
import styles from './styles.module.css';

const groupNames: Readonly<Record<TestValueGroup, string>> = {
  cards: 'Test cards for payments',
  wallets: 'Test wallets',
  ibans: 'IBANs',
  paymentEndings: 'Amount endings of payments',
  refundEndings: 'Amount endings of refunds',
  payoutEndings: 'Amount endings of payouts',
  payoutCards: 'Cards for card payouts',
};

function Entry({entry}: {entry: TestValue}): ReactNode {
  const links = (
    <>
      {entry.demo ? (
        <Link to={entry.demo.href} aria-label={`${entry.demo.label}, with ${entry.value}`}>
          {entry.demo.label}
        </Link>
      ) : null}
      {entry.tryIt ? (
        <Link to={entry.tryIt.href} aria-label={`${entry.tryIt.label}, with ${entry.value}`}>
          {entry.tryIt.label}
        </Link>
      ) : null}
      {!entry.tryIt && entry.noTryIt ? <span className={styles.note}>{entry.noTryIt}</span> : null}
    </>
  );
  return (
    <Card
      title={
        <div className={styles.valueRow}>
          <code className={styles.value}>{entry.value}</code>
          <CopyButton value={entry.value} />
        </div>
      }
      actions={links}
    >
      <p className={styles.title}>{entry.title}</p>
      <p>
        <CodeSpans text={entry.does} />
      </p>
    </Card>
  );
}

/** One group of the sandbox's test values as cards, each with its copy button, its demo and its Try it link. */
export default function SandboxTestValues({data: given, group}: {data: TestValueData; group: TestValueGroup}): ReactNode {
  const data = requireSandboxData(given, 'SandboxTestValues');
  return (
    <CardGrid label={groupNames[group]} minWidth="19rem" data-test-values={group}>
      {testValues(data, group).map((entry) => (
        <Entry key={`${entry.value}-${entry.title}`} entry={entry} />
      ))}
    </CardGrid>
  );
}
