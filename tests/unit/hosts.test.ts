/**
 * The provider is fictional: every hostname in the brand module and in the
 * content uses the reserved example.com domain, so no sample points at a real
 * company's servers.
 */
import {describe, test} from 'node:test';
import assert from 'node:assert/strict';
import {readdirSync, readFileSync} from 'node:fs';
import path from 'node:path';
import {brand} from '../../src/brand';
import {repoRoot} from '../support/routeContract';

const isExampleHost = (host: string) => host === 'example.com' || host.endsWith('.example.com');

/**
 * Hosts that are namespaces (SVG's xmlns) or the reader's own machine (a notification
 * handler under test listens on localhost), never a third party's server.
 */
const allowedHosts = new Set(['www.w3.org', 'localhost', '127.0.0.1']);

function urlsIn(text: string): string[] {
  return [...text.matchAll(/\bhttps?:\/\/([a-z0-9.-]+)/gi)].map((match) => (match[1] ?? '').toLowerCase());
}

function filesUnder(folder: string): string[] {
  return readdirSync(path.join(repoRoot, folder), {recursive: true, encoding: 'utf8'})
    .filter((file) => /\.(md|mdx|ts|tsx|css|svg|yml|json)$/.test(file))
    .map((file) => path.join(folder, file));
}

describe('hosts', () => {
  test('every brand host is an example.com host', () => {
    const bad = Object.entries(brand.hosts).filter(([, host]) => !isExampleHost(host));
    assert.deepEqual(bad, []);
    assert.ok(isExampleHost(brand.supportEmail.split('@')[1] ?? ''), 'support email domain');
  });

  test('content and components only name example.com hosts', () => {
    const offenders: string[] = [];
    for (const file of ['docs', 'demos', 'blog', 'src', 'static'].flatMap(filesUnder)) {
      const text = readFileSync(path.join(repoRoot, file), 'utf8');
      for (const host of urlsIn(text)) {
        if (!isExampleHost(host) && !allowedHosts.has(host)) offenders.push(`${file}: ${host}`);
      }
    }
    assert.deepEqual(offenders, []);
  });

  test('the host check catches a real domain', () => {
    assert.deepEqual(urlsIn('see https://api.realbank.test/v1 and http://SHOP.example.com').filter((h) => !isExampleHost(h)), [
      'api.realbank.test',
    ]);
  });
});
