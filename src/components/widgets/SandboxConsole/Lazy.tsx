import type {ReactNode} from 'react';
import lazyWidget from '@site/src/components/ui/LazyWidget';
import styles from './styles.module.css';

/** The console in its own chunk, loaded when its page renders it: no other page pays for it. */
const LazySandboxConsole = lazyWidget(
  () => import(/* webpackChunkName: "sandbox-console" */ '@site/src/components/widgets/SandboxConsole'),
);

/**
 * The console fills at least a screen from the server's first paint on: it loads and reads the
 * sandbox after hydration, and the sections below it would otherwise jump down when it arrives.
 */
export default function ReservedSandboxConsole(): ReactNode {
  return (
    <div className={styles.reserved}>
      <LazySandboxConsole />
    </div>
  );
}
