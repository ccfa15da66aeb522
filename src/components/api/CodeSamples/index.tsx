import type {ReactNode} from 'react';
import Tabs from '@theme/Tabs';
import TabItem from '@theme/TabItem';
import CodeBlock from '@theme/CodeBlock';
import type {RenderedSample} from '@site/src/lib/samples';

/**
 * One sample per language in a tab group shared by every API page, so the
 * reader's language choice follows them from page to page.
 */
export default function CodeSamples({samples}: {samples: readonly RenderedSample[]}): ReactNode {
  return (
    // lazy: only the chosen language is rendered and hydrated; the others render when picked.
    <Tabs groupId="code-language" queryString="language" lazy>
      {samples.map((sample) => (
        <TabItem key={sample.language} value={sample.language} label={sample.label}>
          <CodeBlock language={sample.highlight} title={sample.fileName} showLineNumbers>
            {sample.code}
          </CodeBlock>
        </TabItem>
      ))}
    </Tabs>
  );
}
