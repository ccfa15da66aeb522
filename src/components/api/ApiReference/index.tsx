import {useId, useState, useSyncExternalStore, type ReactNode} from 'react';
import useIsBrowser from '@docusaurus/useIsBrowser';
import Tabs from '@theme/Tabs';
import TabItem from '@theme/TabItem';
import type {PageOperationView} from '@site/src/contract/apiModel';
import PageSampleCode, {type PageSample} from '../CodeSamples/pageSample';
import Button from '@site/src/components/ui/Button';
import MethodBadge from '../MethodBadge';
import LazyTryItPanel from '@site/src/components/widgets/TryItPanel/Lazy';
import {opensTryIt} from '@site/src/components/widgets/TryItPanel/prefillFromUrl';
import LazyNotificationSimulatorPanel from '@site/src/components/widgets/NotificationSimulatorPanel/Lazy';
import {endpointBlock, firstSuccessExample, openedPanels} from './model';
import styles from './styles.module.css';

/** The width from which the pane sits beside the text (styles.module.css's breakpoint). */
const wideQuery = '(min-width: 1100px)';

/**
 * Whether the two-pane layout applies. False on the server and during hydration, so the examples in the pane
 * are rendered in the browser only, for wide windows only: the page's HTML carries them once (in the
 * reference sections), and phones never build them.
 */
function useWideLayout(): boolean {
  return useSyncExternalStore(
    (onChange) => {
      const query = window.matchMedia(wideQuery);
      query.addEventListener('change', onChange);
      return () => query.removeEventListener('change', onChange);
    },
    () => window.matchMedia(wideQuery).matches,
    () => false,
  );
}

/**
 * Code in the pane, unhighlighted: the pane renders in the browser, where a highlighted block would fetch
 * Prism on every wide page load; the same code is highlighted in the page's own sections.
 */
function PaneCode({title, code}: {title: string; code: string}): ReactNode {
  return (
    <figure className={styles.code}>
      <figcaption>{title}</figcaption>
      <pre tabIndex={0} aria-label={title}>
        <code>{code}</code>
      </pre>
    </figure>
  );
}

interface Props {
  readonly operation: PageOperationView;
  readonly samples: readonly PageSample[];
  /** The operation's purpose in one line (inline HTML from the contract's description). */
  readonly purposeHtml: string;
  /** A notification's example scenarios, for the simulator. */
  readonly scenarios: readonly string[];
  /** The page: its prose and the reference sections. */
  readonly children: ReactNode;
}

/**
 * An API page, inserted around the whole page by the contract's remark plugin: the endpoint block (method,
 * path, sandbox host, purpose and a primary Try it) first, then the page; on wide screens a pane beside it
 * stays in view with the example request (in the reader's sample language) and response, and becomes the
 * open Try it panel or notification simulator. Below the wide breakpoint the pane shows only when open,
 * right under the endpoint block. The panels load when opened, as before.
 */
export default function ApiReference({operation, samples, purposeHtml, scenarios, children}: Props): ReactNode {
  const id = useId();
  // Disabled until hydrated: a press before React is listening would be lost without a word.
  const ready = useIsBrowser();
  const block = endpointBlock(operation);
  const key = `${block.panel}:${operation.operationId}`;
  // Undefined until the reader presses the opener: then a link with ?try-it (the console's objects,
  // prefillFromUrl.ts) opens Try it on arrival, once hydrated.
  const [chosen, setChosen] = useState<boolean | undefined>(() => (openedPanels.has(key) ? true : undefined));
  const open = chosen ?? (ready && block.panel === 'try-it' && opensTryIt(window.location.search));
  const toggle = () => {
    openedPanels.set(key, !open);
    setChosen(!open);
  };
  const wide = useWideLayout();
  const success = firstSuccessExample(operation);
  const notification = operation.requestExamples[0];
  return (
    <div className={styles.reference} data-api-reference={operation.operationId} data-open={open ? '' : undefined}>
      <div className={styles.endpoint} data-twin-skip="">
        <p className={styles.line}>
          <MethodBadge method={block.method} />
          <code className={styles.path}>{block.path}</code>
        </p>
        <p className={styles.purpose} dangerouslySetInnerHTML={{__html: purposeHtml}} />
        {block.sandboxUrl ? (
          <p className={styles.host}>
            Sandbox: <code>{block.sandboxUrl}</code>
          </p>
        ) : null}
        <Button variant="primary" size="lg" aria-expanded={open} aria-controls={`${id}-pane`} onClick={toggle} disabled={!ready}>
          {open ? block.closeLabel : block.openLabel}
        </Button>
      </div>
      <section id={`${id}-pane`} className={styles.pane} aria-label={open ? undefined : 'Example'} data-panel={open ? block.panel : undefined} data-api-pane="">
        {open ? (
          block.isWebhook ? (
            <LazyNotificationSimulatorPanel operationId={operation.operationId} scenarios={scenarios} />
          ) : (
            <LazyTryItPanel operationId={operation.operationId} />
          )
        ) : wide ? (
          <div className={styles.examples}>
            {block.isWebhook && notification ? <PaneCode title={`Notification: ${notification.summary}`} code={notification.json} /> : null}
            <p className={styles.paneLabel}>{block.isWebhook ? 'Your handler' : 'Request, signed with the test merchant’s key'}</p>
            {/* The page's tab group: choosing a language here or in the code samples switches both, on every API page. */}
            <Tabs groupId="code-language" queryString="language" lazy>
              {samples.map((sample) => (
                <TabItem key={sample.language} value={sample.language} label={sample.label}>
                  <PageSampleCode sample={sample} render={(code) => <PaneCode title={sample.fileName} code={code} />} />
                </TabItem>
              ))}
            </Tabs>
            {!block.isWebhook && success ? <PaneCode title={`Response: HTTP ${success.status}`} code={success.json} /> : null}
          </div>
        ) : null}
      </section>
      <div className={styles.main} data-api-main="">
        {children}
      </div>
    </div>
  );
}
