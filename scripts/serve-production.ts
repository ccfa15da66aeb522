/**
 * Serves a production build the way the hosting configuration does: gzip
 * compression, the security and cache headers of hosting/_headers, the 301s
 * of hosting/_redirects, clean URLs and the not-found page with status 404.
 * Used by the end-to-end tests and the benchmark; not a production server.
 *
 * Usage: tsx scripts/serve-production.ts [build-dir] [port]
 */
import {existsSync, statSync} from 'node:fs';
import {createServer} from 'node:http';
import path from 'node:path';
import compression from 'compression';
import serveHandler from 'serve-handler';
import {headersFor, loadHosting} from './hosting';

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

const server = createServer((req, res) => {
  compress(req as never, res as never, () => {
    const url = new URL(req.url ?? '/', 'http://localhost');
    const redirect = hosting.redirects.find((candidate) => candidate.from === url.pathname.replace(/\/$/, ''));
    for (const [name, value] of headersFor(hosting.headers, url.pathname)) res.setHeader(name, value);
    if (redirect) {
      res.writeHead(redirect.status, {Location: redirect.to + url.search}).end();
      return;
    }
    const file = resolveFile(url.pathname);
    if (!file) {
      res.statusCode = 404;
      req.url = '/404.html';
    } else {
      req.url = file + url.search;
    }
    void serveHandler(req, res, {public: root, cleanUrls: false, directoryListing: false, etag: true});
  });
});

server.listen(port, '127.0.0.1', () => {
  console.log(`Serving ${root} at http://127.0.0.1:${port} with the hosting configuration`);
});
