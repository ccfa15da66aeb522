import type {ReactNode} from 'react';
import clsx from 'clsx';
import styles from './styles.module.css';

/** One step of a demo: what happens, in words, and the screen the customer sees. */
export interface DemoFlowStep {
  /** Short heading, for example "Review the cart". Rendered after "Step n". */
  readonly title: string;
  /** What the customer does and sees. A string becomes a paragraph; pass elements for more. */
  readonly caption: ReactNode;
  /** The mock-up, usually a `DeviceScreen`. Optional for steps that happen off screen. */
  readonly screen?: ReactNode;
}

export interface DemoFlowProps {
  /** The steps, in the order the customer meets them. */
  readonly steps: readonly DemoFlowStep[];
  /** Accessible name of the list, for example "Hosted pay page: customer steps". */
  readonly label: string;
  /** Prefix for step anchors: with "hpp", step 2 can be linked as #hpp-step-2. */
  readonly id?: string;
  /** Index (from 0) of the step to highlight and mark as current; none by default. */
  readonly activeStep?: number;
  /** Heading level of the step titles: 3 under a `##` section (default), 4 under `###`. */
  readonly headingLevel?: 3 | 4;
}

/**
 * An ordered list of demo steps, each with a heading, a caption and a screen.
 * Pure and server-rendered: it needs no JavaScript, and an interactive wrapper
 * can drive it later through `activeStep`.
 */
export default function DemoFlow({steps, label, id, activeStep, headingLevel = 3}: DemoFlowProps): ReactNode {
  const Heading = headingLevel === 4 ? 'h4' : 'h3';
  return (
    // role="list" keeps list semantics in browsers that drop them with list-style: none.
    <ol className={styles.flow} aria-label={label} id={id} role="list">
      {steps.map((step, index) => {
        const current = index === activeStep;
        return (
          <li
            key={`${index}-${step.title}`}
            id={id === undefined ? undefined : `${id}-step-${index + 1}`}
            className={clsx(styles.step, current && styles.current)}
            aria-current={current ? 'step' : undefined}
          >
            <div className={styles.text}>
              <Heading className={styles.title}>
                <span className={styles.number}>Step {index + 1}</span> {step.title}
              </Heading>
              {typeof step.caption === 'string' ? (
                <p className={styles.caption}>{step.caption}</p>
              ) : (
                <div className={styles.caption}>{step.caption}</div>
              )}
            </div>
            {step.screen === undefined ? null : <div className={styles.screen}>{step.screen}</div>}
          </li>
        );
      })}
    </ol>
  );
}
