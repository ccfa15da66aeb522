import {useEffect, useState, type ComponentType, type ReactNode} from 'react';
import useBrokenLinks from '@docusaurus/useBrokenLinks';
import useIsBrowser from '@docusaurus/useIsBrowser';
import Button from '@site/src/components/ui/Button';
import type {FlowId} from './flows';
import styles from './styles.module.css';

type PanelProps = {flow: FlowId; autoPlay: boolean};
type Loaded =
  | {status: 'idle'}
  | {status: 'loading'}
  | {status: 'loaded'; Panel: ComponentType<PanelProps>; autoPlay: boolean}
  | {status: 'failed'; message: string};

/** The engine, the sandbox data, the samples and the panel, in a chunk of their own: nothing of it is in the page's first load. */
const loadPanel = () => import(/* webpackChunkName: "live-demo" */ './LivePanel');

export interface LiveDemoProps {
  readonly flow: PanelProps['flow'];
  /** What the demo shows, one sentence, visible before it starts. */
  readonly summary: string;
  /** The demo's heading; a page with two demos gives each its own, so their regions have distinct names. */
  readonly title?: string;
}

/**
 * A demo that runs on the in-browser sandbox. Before the reader starts it, only this box and its button are
 * on the page; a replay link (?demo=<flow>&outcome=...&amount=...) starts it and plays the run.
 */
export default function LiveDemo({flow, summary, title = 'Live demo'}: LiveDemoProps): ReactNode {
  const [loaded, setLoaded] = useState<Loaded>({status: 'idle'});
  // Disabled until hydrated: a press before React is listening would be lost without a word.
  const ready = useIsBrowser();
  // Replay links end in #live-demo-<flow>: the build's anchor check learns of this heading, which is not Markdown's.
  useBrokenLinks().collectAnchor(`live-demo-${flow}`);

  const start = (autoPlay: boolean) => {
    setLoaded({status: 'loading'});
    loadPanel().then(
      (module) => setLoaded({status: 'loaded', Panel: module.default, autoPlay}),
      (error: unknown) => setLoaded({status: 'failed', message: error instanceof Error ? error.message : String(error)}),
    );
  };

  useEffect(() => {
    if (new URLSearchParams(window.location.search).get('demo') !== flow) return;
    loadPanel().then(
      (module) => setLoaded({status: 'loaded', Panel: module.default, autoPlay: true}),
      (error: unknown) => setLoaded({status: 'failed', message: error instanceof Error ? error.message : String(error)}),
    );
    // Once, on mount: the replay link.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  return (
    <section className={styles.live} aria-labelledby={`live-demo-${flow}`}>
      <div className={styles.head}>
        <div>
          <h3 id={`live-demo-${flow}`} className={styles.title}>
            {title}
          </h3>
          <p className={styles.lede}>
            {summary} Runs in this browser on the sandbox engine, the same sandbox as Try it and the sandbox console; nothing is sent
            anywhere.
          </p>
        </div>
        {loaded.status === 'loaded' ? null : (
          <Button variant="primary" onClick={() => start(false)} disabled={!ready || loaded.status === 'loading'}>
            {loaded.status === 'loading' ? 'Starting…' : 'Start the live demo'}
          </Button>
        )}
      </div>
      {loaded.status === 'failed' ? (
        <p className={styles.failed} role="alert">
          The demo could not load ({loaded.message}); the steps below explain the flow.
        </p>
      ) : null}
      {loaded.status === 'loaded' ? <loaded.Panel flow={flow} autoPlay={loaded.autoPlay} /> : null}
    </section>
  );
}
