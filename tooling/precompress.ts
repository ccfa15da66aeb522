/**
 * Writes a Brotli (.br) and a gzip (.gz) copy next to every compressible file
 * of a build, so the server sends them as they are (nginx `brotli_static` and
 * `gzip_static`, scripts/serve-production.ts) instead of compressing each
 * response again, and can afford the strongest settings.
 *
 * Runs after `docusaurus build`, not in a plugin's postBuild: Docusaurus runs
 * the plugins' postBuild hooks in parallel, and two of them (search index,
 * published contract) are still writing files then.
 *
 * The command is scripts/precompress.ts; the benchmark and the tests use these functions.
 */
import {readdir, readFile, stat, writeFile} from 'node:fs/promises';
import {availableParallelism} from 'node:os';
import path from 'node:path';
import {promisify} from 'node:util';
import {brotliCompress, constants, gzip} from 'node:zlib';

const brotli = promisify(brotliCompress);
const gzipAsync = promisify(gzip);

/** Text formats worth compressing, with the Content-Type a server sends for their compressed copy. Images other than SVG are compressed already. */
export const contentTypes: Readonly<Record<string, string>> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'application/javascript; charset=utf-8',
  '.mjs': 'application/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
  '.webmanifest': 'application/manifest+json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.xml': 'application/xml; charset=utf-8',
  '.txt': 'text/plain; charset=utf-8',
  '.md': 'text/markdown; charset=utf-8',
  '.yaml': 'application/yaml; charset=utf-8',
  '.yml': 'application/yaml; charset=utf-8',
};

export const isCompressible = (name: string): boolean => Object.hasOwn(contentTypes, path.extname(name));

/**
 * A copy is written when it saves more than the response header it needs (`content-encoding: br`, 22 bytes on
 * HTTP/1.1, fewer under HTTP/2's header compression): a static copy costs no work when served, so the 1 KB floor of
 * nginx's on-the-fly gzip_min_length does not apply. The demo pages' 469-byte sheet is 236 bytes in Brotli.
 */
export const encodingHeaderBytes = 24;

/** Below this, no file gains more than the header costs. */
export const minimumBytes = 256;

/**
 * Hashed bundles under assets/ load on every page and never change once built,
 * so they get Brotli's strongest (slow) setting: main.js is 15 % smaller than
 * at gzip -9. Pages and data get a fast setting that still beats gzip.
 */
export function brotliQuality(relativePath: string): number {
  return relativePath.startsWith('assets/') ? constants.BROTLI_MAX_QUALITY : 5;
}

export interface Compressed {
  readonly relativePath: string;
  readonly raw: number;
  /** Bytes of the written copy, or undefined when it would not save more than its header costs. */
  readonly br: number | undefined;
  readonly gz: number | undefined;
}

export type Encoding = 'br' | 'gzip';

/** The file extension of each precompressed copy. */
export const copyExtension: Record<Encoding, string> = {br: 'br', gzip: 'gz'};

/**
 * The encoding to answer with, from a request's Accept-Encoding and the copies
 * that exist: the highest q-value wins, Brotli on a tie; q=0 refuses one.
 * Undefined when the client accepts neither copy.
 */
export function preferredEncoding(acceptEncoding: string | undefined, available: ReadonlyArray<Encoding>): Encoding | undefined {
  const weights = new Map<string, number>();
  for (const part of (acceptEncoding ?? '').split(',')) {
    const [name = '', ...parameters] = part.split(';').map((piece) => piece.trim().toLowerCase());
    if (name === '') continue;
    const q = parameters.find((parameter) => parameter.startsWith('q='));
    const weight = q === undefined ? 1 : Number(q.slice(2));
    weights.set(name, Number.isFinite(weight) ? weight : 0);
  }
  const weightOf = (encoding: Encoding) =>
    weights.get(encoding) ?? (encoding === 'gzip' ? weights.get('x-gzip') : undefined) ?? weights.get('*') ?? 0;
  let best: Encoding | undefined;
  for (const encoding of ['br', 'gzip'] as const) {
    if (!available.includes(encoding) || weightOf(encoding) <= 0) continue;
    if (best === undefined || weightOf(encoding) > weightOf(best)) best = encoding;
  }
  return best;
}

/** Compresses one file and writes file.br and file.gz when they save more than their header costs. */
export async function precompressFile(root: string, relativePath: string): Promise<Compressed> {
  const file = path.join(root, relativePath);
  const content = await readFile(file);
  const [br, gz] = await Promise.all([
    brotli(content, {
      params: {
        [constants.BROTLI_PARAM_QUALITY]: brotliQuality(relativePath),
        [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
        [constants.BROTLI_PARAM_SIZE_HINT]: content.length,
      },
    }),
    gzipAsync(content, {level: constants.Z_BEST_COMPRESSION}),
  ]);
  const keep = async (copy: Buffer, extension: string) => {
    if (copy.length + encodingHeaderBytes >= content.length) return undefined;
    await writeFile(`${file}.${extension}`, copy);
    return copy.length;
  };
  return {relativePath, raw: content.length, br: await keep(br, copyExtension.br), gz: await keep(gz, copyExtension.gzip)};
}

/** Every compressible file of at least minimumBytes under root, largest first (so the slow ones start early). */
export async function compressibleFiles(root: string): Promise<string[]> {
  const entries = await readdir(root, {recursive: true, withFileTypes: true});
  const files: Array<{relativePath: string; size: number}> = [];
  for (const entry of entries) {
    if (!entry.isFile() || !isCompressible(entry.name)) continue;
    const absolute = path.join(entry.parentPath, entry.name);
    const {size} = await stat(absolute);
    if (size >= minimumBytes) files.push({relativePath: path.relative(root, absolute).split(path.sep).join('/'), size});
  }
  return files.sort((a, b) => b.size - a.size).map((file) => file.relativePath);
}

/** Precompresses a whole build, a few files at a time (zlib works on libuv's thread pool). */
export async function precompressBuild(root: string): Promise<Compressed[]> {
  const files = await compressibleFiles(root);
  const results: Compressed[] = [];
  let next = 0;
  const worker = async () => {
    while (next < files.length) {
      const relativePath = files[next];
      next += 1;
      if (relativePath !== undefined) results.push(await precompressFile(root, relativePath));
    }
  };
  await Promise.all(Array.from({length: Math.max(2, availableParallelism())}, worker));
  return results;
}
