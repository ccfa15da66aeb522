import {createElement, type ComponentProps, type ReactNode} from 'react';
import {useMDXComponents} from '@mdx-js/react';
import type ThemeAdmonition from '@theme/Admonition';
import Tabs from '@theme/Tabs';
import TabItem from '@theme/TabItem';
import CodeBlock from '@theme/CodeBlock';
import {brand} from '@site/src/brand';
// The environment alone, not the sample generators of '@site/src/lib/samples', which run at build time, nor the
// helpers of its types module.
import {sampleEnvironment as env} from '@site/src/lib/samples/environment';
import PageSampleCode, {type PageSample} from './pageSample';

/** Where the site publishes the test keys (api/test-vectors/, copied beside the site by the contract plugin). */
const testKeys = '/test-vectors/';

/**
 * The theme's Admonition, taken from the MDX components the page renders with rather than imported. The DocItem
 * chunk carries it already (the theme's MDXComponents maps `:::info` to it); an import here put a second copy in
 * the API pages' own chunks, which load beside that one (1.7 KB Brotli of their first load).
 */
function Admonition(props: ComponentProps<typeof ThemeAdmonition>): ReactNode {
  const {admonition} = useMDXComponents() as {admonition?: typeof ThemeAdmonition};
  // Only a page outside MDX content gets here, and the build renders every page, so this fails the build.
  if (!admonition) throw new Error('CodeSamples must render inside MDX content, whose components map `admonition`.');
  return createElement(admonition, props);
}

/** What a reader needs to run a request sample as it is, and what never to do with a real key. */
function RequestNote(): ReactNode {
  return (
    <Admonition type="info" title="Ready to run in the sandbox">
      <p>
        Each sample runs as you copy it: it sends to <code>{env.host.default}</code> and signs as the shared sandbox test merchant{' '}
        <code>{brand.sandboxClientId}</code> (key version {env.keyVersion.default}) with that merchant&rsquo;s private key, which it holds
        in its code. That key is public test material, published with the provider&rsquo;s test key at{' '}
        <a href={`${testKeys}merchant-test-private.pem`}>{testKeys}</a>: anyone can sign as this merchant, and it works only in the
        sandbox. To run a sample against the local sandbox, set <code>{env.host.name}=http://127.0.0.1:4010</code>.
      </p>
      <p>
        Never put a real private key in code. For your own merchant, set <code>{env.clientId.name}</code>, <code>{env.privateKey.name}</code>{' '}
        (a key file kept out of source control) and <code>{env.providerKeys.name}</code>: the embedded test keys are then not used, and
        without provider keys the sample refuses to run.
      </p>
    </Admonition>
  );
}

/** What a notification handler needs before it accepts the sandbox's deliveries. */
function NotificationNote(): ReactNode {
  return (
    <Admonition type="info" title="Trusting the sandbox's test key">
      <p>
        A handler trusts no provider key by default, so a deployment that forgets its keys accepts nothing. While you test against the
        sandbox, give it the published provider test key: <code>{env.providerKeys.sandboxValue}</code>, with{' '}
        <a href={`${testKeys}provider-test-public.pem`}>provider-test-public.pem</a> beside it. In production, list the keys the provider
        announces instead, and never the test key.
      </p>
    </Admonition>
  );
}

/**
 * One sample per language in a tab group shared by every API page, so the
 * reader's language choice follows them from page to page.
 */
export default function CodeSamples({samples, kind}: {samples: readonly PageSample[]; kind: 'request' | 'notification'}): ReactNode {
  return (
    <>
      {kind === 'request' ? <RequestNote /> : <NotificationNote />}
      {/* lazy: only the chosen language is rendered and hydrated; the others render when picked. */}
      <Tabs groupId="code-language" queryString="language" lazy>
        {samples.map((sample) => (
          <TabItem key={sample.language} value={sample.language} label={sample.label}>
            <PageSampleCode
              sample={sample}
              render={(code) => (
                <CodeBlock language={sample.highlight} title={sample.fileName} showLineNumbers>
                  {code}
                </CodeBlock>
              )}
            />
          </TabItem>
        ))}
      </Tabs>
    </>
  );
}
