/**
 * The bytes of each page type's HTML page and of its Markdown twin (issue 22), raw and gzip, in one
 * build: what a browser downloads for the page's document against what a coding assistant downloads
 * for the same content. Read from the files, so it needs no browser and no server.
 */
import {existsSync, readFileSync} from 'node:fs';
import path from 'node:path';
import {gzipSync} from 'node:zlib';

export interface TwinBytes {
  readonly type: string;
  readonly path: string;
  readonly html: {readonly raw: number; readonly gzip: number};
  readonly twin: {readonly raw: number; readonly gzip: number};
}

/** The built file of a page's HTML, as the hosting serves a clean URL. */
function htmlFile(buildDir: string, route: string): string {
  const base = path.join(buildDir, route);
  const candidates = [path.join(base, 'index.html'), `${base.replace(/\/$/, '')}.html`];
  const found = candidates.find((candidate) => existsSync(candidate));
  if (!found) throw new Error(`${route}: no HTML in ${buildDir}.`);
  return found;
}

/** The twin of a page: its path plus .md, and /index.md for the home page. */
function twinFile(buildDir: string, route: string): string {
  const file = path.join(buildDir, route === '/' ? '/index.md' : `${route.replace(/\/$/, '')}.md`);
  if (!existsSync(file)) throw new Error(`${route}: no Markdown twin in ${buildDir} (the markdown-twins plugin writes it at build).`);
  return file;
}

const sizes = (file: string) => {
  const bytes = readFileSync(file);
  // Level 6, what a server compressing on the fly sends: the same for both sides.
  return {raw: bytes.length, gzip: gzipSync(bytes, {level: 6}).length};
};

export function twinBytes(buildDir: string, pages: ReadonlyArray<readonly [string, string]>): TwinBytes[] {
  return pages.map(([type, route]) => ({type, path: route, html: sizes(htmlFile(buildDir, route)), twin: sizes(twinFile(buildDir, route))}));
}

const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;

/** A Markdown table: per page type, HTML and twin sizes and the twin's share of the HTML (gzip). */
export function twinBytesTable(rows: readonly TwinBytes[]): string {
  const lines = ['| Page type | Page | HTML raw | HTML gzip | Twin raw | Twin gzip | Twin / HTML (gzip) |', '| --- | --- | ---: | ---: | ---: | ---: | ---: |'];
  for (const row of rows) {
    lines.push(`| ${row.type} | ${row.path} | ${kb(row.html.raw)} | ${kb(row.html.gzip)} | ${kb(row.twin.raw)} | ${kb(row.twin.gzip)} | ${(row.twin.gzip / row.html.gzip).toFixed(2)} |`);
  }
  return lines.join('\n');
}
