import type {ReactNode} from 'react';
import Tabs from '@theme/Tabs';
import TabItem from '@theme/TabItem';
import CodeBlock from '@theme/CodeBlock';
import type {PageExampleView} from '@site/src/contract/apiModel';

/** The contract's examples for a body, one tab each, as JSON. */
export default function ExampleTabs({examples, label}: {examples: readonly PageExampleView[]; label: string}): ReactNode {
  if (examples.length === 0) return null;
  if (examples.length === 1) {
    const [only] = examples;
    return only ? (
      <CodeBlock language="json" title={`${label}: ${only.summary}`}>
        {only.json}
      </CodeBlock>
    ) : null;
  }
  // lazy: only the example in view is rendered and hydrated.
  return (
    <Tabs lazy>
      {examples.map((example) => (
        <TabItem key={example.name} value={example.name} label={example.summary}>
          <CodeBlock language="json" title={`${label}: ${example.summary}`}>
            {example.json}
          </CodeBlock>
        </TabItem>
      ))}
    </Tabs>
  );
}
