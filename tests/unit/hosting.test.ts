import {describe, test} from 'node:test';
import assert from 'node:assert/strict';
import {readFileSync} from 'node:fs';
import path from 'node:path';
import {headersFor, hostingDir, loadHosting, parseHeaders, parseRedirects, prefersMarkdown} from '../../tooling/hosting';
import {routeAliases} from '../../src/routeAliases';
import {brand} from '../../src/brand';
import {localSandboxOrigin} from '../../src/lib/tryIt';

const hosting = loadHosting();
const nginx = readFileSync(path.join(hostingDir, 'nginx.conf'), 'utf8');

describe('hosting configuration', () => {
  test('pages get the security headers; hashed assets are cached for a year', () => {
    const page = headersFor(hosting.headers, '/docs/createorder');
    for (const name of ['Content-Security-Policy', 'Strict-Transport-Security', 'X-Content-Type-Options', 'Referrer-Policy']) {
      assert.ok(page.get(name), `${name} missing`);
    }
    assert.doesNotMatch(page.get('Content-Security-Policy') ?? '', /unsafe-eval|script-src[^;]*unsafe-inline/);
    assert.equal(page.get('Cache-Control'), 'public, max-age=0, must-revalidate');
    assert.equal(headersFor(hosting.headers, '/assets/js/main.abc.js').get('Cache-Control'), 'public, max-age=31536000, immutable');
    assert.equal(headersFor(hosting.headers, '/diagrams/0123456789abcdef.svg').get('Cache-Control'), 'public, max-age=31536000, immutable');
  });

  test("pages may connect to this site and Try it's two sandbox targets, exactly, with no wildcard", () => {
    const policy = headersFor(hosting.headers, '/docs/createorder').get('Content-Security-Policy') ?? '';
    const connect = /(?:^|;)\s*connect-src ([^;]+)/.exec(policy)?.[1]?.trim().split(/\s+/);
    assert.deepEqual(connect, ["'self'", localSandboxOrigin, `https://${brand.hosts.sandboxApi}`]);
    assert.doesNotMatch(policy, /\*/);
  });

  test('nginx.conf sets the same headers with the same values, on pages and on assets', () => {
    for (const rule of hosting.headers) {
      for (const [name, value] of rule.headers) {
        // nginx sets a type with default_type in the location of those files, not with add_header.
        if (name === 'Content-Type') {
          assert.ok(nginx.includes(`default_type "${value}";`), `nginx.conf lacks default_type ${value} for ${rule.pattern}`);
          continue;
        }
        assert.ok(nginx.includes(`add_header ${name} "${value}" always;`), `nginx.conf lacks ${name}: ${value}`);
      }
    }
    const page = headersFor(hosting.headers, '/');
    const assetsBlock = nginx.slice(nginx.indexOf('location ~ ^/(assets|diagrams)/'));
    for (const [name] of page) assert.ok(assetsBlock.includes(`add_header ${name} `), `assets location lacks ${name}`);
  });

  test('feeds are served as Atom and RSS, as the pages announce them, in _headers and nginx.conf', () => {
    assert.equal(headersFor(hosting.headers, '/api-changelog.xml').get('Content-Type'), 'application/atom+xml; charset=utf-8');
    assert.equal(headersFor(hosting.headers, '/blog/atom.xml').get('Content-Type'), 'application/atom+xml; charset=utf-8');
    assert.equal(headersFor(hosting.headers, '/blog/rss.xml').get('Content-Type'), 'application/rss+xml; charset=utf-8');
    assert.equal(headersFor(hosting.headers, '/sitemap.xml').get('Content-Type'), undefined);
    assert.match(
      nginx,
      /location ~ \^\/\(api-changelog\|blog\/atom\)\\\.xml\$ \{\s*types \{ \}\s*default_type "application\/atom\+xml; charset=utf-8";/,
    );
    assert.match(nginx, /location = \/blog\/rss\.xml \{\s*types \{ \}\s*default_type "application\/rss\+xml; charset=utf-8";/);
  });

  test('Markdown twins are text/markdown and the llms files text/plain, in _headers and nginx.conf; pages vary on Accept', () => {
    assert.equal(headersFor(hosting.headers, '/docs/createorder.md').get('Content-Type'), 'text/markdown; charset=utf-8');
    assert.equal(headersFor(hosting.headers, '/index.md').get('Content-Type'), 'text/markdown; charset=utf-8');
    assert.equal(headersFor(hosting.headers, '/docs/createorder').get('Content-Type'), undefined);
    assert.equal(headersFor(hosting.headers, '/llms.txt').get('Content-Type'), 'text/plain; charset=utf-8');
    assert.equal(headersFor(hosting.headers, '/llms-full.txt').get('Content-Type'), 'text/plain; charset=utf-8');
    for (const file of ['/llms-api.txt', '/llms-samples-go.txt'])
      assert.equal(headersFor(hosting.headers, file).get('Content-Type'), 'text/plain; charset=utf-8');
    assert.equal(headersFor(hosting.headers, '/docs/createorder').get('Vary'), 'Accept');
    const mdLocation = nginx.slice(nginx.indexOf('location ~ \\.md$'));
    assert.match(mdLocation, /^location ~ \\\.md\$ \{\s*types \{ \}\s*default_type "text\/markdown; charset=utf-8";/);
    assert.match(nginx, /map \$http_accept \$markdown_twin \{[^}]*"~\*text\/markdown" 1;/);
    const pages = nginx.slice(nginx.indexOf('location / {'));
    assert.match(pages, /if \(\$markdown_twin\) \{\s*rewrite \^\/\$ \/index\.md last;\s*rewrite \^\(\.\+\?\)\/\?\$ \$1\.md last;/);
    assert.equal(prefersMarkdown('text/markdown, text/html;q=0.5'), true);
    assert.equal(prefersMarkdown('text/html,*/*'), false);
  });

  test('redirects equal the route aliases, in _redirects and in nginx.conf', () => {
    assert.deepEqual(
      hosting.redirects.map(({from, to, status}) => [from, to, status]),
      routeAliases.map(({from, to}) => [from, to, 301]),
    );
    for (const {from, to} of routeAliases)
      assert.ok(nginx.includes(`location = ${from} { return 301 ${to}; }`), `nginx.conf lacks ${from}`);
  });

  test('the parsers reject malformed files', () => {
    assert.throws(() => parseHeaders('  X-Orphan: 1\n'), /_headers line 1/);
    assert.throws(() => parseRedirects('/only-from\n'), /_redirects entry 1/);
  });
});
