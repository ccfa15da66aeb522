/**
 * Sequence diagrams drawn for the docs column (issue 31). Mermaid's defaults give each participant a 150 px box
 * and as much room as its longest message, so a five-lane flow was drawn about 1,470 px wide and scaled into the
 * 700 px column with text of about 7 px. Here each diagram gets a layout for its number of participants: lanes
 * as wide as the column allows, messages and names wrapped to the lane, 14 px text. The drawing is then shown at
 * its drawn size; one that is still wider than the column scrolls sideways in its own labelled box.
 */

/** The docs column at 1280 px is about 700 px wide; the drawing aims at that, margins included. */
export const sequenceTargetWidth = 700;
/** Drawn text size of messages, names and notes; shown unscaled, so this is what the reader gets. */
export const sequenceFontSize = 14;

const gap = 16;
const margin = 8;
const wrapPadding = 6;
/** Lanes no wider than this: a three-lane flow would otherwise get 220 px lanes and wrap less than it reads well. */
const widestLane = 200;
/** Lanes no narrower than this. */
const narrowestLane = 120;

/**
 * A text's drawn width at the diagram's size in Arial, estimated from character classes (capitals and digits are
 * wider than lowercase); it errs wide, so a word it says fits does fit.
 */
export function estimatedTextWidth(text: string): number {
  let width = 0;
  for (const character of text) {
    if (/[A-Z_mw]/.test(character)) width += 10.2;
    else if (/[0-9a-z]/.test(character)) width += 7.9;
    else width += 4.7;
  }
  return (width * sequenceFontSize) / 14;
}

/**
 * A message whose longest word is wider than its lane (an event name such as BANK_TRANSFER.SUCCEEDED) is broken
 * into lines here, at spaces only and no narrower than that word, with Mermaid's `<br/>`: Mermaid leaves such a
 * label as it is and widens only the gap it crosses, where its own wrapping would break the word mid-way.
 */
export function wrapLongWords(text: string, laneText: number): string {
  const words = text.trim().split(/\s+/);
  const widest = Math.max(...words.map(estimatedTextWidth));
  if (widest <= laneText) return text;
  const lines: string[] = [];
  for (const word of words) {
    const last = lines.at(-1);
    if (last !== undefined && estimatedTextWidth(`${last} ${word}`) <= widest) lines[lines.length - 1] = `${last} ${word}`;
    else lines.push(word);
  }
  return ` ${lines.join('<br/>')}`;
}

/** The participants (and actors) a sequence diagram declares, in order. */
export function sequenceParticipants(source: string): string[] {
  return source
    .split('\n')
    .map((line) => /^\s*(?:participant|actor)\s+(\S+)/.exec(line)?.[1])
    .filter((name): name is string => name !== undefined);
}

function laneWidth(source: string): number {
  const lanes = Math.max(2, sequenceParticipants(source).length);
  return Math.min(widestLane, Math.max(narrowestLane, Math.floor((sequenceTargetWidth - 2 * margin - (lanes - 1) * gap) / lanes)));
}

/** Mermaid's `sequence` options for one diagram: lane width from its participant count. */
export function sequenceLayout(source: string): Record<string, number | boolean> {
  return {
    wrap: true,
    width: laneWidth(source),
    actorMargin: gap,
    diagramMarginX: margin,
    diagramMarginY: margin,
    wrapPadding,
    boxMargin: 6,
    messageMargin: 30,
  };
}

/** Mermaid draws `autonumber` numbers at a fixed 12 px, which would fall under 12 px as soon as the drawing shrinks. */
const sequenceNumberCss = `.sequenceNumber{font-size:${sequenceFontSize}px;font-weight:700}`;

/**
 * The source Mermaid draws: a sequence diagram gets its layout as an init directive; other kinds are unchanged.
 * The size goes in the top-level `fontSize`: Mermaid copies it over the sequence's own message, actor and note sizes.
 */
export function drawnSource(source: string): string {
  const trimmed = source.trim();
  if (!/^sequenceDiagram\b/.test(trimmed)) return trimmed;
  const laneText = laneWidth(trimmed) - 2 * wrapPadding;
  const lines = trimmed
    .split('\n')
    .map((line) =>
      line.replace(/^(\s*[\w-]+\s*[-)x>]+\s*[\w-]+\s*:)(.*)$/, (_, arrow: string, text: string) => arrow + wrapLongWords(text, laneText)),
    );
  return `%%{init: ${JSON.stringify({fontSize: sequenceFontSize, themeCSS: sequenceNumberCss, sequence: sequenceLayout(trimmed)})}}%%\n${lines.join('\n')}`;
}
