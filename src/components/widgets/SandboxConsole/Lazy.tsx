import lazyWidget from '@site/src/components/ui/LazyWidget';

/** The console in its own chunk, loaded when its page renders it: no other page pays for it. */
const LazySandboxConsole = lazyWidget(() => import(/* webpackChunkName: "sandbox-console" */ '@site/src/components/widgets/SandboxConsole'));

export default LazySandboxConsole;
