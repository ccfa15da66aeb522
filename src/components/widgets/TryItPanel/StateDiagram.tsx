import {useEffect, useState, type ReactNode} from 'react';
import useBaseUrl from '@docusaurus/useBaseUrl';
import {useColorMode} from '@docusaurus/theme-common';
import type {TryItMachine} from '@site/src/lib/tryIt';
import styles from './styles.module.css';

/** Colours of the marked state, readable with the diagram's own text colour in each mode. */
const marks = {
  light: 'fill:#ffe08a;stroke:#8a5a00;stroke-width:3px',
  dark: 'fill:#5c4400;stroke:#ffd54f;stroke-width:3px',
} as const;

/** Diagram files already fetched on this page, by URL: following an order through its states redraws, it does not refetch. */
const fetched = new Map<string, Promise<string>>();

function fetchText(url: string): Promise<string> {
  let text = fetched.get(url);
  if (!text) {
    text = fetch(url).then((response) => (response.ok ? response.text() : Promise.reject(new Error(`${response.status}`))));
    text.catch(() => fetched.delete(url));
    fetched.set(url, text);
  }
  return text;
}

/** The SVG with the state's box marked and sized to its container, or undefined when the state has no box in it. */
function markState(svgText: string, state: string, mode: 'light' | 'dark', label: string): string | undefined {
  const svg = new DOMParser().parseFromString(svgText, 'image/svg+xml').documentElement;
  if (svg.nodeName !== 'svg') return undefined;
  const node = [...svg.querySelectorAll('g.node')].find((candidate) => new RegExp(`-state-${state}-\\d+$`).test(candidate.id));
  const box = node?.querySelector('rect.label-container, rect');
  if (!box) return undefined;
  box.setAttribute('style', marks[mode]);
  const width = svg.getAttribute('width');
  svg.removeAttribute('height');
  svg.setAttribute('width', '100%');
  // Legible on a phone: no narrower than 34rem (or its own width), the box scrolls sideways instead.
  if (width) svg.setAttribute('style', `max-width:${width}px;min-width:min(${width}px, 34rem);height:auto`);
  svg.setAttribute('role', 'img');
  svg.setAttribute('aria-label', label);
  svg.removeAttribute('aria-roledescription');
  return new XMLSerializer().serializeToString(svg);
}

/**
 * The state diagram the operation page draws (built once, under /diagrams/), with the object's current state
 * marked. Shown beside the list of states, which says the same in text; when the file cannot be had, the
 * list stands alone.
 */
export default function StateDiagram({name, machine, state}: {name: string; machine: TryItMachine; state: string}): ReactNode {
  const {colorMode} = useColorMode();
  const file = machine.diagram?.[colorMode];
  const url = useBaseUrl(file ? `/diagrams/${file}` : '/');
  const [svg, setSvg] = useState<string | undefined>();
  useEffect(() => {
    if (!file) return undefined;
    let current = true;
    fetchText(url).then(
      (text) => current && setSvg(markState(text, state, colorMode, `State diagram of ${name}, with ${state} marked as the current state`)),
      () => current && setSvg(undefined),
    );
    return () => {
      current = false;
    };
  }, [file, url, state, colorMode, name]);
  if (!file || !svg) return null;
  // Our own diagram file from this site, not reader input; inlined so the current state can be marked.
  // Focusable, so a keyboard can scroll it where it is wider than the screen.
  return (
    <div
      className={styles.diagram}
      tabIndex={0}
      role="region"
      aria-label={`State diagram of ${name}`}
      dangerouslySetInnerHTML={{__html: svg}}
    />
  );
}
