import {useEffect, useState, type ReactNode} from 'react';
import Button from '@site/src/components/ui/Button';

/**
 * One language's code sample as an API page ships it (remarkApiReference): the first language's code inline,
 * the others' in one module of the operation's own, loaded with import() when one of their tabs is first shown.
 * The code tabs and the example pane share the page's list and loader, so the module loads once.
 */
export interface PageSample {
  readonly language: string;
  readonly label: string;
  readonly highlight: string;
  readonly fileName: string;
  /** Lines of the code, without a last newline: a sample still loading takes the height it will have, so nothing moves when it arrives. */
  readonly lines: number;
  readonly code?: string;
  /** Loads the code of every language but the first, by language. */
  readonly load?: () => Promise<{default: Readonly<Record<string, string>>}>;
}

type Loader = NonNullable<PageSample['load']>;

/** Code already loaded, by loader: a tab shown again, or a language in the pane, renders it at once. */
const loadedCode = new WeakMap<Loader, Readonly<Record<string, string>>>();

type SampleState = {status: 'ready'; code: string} | {status: 'loading'} | {status: 'failed'};

function initialState(sample: PageSample): SampleState {
  if (sample.code !== undefined) return {status: 'ready', code: sample.code};
  const code = sample.load && loadedCode.get(sample.load)?.[sample.language];
  return code === undefined ? {status: 'loading'} : {status: 'ready', code};
}

/** As many lines as the code has, each a space: a code block drops a last empty line, and would be a line short. */
function placeholder(lines: number): string {
  return Array.from({length: Math.max(1, lines)}, () => ' ').join('\n');
}

/**
 * A sample's code, rendered by `render` once it is here. Until then `render` draws as many blank lines as the
 * code has (the same block, the same height), marked busy; a chunk that fails to load says so, with a retry.
 */
export default function PageSampleCode({sample, render}: {sample: PageSample; render: (code: string) => ReactNode}): ReactNode {
  const [state, setState] = useState<SampleState>(() => initialState(sample));
  const [attempt, setAttempt] = useState(0);
  const {load} = sample;
  useEffect(() => {
    if (state.status !== 'loading' || !load) return undefined;
    let live = true;
    load().then(
      (module) => {
        loadedCode.set(load, module.default);
        const code = module.default[sample.language];
        if (live) setState(code === undefined ? {status: 'failed'} : {status: 'ready', code});
      },
      () => {
        if (live) setState({status: 'failed'});
      },
    );
    return () => {
      live = false;
    };
    // attempt: a retry loads again.
  }, [load, sample.language, attempt, state.status]);
  if (state.status === 'failed') {
    return (
      <p role="alert" data-sample={sample.language}>
        The {sample.label} sample could not be loaded.{' '}
        <Button
          size="sm"
          onClick={() => {
            setState({status: 'loading'});
            setAttempt((count) => count + 1);
          }}>
          Try again
        </Button>
      </p>
    );
  }
  const ready = state.status === 'ready';
  return (
    <div data-sample={sample.language} aria-busy={ready ? undefined : true}>
      {render(ready ? state.code : placeholder(sample.lines))}
    </div>
  );
}
