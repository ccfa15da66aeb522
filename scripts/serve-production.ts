/**
 * Serves a production build the way the hosting configuration does: the
 * Brotli or gzip copy scripts/precompress.ts wrote next to a file when the
 * client accepts it (nginx brotli_static/gzip_static), otherwise gzip on the
 * fly; the security and cache headers of hosting/_headers, the 301s
 * of hosting/_redirects, clean URLs and the not-found page with status 404; a page asked
 * for with `Accept: text/markdown` answers with its Markdown twin, as hosting/nginx.conf does.
 * Used by the end-to-end tests and the benchmark; not a production server.
 *
 * Usage: tsx scripts/serve-production.ts [build-dir] [port]
 */
import {createReadStream, existsSync, statSync} from 'node:fs';
import {createServer, type IncomingMessage, type ServerResponse} from 'node:http';
import path from 'node:path';
import compression from 'compression';
import serveHandler from 'serve-handler';
import {headersFor, loadHosting, prefersMarkdown} from '../tooling/hosting';
import {contentTypes, copyExtension, preferredEncoding, type Encoding} from '../tooling/precompress';

const root = path.resolve(process.argv[2] ?? 'build');
const port = Number(process.argv[3] ?? process.env.PORT ?? 3000);
if (!existsSync(path.join(root, 'index.html'))) {
  console.error(`${root} has no index.html: build the site first (npm run build).`);
  process.exit(1);
}
const hosting = loadHosting();
const compress = compression();
const isFile = (file: string) => existsSync(file) && statSync(file).isFile();

/** The file a clean URL maps to, or undefined for a 404. */
function resolveFile(pathname: string): string | undefined {
  const local = path.join(root, decodeURIComponent(pathname));
  if (!local.startsWith(root)) return undefined;
  for (const candidate of [local, path.join(local, 'index.html'), `${local.replace(/\/$/, '')}.html`]) {
    if (isFile(candidate)) return `/${path.relative(root, candidate).split(path.sep).join('/')}`;
  }
  return undefined;
}

/** Answers with the precompressed copy of `file` the client accepts, if there is one; false otherwise. */
function sendPrecompressed(req: IncomingMessage, res: ServerResponse, file: string, status: number, type?: string): boolean {
  const local = path.join(root, file);
  const available = (Object.keys(copyExtension) as Encoding[]).filter((encoding) => isFile(`${local}.${copyExtension[encoding]}`));
  res.setHeader('Vary', 'Accept-Encoding, Accept');
  const encoding = preferredEncoding(req.headers['accept-encoding'], available);
  if (encoding === undefined) return false;
  const copy = `${local}.${copyExtension[encoding]}`;
  res.writeHead(status, {
    'Content-Type': type ?? contentTypes[path.extname(local)] ?? 'application/octet-stream',
    'Content-Encoding': encoding,
    'Content-Length': statSync(copy).size,
  });
  if (req.method === 'HEAD') res.end();
  else createReadStream(copy).pipe(res);
  return true;
}

const server = createServer((req, res) => {
  compress(req as never, res as never, () => {
    const url = new URL(req.url ?? '/', 'http://localhost');
    const redirect = hosting.redirects.find((candidate) => candidate.from === url.pathname.replace(/\/$/, ''));
    const ruled = headersFor(hosting.headers, url.pathname);
    for (const [name, value] of ruled) res.setHeader(name, value);
    if (redirect) {
      res.writeHead(redirect.status, {Location: redirect.to + url.search}).end();
      return;
    }
    let file = resolveFile(url.pathname);
    // Accept: text/markdown on a page: its twin (/docs/refund -> /docs/refund.md, / -> /index.md).
    if (file?.endsWith('.html') && prefersMarkdown(req.headers.accept)) {
      const twin = resolveFile(url.pathname === '/' ? '/index.md' : `${url.pathname.replace(/\/+$/, '')}.md`);
      if (twin) file = twin;
    }
    // serve-handler's own type for .md lacks the charset; the hosting's _headers rules set it.
    const type = file ? contentTypes[path.extname(file)] : undefined;
    if (type && file?.endsWith('.md')) res.setHeader('Content-Type', type);
    // A Content-Type of the hosting's rules (the feeds' Atom and RSS types) wins over the one of the file extension.
    const ruledType = file ? ruled.get('Content-Type') : undefined;
    if (sendPrecompressed(req, res, file ?? '/404.html', file ? 200 : 404, ruledType)) return;
    if (!file) {
      res.statusCode = 404;
      req.url = '/404.html';
    } else {
      req.url = file + url.search;
    }
    void serveHandler(req, res, {
      public: root,
      cleanUrls: false,
      directoryListing: false,
      etag: true,
      ...(ruledType ? {headers: [{source: '**', headers: [{key: 'Content-Type', value: ruledType}]}]} : {}),
    });
  });
});

server.listen(port, '127.0.0.1', () => {
  console.log(`Serving ${root} at http://127.0.0.1:${port} with the hosting configuration`);
});
