import type {ReactNode} from 'react';
import CodeBlock from '@theme/CodeBlock';
// Written at build time by plugins/content/openapi-contract from the curl sample template; tests/samples runs the same snippet.
import quickStart from '@generated/openapi-contract/quick-start.json';
import styles from './styles.module.css';

/** The shortest honest first call: a signed Create order against the sandbox. */
export default function QuickStart(): ReactNode {
  return (
    <div className={styles.quickStart}>
      <p className={styles.label}>Your first order in the sandbox</p>
      <CodeBlock language={quickStart.highlight} title={quickStart.fileName}>
        {quickStart.code}
      </CodeBlock>
    </div>
  );
}
