import lazyWidget from '@site/src/components/ui/LazyWidget';

/** The Try it panel in its own chunk, loaded when a reader opens it. */
const LazyTryItPanel = lazyWidget(() => import(/* webpackChunkName: "try-it" */ '@site/src/components/widgets/TryItPanel'));

export default LazyTryItPanel;
