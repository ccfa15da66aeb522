import type {ReactNode} from 'react';
import CodeBlock from '@theme/CodeBlock';
// Written at build time by plugins/content/openapi-contract from the curl sample template; tests/samples runs the same snippet.
import quickStart from '@generated/openapi-contract/quick-start.json';
import styles from './styles.module.css';

/**
 * The shortest honest first call, the whole script: a signed Create order against the sandbox. Shown in the
 * integration guide's "Your first order" (docs/general/integration-guide.mdx imports it).
 */
export default function QuickStart(): ReactNode {
  return (
    <div className={styles.quickStart}>
      <CodeBlock language={quickStart.highlight} title={quickStart.fileName}>
        {quickStart.code}
      </CodeBlock>
    </div>
  );
}
