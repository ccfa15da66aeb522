/**
 * Mermaid diagrams drawn once, at build time, into SVG files under
 * static/diagrams/ (committed), so no page ships the Mermaid runtime (about
 * 200 KB gzip and most of a diagram page's blocking time on a phone).
 *
 * A file is named after a hash of its source, colour theme, render settings
 * and Mermaid version: editing a diagram or upgrading Mermaid makes new files,
 * and a fresh checkout needs no browser to build while the store is complete.
 * Missing files are drawn with Chromium (found the same way as for the tests)
 * through mermaid-isomorphic; `npm run diagrams` draws them all and removes
 * files nothing uses.
 */
import {createHash} from 'node:crypto';
import {existsSync, mkdirSync, readFileSync, renameSync, writeFileSync} from 'node:fs';
import {createRequire} from 'node:module';
import path from 'node:path';
import {chromiumArgs, findChromium} from '../../../tooling/browser';
import {drawnSource} from './sequenceLayout';

export const diagramDirectory = path.join('static', 'diagrams');
export const diagramThemes = ['light', 'dark'] as const;
export type DiagramTheme = (typeof diagramThemes)[number];

export interface DiagramFile {
  /** File name under static/diagrams (served at /diagrams/NAME). */
  readonly file: string;
  readonly width: number;
  readonly height: number;
}

export type RenderedDiagram = Record<DiagramTheme, DiagramFile>;

/**
 * One font the rendering browser and every reader's system have, so labels
 * measured at build time fit their boxes on any device. Labels are SVG text,
 * not HTML in foreignObject, which some browsers do not draw inside <img>.
 */
const sharedConfig = {fontFamily: 'arial, helvetica, sans-serif', htmlLabels: false, flowchart: {htmlLabels: false}};

/**
 * The brand's colours (src/css/tokens.css) on Mermaid's `base` theme, per mode: states and participants on the
 * soft primary surface with a primary edge, lines and labels in the text colours, edge labels on the page
 * colour. The values are the tokens' own, so each text sits on its surface at 4.5:1 or more, as on the page.
 */
const brand = {
  light: {page: '#ffffff', surface: '#eef0fc', border: '#3446c4', text: '#161a33', line: '#4a5072', note: '#fdf1dc', noteBorder: '#b86a00'},
  dark: {page: '#10121f', surface: '#232742', border: '#9aa6ff', text: '#e6e8f5', line: '#a9afcf', note: '#3a2a10', noteBorder: '#ffc46b'},
} as const;

function brandTheme(colours: (typeof brand)[DiagramTheme], darkMode: boolean): Record<string, unknown> {
  return {
    ...sharedConfig,
    theme: 'base',
    themeVariables: {
      darkMode,
      background: colours.page,
      fontFamily: sharedConfig.fontFamily,
      fontSize: '15px',
      primaryColor: colours.surface,
      primaryTextColor: colours.text,
      primaryBorderColor: colours.border,
      secondaryColor: colours.surface,
      tertiaryColor: colours.page,
      lineColor: colours.line,
      textColor: colours.text,
      edgeLabelBackground: colours.page,
      labelBackgroundColor: colours.page,
      transitionColor: colours.line,
      transitionLabelColor: colours.text,
      stateLabelColor: colours.text,
      stateBkg: colours.surface,
      actorBkg: colours.surface,
      actorBorder: colours.border,
      actorTextColor: colours.text,
      actorLineColor: colours.line,
      signalColor: colours.text,
      signalTextColor: colours.text,
      labelBoxBkgColor: colours.surface,
      labelBoxBorderColor: colours.border,
      labelTextColor: colours.text,
      loopTextColor: colours.text,
      noteBkgColor: colours.note,
      noteTextColor: colours.text,
      noteBorderColor: colours.noteBorder,
      activationBkgColor: colours.surface,
      activationBorderColor: colours.border,
      sequenceNumberColor: colours.page,
      specialStateColor: colours.line,
      innerEndBackground: colours.line,
      compositeBackground: colours.page,
    },
  };
}

const mermaidConfig: Record<DiagramTheme, Record<string, unknown>> = {
  light: brandTheme(brand.light, false),
  dark: brandTheme(brand.dark, true),
};

const require = createRequire(__filename);

function mermaidVersion(): string {
  const isomorphicEntry = require.resolve('mermaid-isomorphic');
  const mermaidPackage = createRequire(isomorphicEntry).resolve('mermaid/package.json');
  return (JSON.parse(readFileSync(mermaidPackage, 'utf8')) as {version: string}).version;
}

let cachedVersion: string | undefined;

/** The file a diagram is stored in for one theme. */
export function diagramFileName(source: string, theme: DiagramTheme): string {
  cachedVersion ??= mermaidVersion();
  const hash = createHash('sha256')
    .update(JSON.stringify({mermaid: cachedVersion, config: mermaidConfig[theme], source: drawnSource(source)}))
    .digest('hex')
    .slice(0, 16);
  return `${hash}.svg`;
}

function readSize(svg: string, file: string): {width: number; height: number} {
  const width = /^<svg[^>]*\swidth="([\d.]+)"/.exec(svg)?.[1];
  const height = /^<svg[^>]*\sheight="([\d.]+)"/.exec(svg)?.[1];
  if (!width || !height) throw new Error(`${file} has no pixel width and height; delete it and build again to redraw it.`);
  return {width: Number(width), height: Number(height)};
}

/** Mermaid sizes the SVG to its container; a standalone file needs its own pixel size. */
function standaloneSvg(svg: string, width: number, height: number): string {
  return svg.replace(/^<svg([^>]*)>/, (_, attributes: string) => {
    const cleaned = attributes
      .replace(/\swidth="[^"]*"/, '')
      .replace(/\sheight="[^"]*"/, '')
      .replace(/\sstyle="[^"]*"/, '');
    return `<svg${cleaned} width="${Math.ceil(width)}" height="${Math.ceil(height)}">`;
  });
}

type Renderer = (
  diagrams: string[],
  options: {prefix?: string; mermaidConfig?: Record<string, unknown>},
) => Promise<Array<PromiseSettledResult<{svg: string; width: number; height: number}>>>;

let renderer: Promise<Renderer> | undefined;

async function getRenderer(): Promise<Renderer> {
  const browser = findChromium();
  if (!browser) {
    throw new Error('No Chromium to draw it with: set CHROME_PATH, install Debian\'s chromium, or run "npx playwright install chromium".');
  }
  // mermaid-isomorphic is an ES module; this file also runs as CommonJS under the config loader.
  const {createMermaidRenderer} = (await import('mermaid-isomorphic')) as {createMermaidRenderer: (options: object) => Renderer};
  return createMermaidRenderer({launchOptions: {executablePath: browser.executablePath, args: [...chromiumArgs]}});
}

export class DiagramError extends Error {}

/**
 * The stored files of each diagram in both themes, drawing the missing ones.
 * `where` names the sources in error messages (file and line).
 */
export async function storeDiagrams(siteDir: string, sources: ReadonlyArray<{source: string; where: string}>): Promise<RenderedDiagram[]> {
  const directory = path.join(siteDir, diagramDirectory);
  const missing: Array<{source: string; where: string; theme: DiagramTheme; target: string}> = [];
  for (const {source, where} of sources) {
    for (const theme of diagramThemes) {
      const target = path.join(directory, diagramFileName(source, theme));
      if (!existsSync(target)) missing.push({source, where, theme, target});
    }
  }
  if (missing.length > 0) {
    try {
      renderer ??= getRenderer();
      const render = await renderer;
      mkdirSync(directory, {recursive: true});
      for (const theme of diagramThemes) {
        const batch = missing.filter((item) => item.theme === theme);
        if (batch.length === 0) continue;
        const results = await render(
          batch.map((item) => drawnSource(item.source)),
          {prefix: 'diagram', mermaidConfig: mermaidConfig[theme]},
        );
        results.forEach((result, index) => {
          const item = batch[index];
          if (!item) return;
          if (result.status === 'rejected') {
            const reason = result.reason instanceof Error ? result.reason.message : String(result.reason);
            throw new DiagramError(`${item.where}: this Mermaid diagram does not parse: ${reason}`);
          }
          const temporary = `${item.target}.${process.pid}.tmp`;
          writeFileSync(temporary, standaloneSvg(result.value.svg, result.value.width, result.value.height));
          renameSync(temporary, item.target);
        });
      }
    } catch (error) {
      if (error instanceof DiagramError) throw error;
      const [first] = missing;
      const reason = error instanceof Error ? error.message : String(error);
      throw new DiagramError(
        `${first?.where ?? 'A diagram'}: this Mermaid diagram is not drawn yet (static/diagrams/${path.basename(first?.target ?? '')}), and drawing it failed. ${reason}`,
      );
    }
  }
  return sources.map(({source}) => {
    const entry = {} as Record<DiagramTheme, DiagramFile>;
    for (const theme of diagramThemes) {
      const file = diagramFileName(source, theme);
      const target = path.join(directory, file);
      entry[theme] = {file, ...readSize(readFileSync(target, 'utf8'), target)};
    }
    return entry;
  });
}

/** A short text alternative: the kind of diagram and who or what it shows. */
export function describeDiagram(source: string): string {
  const lines = source.split('\n').map((line) => line.trim());
  const kind = lines.find((line) => line.length > 0 && !line.startsWith('%%')) ?? '';
  if (kind.startsWith('sequenceDiagram')) {
    const participants = lines
      .map((line) => /^(?:participant|actor)\s+\S+(?:\s+as\s+(.+))?$/.exec(line))
      .filter((match): match is RegExpExecArray => match !== null)
      .map((match) => match[1] ?? match[0].split(/\s+/)[1] ?? '');
    return participants.length > 0 ? `Sequence diagram between ${joinNames(participants)}.` : 'Sequence diagram.';
  }
  if (kind.startsWith('stateDiagram')) {
    const states = new Set<string>();
    for (const line of lines) {
      const match = /^(\[\*\]|[\w.]+)\s*-->\s*(\[\*\]|[\w.]+)/.exec(line);
      for (const state of match?.slice(1) ?? []) if (state !== '[*]') states.add(state);
    }
    return states.size > 0 ? `State diagram of ${joinNames([...states])}.` : 'State diagram.';
  }
  return 'Diagram.';
}

function joinNames(names: string[]): string {
  if (names.length <= 1) return names.join('');
  return `${names.slice(0, -1).join(', ')} and ${names.at(-1) ?? ''}`;
}
