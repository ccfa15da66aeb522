import type {ReactNode} from 'react';
import useBaseUrl from '@docusaurus/useBaseUrl';
import styles from './styles.module.css';

export interface MermaidDiagramProps {
  /** SVG file under /diagrams/ drawn with the light theme. */
  readonly light: string;
  /** The same diagram drawn with the dark theme. */
  readonly dark: string;
  /** Pixel size of the drawing; reserves its space before the image arrives. */
  readonly width: string;
  readonly height: string;
  /** What the diagram shows, for readers who cannot see it. */
  readonly alt: string;
  /** The Mermaid source, offered as the diagram's text version. */
  readonly source: string;
  /**
   * `transitions`: a state diagram followed by its transitions table. Below 600 px the drawing, whose edge labels
   * would be a few pixels tall, gives way to that table, which a phone shows as cards.
   * `scroll`: a sequence diagram. Below 600 px it keeps its drawn size, so its text stays readable, and scrolls
   * sideways in its own box, with a hint; the first participants show at once.
   */
  readonly phone?: 'transitions' | 'scroll';
  /**
   * The narrowest the drawing may be shown (a sequence diagram: its text no smaller than 12 px). In a narrower
   * column it keeps this width and scrolls sideways in its box instead of shrinking its text.
   */
  readonly minWidth?: string;
}

/**
 * A Mermaid diagram drawn at build time (see plugins/content/mermaid-diagrams). Both
 * colour modes are in the page and CSS shows one; the hidden image is lazy and
 * never displayed, so the browser does not fetch it.
 */
export default function MermaidDiagram({light, dark, width, height, alt, source, phone, minWidth}: MermaidDiagramProps): ReactNode {
  const lightSrc = useBaseUrl(`/diagrams/${light}`);
  const darkSrc = useBaseUrl(`/diagrams/${dark}`);
  const size = {width: Number(width), height: Number(height), style: minWidth ? {minWidth: `${minWidth}px`} : undefined};
  const images = (
    <>
      <img className={styles.light} src={lightSrc} alt={alt} loading="lazy" decoding="async" {...size} />
      <img className={styles.dark} src={darkSrc} alt={alt} loading="lazy" decoding="async" {...size} />
    </>
  );
  return (
    <figure className={styles.diagram} data-diagram="" data-phone={phone}>
      {phone === 'scroll' ? (
        <>
          <div className={styles.scroller} tabIndex={0} role="region" aria-label={`${alt} Scrolls sideways.`}>
            {images}
          </div>
          <p className={styles.scrollHint} aria-hidden="true" data-twin-skip="">
            Scroll sideways for the other participants →
          </p>
        </>
      ) : (
        images
      )}
      {phone === 'transitions' ? (
        <p className={styles.phoneNote} data-twin-skip="">
          On a narrow screen this diagram is the list of transitions below: each card goes from one state to the next, and says when.
        </p>
      ) : null}
      <details className={styles.text}>
        <summary>Diagram as text</summary>
        <pre>
          <code>{source}</code>
        </pre>
      </details>
    </figure>
  );
}
