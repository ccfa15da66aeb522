import lazyWidget from '@site/src/components/ui/LazyWidget';

/** The debugger in its own chunk, loaded when its page renders it: no other page pays for it. */
const LazySignatureDebugger = lazyWidget(
  () => import(/* webpackChunkName: "signature-debugger" */ '@site/src/components/widgets/SignatureDebugger'),
);

export default LazySignatureDebugger;
