import {useCallback, useEffect, useState, type ComponentType, type ReactNode} from 'react';
import Loading from '@theme/Loading';
import styles from './styles.module.css';

/** How long the widget may take before a notice says it is loading, so a fast load doesn't flash one. */
const NOTICE_DELAY_MS = 200;

type LoadState<Props> = {status: 'loading'} | {status: 'loaded'; Component: ComponentType<Props>} | {status: 'failed'; error: Error};

/**
 * Wraps an interactive widget (converters today; the "Try it" panel, the
 * signature debugger and the notification simulator later) in its own chunk,
 * so pages that don't use it don't pay for its JavaScript.
 *
 * While the chunk loads it shows a compact notice instead of the theme's
 * full-screen spinner; a chunk that fails to load goes to the theme's Loading
 * component, which shows the error and a Retry button, as a failed page chunk does.
 *
 * Not react-loadable: it drops the "loaded" update when the chunk arrives
 * between a component's first render and its mount. Pages hydrate in
 * interruptible slices and their chunks load alongside, so that happens, and
 * the widget then stayed empty for good. Here the chunk is awaited in an
 * effect, which only runs once the component is mounted.
 */
export default function lazyWidget<Props extends object>(loader: () => Promise<{default: ComponentType<Props>}>): ComponentType<Props> {
  // One fetch per page however many instances there are; a failed one is forgotten so Retry fetches again.
  let loaded: ComponentType<Props> | undefined;
  let pending: Promise<ComponentType<Props>> | undefined;
  const load = (): Promise<ComponentType<Props>> =>
    (pending ??= loader().then(
      (module) => (loaded = module.default),
      (error: unknown) => {
        pending = undefined;
        throw error;
      },
    ));

  function LazyWidget(props: Props): ReactNode {
    // The server and the hydrating render both start from "loading" (nothing loads before an effect runs), so they match.
    const [state, setState] = useState<LoadState<Props>>(() => (loaded ? {status: 'loaded', Component: loaded} : {status: 'loading'}));
    const [pastDelay, setPastDelay] = useState(false);
    const [attempt, setAttempt] = useState(0);

    useEffect(() => {
      // Always awaited, even when already loaded: the chunk may have settled after this render but before
      // this effect, and then only the (already resolved) promise moves this instance out of "loading".
      let live = true;
      const notice = loaded ? undefined : setTimeout(() => setPastDelay(true), NOTICE_DELAY_MS);
      load().then(
        (Component) => {
          if (live)
            setState((current) =>
              current.status === 'loaded' && current.Component === Component ? current : {status: 'loaded', Component},
            );
        },
        (error: unknown) => {
          if (live) setState({status: 'failed', error: error instanceof Error ? error : new Error(String(error))});
        },
      );
      return () => {
        live = false;
        clearTimeout(notice);
      };
    }, [attempt]);

    const retry = useCallback(() => {
      setState({status: 'loading'});
      setPastDelay(false);
      setAttempt((count) => count + 1);
    }, []);

    if (state.status === 'loaded') {
      const {Component} = state;
      return <Component {...props} />;
    }
    if (state.status === 'failed') {
      return <Loading isLoading={false} pastDelay timedOut={false} error={state.error} retry={retry} />;
    }
    return pastDelay ? (
      <p className={styles.loading} role="status">
        Loading the interactive example…
      </p>
    ) : null;
  }
  return LazyWidget;
}
