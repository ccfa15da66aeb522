/**
 * Hosts, the support address and the sandbox client ID have one source, src/brand.ts. The code
 * reads them from there; the contract and the prose cannot import TypeScript and name them as
 * text, so this test holds every file to brand: an adopter who edits brand.ts gets the list of
 * files that still name the old values.
 *
 * And the provider is fictional: every hostname uses the reserved example.com domain, so no
 * sample points at a real company's servers.
 */
import {describe, test} from 'node:test';
import assert from 'node:assert/strict';
import {readdirSync, readFileSync} from 'node:fs';
import path from 'node:path';
import {brand} from '../../src/brand';
import {allContentSections} from '../../src/contentSections';
import {contractRelativePath, loadContract} from '../../src/contract/node/loadContract';
import {repoRoot} from '../support/routeContract';

const isExampleHost = (host: string) => host === 'example.com' || host.endsWith('.example.com');

/**
 * Hosts that are namespaces (SVG's xmlns, a JSON Schema's `$schema` dialect URI, which names the
 * dialect and is never fetched) or the reader's own machine (a notification handler under test
 * listens on localhost), never a third party's server.
 */
const allowedHosts = new Set(['www.w3.org', 'json-schema.org', 'localhost', '127.0.0.1']);

/** Hosts of the http(s) URLs in a text. */
function urlHostsIn(text: string): string[] {
  return [...text.matchAll(/\bhttps?:\/\/([a-z0-9.-]+)/gi)].map((match) => (match[1] ?? '').toLowerCase());
}

/** Every name under example.com in a text, with or without a scheme (prose names hosts bare). */
function exampleHostsIn(text: string): string[] {
  return [...text.matchAll(/(?<![\w.-])((?:[a-z0-9-]+\.)+example\.com)\b/gi)].map((match) => (match[1] ?? '').toLowerCase());
}

/** The look-behind starts a match only where a run of address characters starts: without it, a long run with no `@` (a key, a hash) is rescanned from every position, quadratic time (this test once took three minutes). */
function exampleAddressesIn(text: string): string[] {
  return [...text.matchAll(/(?<![\w.+-])[\w.+-]+@example\.com\b/gi)].map((match) => match[0].toLowerCase());
}

function sandboxClientIdsIn(text: string): string[] {
  return [...text.matchAll(/\bsandbox-merchant-[\w-]+/g)].map((match) => match[0]);
}

/**
 * The files that can name a host: the contract and its data, the content sections, the code,
 * the configuration and the contributor documents. This file is left out: it names wrong hosts
 * on purpose, to check the matchers.
 */
function filesToCheck(): string[] {
  const folders = [
    ...allContentSections.map((section) => section.folder),
    'api',
    'src',
    'static',
    'plugins',
    'scripts',
    'tooling',
    'tests',
    'sidebars',
  ];
  const underFolders = folders.flatMap((folder) =>
    readdirSync(path.join(repoRoot, folder), {recursive: true, encoding: 'utf8'})
      .filter((file) => /\.(md|mdx|ts|tsx|js|css|svg|yml|yaml|json)$/.test(file))
      .map((file) => path.join(folder, file).split(path.sep).join('/')),
  );
  const self = path.relative(repoRoot, __filename).split(path.sep).join('/');
  return [...new Set([...underFolders, 'docusaurus.config.ts', 'README.md', 'CONTRIBUTING.md', 'redocly.yaml'])]
    .filter((file) => file !== self)
    .sort();
}

/** Regular expressions in the contract escape their dots (pattern: '^https://files\\.example\\.com/'): read them as hosts too. */
const unescapeDots = (text: string) => text.replace(/\\\./g, '.');
const files = filesToCheck().map((file) => ({file, text: unescapeDots(readFileSync(path.join(repoRoot, file), 'utf8'))}));
const brandHosts = new Set(Object.values(brand.hosts));

describe('hosts', () => {
  test('every brand host is an example.com host', () => {
    const bad = Object.entries(brand.hosts).filter(([, host]) => !isExampleHost(host));
    assert.deepEqual(bad, []);
    assert.ok(isExampleHost(brand.supportEmail.split('@')[1] ?? ''), 'support email domain');
  });

  test("the contract's servers are brand's API hosts", () => {
    const contract = loadContract(path.join(repoRoot, contractRelativePath));
    const hosts = (contract.document.servers ?? []).map((server) => new URL(server.url).hostname);
    assert.deepEqual(hosts, [brand.hosts.sandboxApi, brand.hosts.productionApi]);
  });

  test("every example.com host the contract, the content and the code name is one of brand's", () => {
    const offenders = files.flatMap(({file, text}) =>
      exampleHostsIn(text)
        .filter((host) => !brandHosts.has(host))
        .map((host) => `${file}: ${host}`),
    );
    assert.deepEqual([...new Set(offenders)], [], 'name these hosts in src/brand.ts, or use one it has');
  });

  test("every example.com address is brand's support address", () => {
    const offenders = files.flatMap(({file, text}) =>
      exampleAddressesIn(text)
        .filter((address) => address !== brand.supportEmail)
        .map((address) => `${file}: ${address}`),
    );
    assert.deepEqual(offenders, []);
  });

  test("every sandbox client ID named is brand's", () => {
    const offenders = files.flatMap(({file, text}) =>
      sandboxClientIdsIn(text)
        .filter((id) => id !== brand.sandboxClientId)
        .map((id) => `${file}: ${id}`),
    );
    assert.deepEqual([...new Set(offenders)], []);
  });

  test('content and components only name example.com hosts', () => {
    const offenders = files.flatMap(({file, text}) =>
      urlHostsIn(text)
        .filter((host) => !isExampleHost(host) && !allowedHosts.has(host))
        .map((host) => `${file}: ${host}`),
    );
    // What readers see: the content, the components and the contract. Code comments may link real sites (the
    // theme's upstream copies link Docusaurus issues, and the tooling its libraries' documentation).
    const published = offenders.filter((line) => /^(docs|demos|blog|src\/pages|src\/components|static|api)\//.test(line));
    assert.deepEqual(published, []);
  });

  test('the matchers find hosts, addresses and client IDs, with or without a scheme', () => {
    assert.deepEqual(
      urlHostsIn('see https://api.realbank.test/v1 and http://SHOP.example.com').filter((host) => !isExampleHost(host)),
      ['api.realbank.test'],
    );
    assert.deepEqual(
      exampleHostsIn('Call `payments.example.com`, then https://files.example.com/x; the rule no-server-example.com is off.'),
      ['payments.example.com', 'files.example.com'],
    );
    assert.deepEqual(exampleAddressesIn('Write to help@example.com.'), ['help@example.com']);
    assert.deepEqual(sandboxClientIdsIn('client ID `sandbox-merchant-0002`'), ['sandbox-merchant-0002']);
    assert.deepEqual(exampleHostsIn(unescapeDots(String.raw`pattern: '^https://files\.example\.com/'`)), ['files.example.com']);
  });
});
