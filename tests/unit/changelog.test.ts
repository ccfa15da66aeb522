/**
 * The API changelog (api/changelog.yaml) against the contract, the errors bad
 * changelogs get (each names the file, the line and the entry), the page's view
 * of it, and the Atom feed built from it: well-formed XML with one entry per
 * version, escaped properly.
 */
import {describe, test} from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import {
  buildChangelogFeed,
  buildChangelogView,
  changelogPagePath,
  compareVersions,
  displayDate,
  escapeXml,
  loadChangelog,
  parseChangelog,
  versionAnchor,
  type Changelog,
} from '../../src/contract/node/changelog';
import {scanApiPages, type ApiPage} from '../../src/contract/node/apiPages';
import {ContractError, loadContract} from '../../src/contract/node/loadContract';
import type {ChangelogView} from '../../src/contract/changelogModel';
import {lintContent} from '../../tooling/contentLint/contentLint';
import {contractVocabulary} from '../../tooling/contentLint/vocabulary';
import {repoRoot} from '../support/routeContract';

const contract = loadContract(path.join(repoRoot, 'api', 'openapi.yaml'));
const changelogFile = path.join(repoRoot, 'api', 'changelog.yaml');
const current = contract.document.info.version;

// --- A small, strict XML reader: enough for the feed, and it fails on anything malformed. ---

interface XmlElement {
  readonly name: string;
  readonly attributes: Readonly<Record<string, string>>;
  readonly children: ReadonlyArray<XmlElement | string>;
}

const predefinedEntities: Record<string, string> = {amp: '&', lt: '<', gt: '>', quot: '"', apos: "'"};

function decodeEntities(raw: string, where: number): string {
  if (raw.includes('<')) throw new Error(`"<" in character data or an attribute value at ${where}`);
  return raw.replace(/&([^;]*);?/g, (match, name: string) => {
    if (!match.endsWith(';')) throw new Error(`bare "&" at ${where}`);
    if (/^#\d+$/.test(name)) return String.fromCodePoint(Number(name.slice(1)));
    if (/^#x[0-9a-fA-F]+$/.test(name)) return String.fromCodePoint(parseInt(name.slice(2), 16));
    const value = predefinedEntities[name];
    if (value === undefined) throw new Error(`unknown entity &${name}; at ${where}`);
    return value;
  });
}

/** Parses an XML document with an optional declaration and no DTD, comments, CDATA or processing instructions. */
function parseXml(xml: string): XmlElement {
  let at = 0;
  const name = /[A-Za-z_][\w.-]*(?::[A-Za-z_][\w.-]*)?/y;
  const readName = (): string => {
    name.lastIndex = at;
    const match = name.exec(xml);
    if (!match) throw new Error(`expected a name at ${at}`);
    at += match[0].length;
    return match[0];
  };
  const skipSpace = () => {
    while (/\s/.test(xml[at] ?? '')) at += 1;
  };
  const element = (): XmlElement => {
    if (xml[at] !== '<') throw new Error(`expected "<" at ${at}`);
    at += 1;
    const tag = readName();
    const attributes: Record<string, string> = {};
    for (;;) {
      const before = at;
      skipSpace();
      if (xml.startsWith('/>', at)) {
        at += 2;
        return {name: tag, attributes, children: []};
      }
      if (xml[at] === '>') {
        at += 1;
        break;
      }
      if (at === before) throw new Error(`expected whitespace before an attribute at ${at}`);
      const attribute = readName();
      if (attribute in attributes) throw new Error(`attribute ${attribute} twice at ${at}`);
      if (xml[at] !== '=') throw new Error(`expected "=" at ${at}`);
      const quote = xml[at + 1];
      if (quote !== '"' && quote !== "'") throw new Error(`unquoted attribute value at ${at}`);
      const end = xml.indexOf(quote, at + 2);
      if (end < 0) throw new Error(`unterminated attribute value at ${at}`);
      attributes[attribute] = decodeEntities(xml.slice(at + 2, end), at);
      at = end + 1;
    }
    const children: Array<XmlElement | string> = [];
    for (;;) {
      const next = xml.indexOf('<', at);
      if (next < 0) throw new Error(`<${tag}> is never closed`);
      if (next > at) {
        const text = xml.slice(at, next);
        if (text.includes(']]>')) throw new Error(`"]]>" in character data at ${at}`);
        children.push(decodeEntities(text, at));
      }
      at = next;
      if (xml.startsWith('</', at)) {
        at += 2;
        const closing = readName();
        if (closing !== tag) throw new Error(`</${closing}> closes <${tag}> at ${at}`);
        skipSpace();
        if (xml[at] !== '>') throw new Error(`expected ">" at ${at}`);
        at += 1;
        return {name: tag, attributes, children};
      }
      if (xml.startsWith('<!', at) || xml.startsWith('<?', at))
        throw new Error(`comments, CDATA and processing instructions are not expected (at ${at})`);
      children.push(element());
    }
  };
  const declaration = /^<\?xml version="1\.0" encoding="utf-8"\?>/.exec(xml);
  if (declaration) at = declaration[0].length;
  skipSpace();
  const root = element();
  skipSpace();
  if (at !== xml.length) throw new Error(`content after the root element at ${at}`);
  return root;
}

const childElements = (parent: XmlElement, name: string): XmlElement[] =>
  parent.children.filter((child): child is XmlElement => typeof child !== 'string' && child.name === name);
const textOf = (element: XmlElement | undefined): string =>
  element ? element.children.map((child) => (typeof child === 'string' ? child : textOf(child))).join('') : '';
const only = (parent: XmlElement, name: string): XmlElement => {
  const found = childElements(parent, name);
  assert.equal(found.length, 1, `<${parent.name}> has one <${name}>`);
  return found[0] as XmlElement;
};

// --- Fixtures: small changelogs in the file's own format, checked against the real contract. ---

const change = (extra = '') => `      - {type: added, breaking: false, area: Orders, text: A new field on orders.${extra}}\n`;
const entry = (version: string, date: string, changes = change()) =>
  `  - version: ${version}\n    date: ${date}\n    summary: What ${version} brings.\n    changes:\n${changes}`;
const changelogText = (...entries: string[]) => `versions:\n${entries.join('')}`;
const parse = (text: string): Changelog => parseChangelog('api/changelog.yaml', text, contract);

function rejects(text: string, expected: RegExp): void {
  assert.throws(
    () => parse(text),
    (error: unknown) => {
      assert.ok(error instanceof ContractError, `a ContractError, got ${String(error)}`);
      assert.match(error.message, /^api\/changelog\.yaml:\d+:\d+: /, 'names the file and the line');
      assert.match(error.message, expected);
      return true;
    },
  );
}

describe('api/changelog.yaml', () => {
  const changelog = loadChangelog(changelogFile, contract);

  test('loads against the contract: shape, version order, dates, operations and codes', () => {
    assert.ok(changelog.versions.length >= 2);
    assert.equal(changelog.versions.at(-1)?.version, '1.0.0');
  });

  test('its newest version is the contract version (info.version of api/openapi.yaml)', () => {
    assert.equal(changelog.versions[0]?.version, current);
  });

  test('every operation it names has an API page to link to', () => {
    const pages = new Set(scanApiPages(repoRoot).map((page) => page.operationId));
    const named = new Set(changelog.versions.flatMap((version) => version.changes.flatMap((item) => item.operations ?? [])));
    assert.deepEqual(
      [...named].filter((operationId) => !pages.has(operationId)),
      [],
      'operations without a page with <ApiOperation operationId="..." />',
    );
  });

  test('inline code in its texts names fields, values and codes of the contract or the statement file, like page prose', () => {
    const vocabulary = contractVocabulary(contract, []);
    const names = new Set(vocabulary.names);
    const values = new Set(vocabulary.values);
    for (const column of contract.statementColumns) {
      names.add(column.name);
      for (const token of column.meaning.match(/\b[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+\b/g) ?? []) values.add(token);
    }
    const texts = changelog.versions.flatMap((version) =>
      [version.summary, ...version.changes.map((item) => item.text)].map((text) => ({version: version.version, text})),
    );
    const problems = texts.flatMap(({version, text}) =>
      lintContent(changelogFile, text, {names, values, byPage: new Map()}, {isGuide: false, resolveLink: () => undefined}).map(
        (problem) => `${version}: ${problem.message}`,
      ),
    );
    assert.deepEqual(problems, []);
  });

  test('1.1.0 flags the breaking changes of the 1.1 design and nothing else', () => {
    const breaking = changelog.versions.find((version) => version.version === '1.1.0')?.changes.filter((item) => item.breaking) ?? [];
    const about = (pattern: RegExp) => breaking.filter((item) => pattern.test(item.text)).length;
    assert.equal(about(/response canonical string/), 1, 'the response signature');
    assert.equal(about(/stays `PAID`/), 1, 'revoke keeps the order PAID');
    assert.equal(about(/no `merchantRefundNo`/), 1, 'revoke refunds without merchantRefundNo');
    assert.equal(
      breaking.length,
      3,
      'additive changes, the deprecated omission of destinationCurrency and the PositiveMoney schema fix are not breaking',
    );
  });
});

/** The contract version as a regular expression, for the messages that name it. */
const currentPattern = current.replace(/\./g, '\\.');

describe('a bad changelog fails with the file, line and entry named', () => {
  test('a well-formed fixture passes', () => {
    const parsed = parse(
      changelogText(
        entry(current, '2026-11-24', change(', operations: [createOrder, revokeOrder], codes: [ORDER_CLOSED]')),
        entry('1.0.0', '2025-06-01'),
      ),
    );
    assert.deepEqual(
      parsed.versions.map((version) => version.version),
      [current, '1.0.0'],
    );
  });

  test('versions out of order, or listed twice', () => {
    rejects(
      changelogText(entry('1.0.0', '2025-06-01'), entry(current, '2026-11-24')),
      new RegExp(
        String.raw`versions\[1\] \(${currentPattern}\), version: must be older than 1\.0\.0, the entry above it: list versions newest first`,
      ),
    );
    rejects(
      changelogText(entry(current, '2026-11-24'), entry('1.0.0', '2025-06-01'), entry('1.0.1', '2025-05-01')),
      /versions\[2\] \(1\.0\.1\), version: must be older than 1\.0\.0, the entry above it/,
    );
    rejects(
      changelogText(entry(current, '2026-11-24'), entry(current, '2026-11-24')),
      new RegExp(String.raw`versions\[1\] \(${currentPattern}\), version: must be older than ${currentPattern}`),
    );
  });

  test('semver order is numeric, not textual', () => {
    assert.doesNotThrow(() =>
      parse(changelogText(entry(current, '2026-11-24'), entry('1.0.10', '2025-06-01'), entry('1.0.9', '2025-05-01'))),
    );
  });

  test('a date later than the entry above it', () => {
    rejects(
      changelogText(entry(current, '2026-11-24'), entry('1.0.0', '2026-12-01')),
      /versions\[1\] \(1\.0\.0\), date: 2026-12-01 is later than 2026-11-24/,
    );
  });

  test('a newest version other than the contract version', () => {
    rejects(
      changelogText(entry('9.0.0', '2026-11-24')),
      new RegExp(
        `versions\\[0\\] \\(9\\.0\\.0\\), version: the newest entry is 9\\.0\\.0 but api/openapi\\.yaml is version ${current.replace(/\./g, '\\.')}`,
      ),
    );
  });

  test('an operation or a response code the contract lacks', () => {
    rejects(
      changelogText(entry(current, '2026-11-24', change(', operations: [createOrder, createOrders]'))),
      new RegExp(
        String.raw`versions\[0\] \(${currentPattern}\), changes\[0\]\.operations\[1\]: "createOrders" is not an operation or webhook`,
      ),
    );
    rejects(
      changelogText(entry(current, '2026-11-24', change(', codes: [ORDER_LOST]'))),
      /changes\[0\]\.codes\[0\]: "ORDER_LOST" is not in the x-result-codes catalogue/,
    );
  });

  test('the shape: missing, unknown or mistyped fields', () => {
    rejects(
      changelogText(entry(current, '2026-11-24', '      - {type: added, area: Orders, text: No breaking flag.}\n')),
      /changes\[0\]: "breaking" is required/,
    );
    rejects(
      changelogText(entry(current, '2026-11-24', '      - {type: improved, breaking: false, area: Orders, text: Better.}\n')),
      /changes\[0\]\.type: must be one of "added", "changed"/,
    );
    rejects(
      changelogText(entry(current, '2026-11-24', '      - {type: added, breaking: false, area: Checkout, text: New.}\n')),
      /changes\[0\]\.area: must be one of "Signing"/,
    );
    rejects(
      changelogText(entry(current, '2026-11-24', '      - {type: added, breaking: no, area: Orders, text: New.}\n')),
      /changes\[0\]\.breaking: must be boolean/,
    );
    rejects(changelogText(entry(current, '2026-11-24', change(', link: /docs/x'))), /changes\[0\]\.link: unknown field "link"/);
    rejects(
      `versions:\n  - version: ${current}\n    date: 2026-11-24\n    summary: Nothing yet.\n    changes: []\n`,
      new RegExp(String.raw`versions\[0\] \(${currentPattern}\), changes: must NOT have fewer than 1 items`),
    );
    rejects(
      changelogText(entry(current, '2026-02-30')),
      new RegExp(String.raw`versions\[0\] \(${currentPattern}\), date: must be a date YYYY-MM-DD that exists`),
    );
    rejects(changelogText(entry(`v${current}`, '2026-11-24')), /version: must be a version MAJOR\.MINOR\.PATCH/);
    rejects('versions: []\n', /\(top level\)|versions: must NOT have fewer than 1 items/);
  });

  test('an unpaired backtick, and YAML that does not parse', () => {
    rejects(changelogText(entry(current, '2026-11-24', change(' Use `merchantOrderNo.'))), /changes\[0\]\.text: has an unpaired backtick/);
    rejects('versions:\n  - version: [1.1.0\n', /invalid YAML/);
  });
});

describe('changelog helpers', () => {
  test('versions compare numerically, part by part', () => {
    for (const [older, newer] of [
      ['1.0.0', '1.1.0'],
      ['1.0.9', '1.0.10'],
      ['1.9.9', '2.0.0'],
      ['0.9.0', '1.0.0'],
    ] as const) {
      assert.ok(compareVersions(older, newer) < 0, `${older} < ${newer}`);
      assert.ok(compareVersions(newer, older) > 0, `${newer} > ${older}`);
    }
    assert.equal(compareVersions('1.1.0', '1.1.0'), 0);
  });

  test('anchors and dates as the page shows them', () => {
    assert.equal(versionAnchor('1.1.0'), 'v1-1-0');
    assert.equal(versionAnchor('10.0.12'), 'v10-0-12');
    assert.equal(displayDate('2026-11-24'), '24 November 2026');
    assert.equal(displayDate('2025-06-01'), '1 June 2025');
  });

  test('XML escaping covers markup characters, quotes and characters XML forbids', () => {
    assert.equal(escapeXml(`a < b & c > "d" 'e'`), 'a &lt; b &amp; c &gt; &quot;d&quot; &apos;e&apos;');
    assert.equal(escapeXml('bell\u0007'), 'bell\uFFFD');
  });
});

describe('the page view and the feed', () => {
  const pages = new Map<string, ApiPage>([
    ['createOrder', {operationId: 'createOrder', file: 'docs/createorder.md', url: '/docs/createorder'}],
    ['revokeOrder', {operationId: 'revokeOrder', file: 'docs/revoke.md', url: '/docs/revoke'}],
  ]);
  const fixture = parse(
    changelogText(
      entry(
        current,
        '2026-11-24',
        [
          '      - {type: changed, breaking: true, area: Orders, text: "Revoke order answers `SUCCESS` where it said <ORDER_NOT_FOUND> & more.", operations: [revokeOrder], codes: [ORDER_NOT_FOUND]}\n',
          change(', operations: [createOrder]'),
        ].join(''),
      ),
      entry('1.0.0', '2025-06-01'),
    ),
  );
  const view: ChangelogView = buildChangelogView(fixture, contract, pages);
  const site = {url: 'https://developers.example.com', name: 'Veloxa Pay'};

  test('the view links each operation to its page, by its summary in the contract', () => {
    const first = view.versions[0];
    assert.equal(first?.anchor, versionAnchor(current));
    assert.equal(first?.displayDate, '24 November 2026');
    assert.deepEqual(first?.changes[0]?.operations, [{operationId: 'revokeOrder', summary: 'Revoke order', url: '/docs/revoke'}]);
    assert.deepEqual(first?.changes[0]?.codes, ['ORDER_NOT_FOUND']);
    assert.deepEqual(view.versions[1]?.changes[0]?.operations, []);
    assert.equal(view.feedPath, '/api-changelog.xml');
  });

  test('an operation without a page cannot be linked', () => {
    assert.throws(() => buildChangelogView(fixture, contract, new Map()), /operation "revokeOrder" has no API page/);
  });

  test('the feed is well-formed Atom with one entry per version, newest first, linking to each heading', () => {
    const feed = parseXml(buildChangelogFeed(view, site));
    assert.equal(feed.name, 'feed');
    assert.equal(feed.attributes.xmlns, 'http://www.w3.org/2005/Atom');
    assert.equal(textOf(only(feed, 'id')), 'https://developers.example.com/api-changelog.xml');
    assert.equal(textOf(only(feed, 'title')), 'Veloxa Pay API changelog');
    assert.equal(textOf(only(feed, 'updated')), '2026-11-24T00:00:00Z');
    assert.equal(textOf(only(only(feed, 'author'), 'name')), 'Veloxa Pay');
    const links = childElements(feed, 'link').map((link) => [link.attributes.rel, link.attributes.href]);
    assert.deepEqual(links, [
      ['self', 'https://developers.example.com/api-changelog.xml'],
      ['alternate', `https://developers.example.com${changelogPagePath}`],
    ]);

    const entries = childElements(feed, 'entry');
    assert.equal(entries.length, view.versions.length);
    entries.forEach((item, index) => {
      const version = view.versions[index];
      assert.ok(version);
      const href = `https://developers.example.com${changelogPagePath}#${version.anchor}`;
      assert.equal(textOf(only(item, 'id')), href);
      assert.equal(textOf(only(item, 'title')), `Veloxa Pay API ${version.version}`);
      assert.equal(textOf(only(item, 'updated')), `${version.date}T00:00:00Z`);
      assert.equal(textOf(only(item, 'published')), `${version.date}T00:00:00Z`);
      assert.equal(only(item, 'link').attributes.href, href);
      assert.equal(textOf(only(item, 'summary')), version.summary);
      assert.equal(only(item, 'content').attributes.type, 'html');
    });
  });

  test('the content lists every change, breaking first, escaped once for HTML and once for XML', () => {
    const feed = parseXml(buildChangelogFeed(view, site));
    const html = textOf(only(childElements(feed, 'entry')[0] as XmlElement, 'content'));
    // What a feed reader renders: markup of our own, the text's own "<", ">" and "&" as entities.
    assert.match(
      html,
      new RegExp(
        String.raw`^<p>What ${currentPattern} brings\.</p><h3>Breaking changes</h3><ul><li><strong>Breaking\.</strong> <em>Changed</em>, Orders: `,
      ),
    );
    assert.ok(html.includes('Revoke order answers <code>SUCCESS</code> where it said &lt;ORDER_NOT_FOUND&gt; &amp; more.'), html);
    assert.ok(html.includes('Operations: <a href="https://developers.example.com/docs/revoke">Revoke order</a>.'));
    assert.ok(html.includes('Response codes: <code>ORDER_NOT_FOUND</code>.'));
    assert.ok(
      html.includes(
        '<h3>Other changes</h3><ul><li><em>Added</em>, Orders: A new field on orders. Operations: <a href="https://developers.example.com/docs/createorder">Create order</a>.</li></ul>',
      ),
    );
    const older = textOf(only(childElements(feed, 'entry')[1] as XmlElement, 'content'));
    assert.match(older, /<h3>Changes<\/h3>/);
    assert.doesNotMatch(older, /Breaking/);
  });

  test('the real changelog makes a well-formed feed with an entry per version', () => {
    const changelog = loadChangelog(changelogFile, contract);
    const allPages = new Map(
      changelog.versions
        .flatMap((version) => version.changes.flatMap((item) => item.operations ?? []))
        .map((operationId): [string, ApiPage] => [
          operationId,
          {operationId, file: 'docs/x.md', url: `/docs/${operationId.toLowerCase()}`},
        ]),
    );
    const feed = parseXml(buildChangelogFeed(buildChangelogView(changelog, contract, allPages), site));
    assert.deepEqual(
      childElements(feed, 'entry').map((item) => textOf(only(item, 'title'))),
      changelog.versions.map((version) => `Veloxa Pay API ${version.version}`),
    );
  });

  test('the XML reader used here rejects malformed documents', () => {
    for (const [label, xml] of [
      ['unclosed element', '<feed><entry></feed>'],
      ['mismatched end tag', '<feed><id>x</title></feed>'],
      ['bare ampersand', '<feed><title>A & B</title></feed>'],
      ['"<" in an attribute', '<feed><link href="a<b"/></feed>'],
      ['unquoted attribute', '<feed><link href=x/></feed>'],
      ['two roots', '<feed/><feed/>'],
      ['unknown entity', '<feed><title>&nbsp;</title></feed>'],
    ] as const) {
      assert.throws(() => parseXml(xml), Error, label);
    }
    assert.equal(textOf(parseXml('<?xml version="1.0" encoding="utf-8"?>\n<a x="&quot;1&quot;">b &amp; <c>d</c></a>')), 'b & d');
  });
});
