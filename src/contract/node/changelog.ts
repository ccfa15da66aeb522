/**
 * The API changelog (api/changelog.yaml): loads and checks it against the contract, builds what
 * the changelog page shows (a generated module the ApiChangelog component imports) and the Atom
 * feed published beside the site. Any problem is a ContractError naming the file, the line and
 * the entry, so a bad changelog stops the build.
 *
 * Checked: the shape (JSON Schema, with Ajv), versions strictly descending and dates never
 * increasing, the newest version equal to the contract's info.version, every operation ID an
 * operation or webhook of the contract, every code in its x-result-codes, paired backticks.
 */
import {readFileSync} from 'node:fs';
import {mkdir, writeFile} from 'node:fs/promises';
import path from 'node:path';
import Ajv2020, {type ErrorObject} from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import {LineCounter, parseDocument, type Document} from 'yaml';
import {changeTypes, type ChangeType, type ChangelogChange, type ChangelogView} from '../changelogModel';
import {splitCodeSpans} from '../../lib/codeSpans';
import type {ApiPage} from './apiPages';
import {ContractError, contractRelativePath, type LoadedContract} from './loadContract';

/** Where the changelog lives, relative to the site directory. */
export const changelogRelativePath = path.join('api', 'changelog.yaml');

/** The page that shows it (docs/api-changelog.mdx); postBuild checks that it was built. */
export const changelogPagePath = '/docs/api-changelog';

/** The Atom feed, published at the site root. */
export const changelogFeedFile = 'api-changelog.xml';

/**
 * The page's data module, under the site's generated files, which the bundler serves as
 * `@generated/openapi-contract/api-changelog.json` (declared in src/components/api/ApiChangelog/).
 */
export const changelogModule = path.join('openapi-contract', 'api-changelog.json');

/** The areas a change can belong to; the page shows them as written. */
export const changelogAreas = [
  'Signing',
  'Idempotency',
  'Money',
  'Orders',
  'Refunds',
  'Payouts',
  'Balance',
  'Statements',
  'Notifications',
  'Events',
  'Agreements',
  'Wallet auth',
  'Rate limits',
  'Timeouts',
  'Compatibility',
] as const;

interface RawChange {
  readonly type: ChangeType;
  readonly breaking: boolean;
  readonly area: string;
  readonly text: string;
  readonly operations?: readonly string[];
  readonly codes?: readonly string[];
}

interface RawVersion {
  readonly version: string;
  readonly date: string;
  readonly summary: string;
  readonly changes: readonly RawChange[];
}

/** The changelog as the file states it, checked. */
export interface Changelog {
  readonly file: string;
  readonly versions: readonly RawVersion[];
}

const semver = /^(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)$/;

const oneLineText = {type: 'string', minLength: 1, pattern: '\\S'};

const changelogSchema = {
  type: 'object',
  required: ['versions'],
  additionalProperties: false,
  properties: {
    versions: {
      type: 'array',
      minItems: 1,
      items: {
        type: 'object',
        required: ['version', 'date', 'summary', 'changes'],
        additionalProperties: false,
        properties: {
          version: {type: 'string', pattern: semver.source},
          date: {type: 'string', format: 'date'},
          summary: oneLineText,
          changes: {
            type: 'array',
            minItems: 1,
            items: {
              type: 'object',
              required: ['type', 'breaking', 'area', 'text'],
              additionalProperties: false,
              properties: {
                type: {enum: changeTypes},
                breaking: {type: 'boolean'},
                area: {enum: changelogAreas},
                text: oneLineText,
                operations: {type: 'array', minItems: 1, uniqueItems: true, items: {type: 'string', minLength: 1}},
                codes: {type: 'array', minItems: 1, uniqueItems: true, items: {type: 'string', minLength: 1}},
              },
            },
          },
        },
      },
    },
  },
} as const;

const validateShape = (() => {
  const ajv = new Ajv2020({allErrors: false});
  addFormats(ajv, ['date']);
  return ajv.compile<{versions: RawVersion[]}>(changelogSchema);
})();

/** Compares two MAJOR.MINOR.PATCH versions: negative when a is older than b. */
export function compareVersions(a: string, b: string): number {
  const parse = (version: string) => version.split('.').map(Number);
  const [left, right] = [parse(a), parse(b)];
  for (let index = 0; index < 3; index += 1) {
    const difference = (left[index] ?? 0) - (right[index] ?? 0);
    if (difference !== 0) return difference;
  }
  return 0;
}

/** The id of a version's heading on the page: "1.1.0" becomes "v1-1-0". */
export function versionAnchor(version: string): string {
  return `v${version.replace(/\./g, '-')}`;
}

const months = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];

/** "2026-11-24" as "24 November 2026", at build time, so the page needs no Intl in the browser. */
export function displayDate(date: string): string {
  const [year, month, day] = date.split('-').map(Number);
  return `${day} ${months[(month ?? 1) - 1]} ${year}`;
}

type PathSegment = string | number;

/** Reads, places and labels problems in the changelog file. */
class ChangelogReader {
  private readonly lineCounter = new LineCounter();
  readonly document: Document.Parsed;

  constructor(
    readonly file: string,
    text: string,
  ) {
    this.document = parseDocument(text, {lineCounter: this.lineCounter, prettyErrors: false});
    const first = this.document.errors[0];
    if (first) {
      const at = this.lineCounter.linePos(first.pos[0]);
      throw new ContractError(`${file}:${at.line}:${at.col}: invalid YAML: ${first.message.split('\n')[0]}`);
    }
  }

  /** "file:line:col: versions[0] (1.1.0), changes[3].type: message", pointing at the nearest node that exists. */
  problem(at: readonly PathSegment[], message: string): ContractError {
    let line = '';
    for (let length = at.length; length >= 0; length -= 1) {
      const node: unknown = this.document.getIn(at.slice(0, length), true);
      const range = (node as {range?: [number, number, number]} | undefined)?.range;
      if (range) {
        const position = this.lineCounter.linePos(range[0]);
        line = `:${position.line}:${position.col}`;
        break;
      }
    }
    return new ContractError(`${this.file}${line}: ${this.label(at)}: ${message}`);
  }

  private label(at: readonly PathSegment[]): string {
    if (at.length === 0) return '(top level)';
    const [first, index, ...rest] = at;
    if (first !== 'versions' || typeof index !== 'number') return at.map(String).join('.');
    const version: unknown = this.document.getIn(['versions', index, 'version']);
    const entry = `versions[${index}]${typeof version === 'string' ? ` (${version})` : ''}`;
    if (rest.length === 0) return entry;
    return `${entry}, ${rest.map((segment, position) => (typeof segment === 'number' ? `[${segment}]` : `${position === 0 ? '' : '.'}${segment}`)).join('')}`;
  }
}

/** One Ajv error as the place it concerns and what is wrong there. */
function shapeProblem(error: ErrorObject): {at: PathSegment[]; message: string} {
  const at: PathSegment[] = error.instancePath
    .split('/')
    .slice(1)
    .map((segment) => (/^\d+$/.test(segment) ? Number(segment) : segment.replace(/~1/g, '/').replace(/~0/g, '~')));
  const params = error.params as {missingProperty?: string; additionalProperty?: string; allowedValues?: unknown[]};
  switch (error.keyword) {
    case 'required':
      return {at, message: `"${params.missingProperty}" is required.`};
    case 'additionalProperties':
      return {
        at: [...at, params.additionalProperty ?? ''],
        message: `unknown field "${params.additionalProperty}" (see the header of the file for the fields an entry has).`,
      };
    case 'enum':
      return {at, message: `must be one of ${(params.allowedValues ?? []).map((value) => JSON.stringify(value)).join(', ')}.`};
    case 'pattern':
      return {
        at,
        message:
          at.at(-1) === 'version' ? 'must be a version MAJOR.MINOR.PATCH, such as 1.1.0 (quote nothing, no "v").' : 'must not be empty.',
      };
    case 'format':
      return {at, message: 'must be a date YYYY-MM-DD that exists.'};
    default:
      return {at, message: `${error.message ?? 'is invalid'}.`};
  }
}

/**
 * Checks changelog text against the contract; throws a ContractError on the first problem.
 * Pure: `file` only names the source in messages.
 */
export function parseChangelog(file: string, text: string, contract: LoadedContract): Changelog {
  const reader = new ChangelogReader(file, text);
  const data: unknown = reader.document.toJS();
  if (!validateShape(data)) {
    const [first] = validateShape.errors ?? [];
    const problem = first ? shapeProblem(first) : {at: [], message: 'does not have the documented shape.'};
    throw reader.problem(problem.at, problem.message);
  }
  const {versions} = data;
  const contractVersion = contract.document.info?.version;

  versions.forEach((entry, index) => {
    const previous = versions[index - 1];
    if (previous && compareVersions(entry.version, previous.version) >= 0) {
      throw reader.problem(
        ['versions', index, 'version'],
        `must be older than ${previous.version}, the entry above it: list versions newest first, each once.`,
      );
    }
    if (previous && entry.date > previous.date) {
      throw reader.problem(
        ['versions', index, 'date'],
        `${entry.date} is later than ${previous.date}, the date of ${previous.version} above it: dates go back in time down the file.`,
      );
    }
    entry.changes.forEach((change, changeIndex) => {
      const at = ['versions', index, 'changes', changeIndex];
      if ((change.text.match(/`/g) ?? []).length % 2 === 1) {
        throw reader.problem([...at, 'text'], 'has an unpaired backtick: wrap each piece of code in a pair.');
      }
      change.operations?.forEach((operationId, position) => {
        if (!contract.operations.has(operationId)) {
          throw reader.problem(
            [...at, 'operations', position],
            `"${operationId}" is not an operation or webhook of ${contractRelativePath}.`,
          );
        }
      });
      change.codes?.forEach((code, position) => {
        if (!contract.resultCodes.has(code)) {
          throw reader.problem([...at, 'codes', position], `"${code}" is not in the x-result-codes catalogue of ${contractRelativePath}.`);
        }
      });
    });
  });

  const newest = versions[0];
  if (newest && newest.version !== contractVersion) {
    throw reader.problem(
      ['versions', 0, 'version'],
      `the newest entry is ${newest.version} but ${contractRelativePath} is version ${String(contractVersion)}: add an entry for ${String(contractVersion)} (or correct info.version).`,
    );
  }
  return {file, versions};
}

/** parseChangelog on a file. */
export function loadChangelog(file: string, contract: LoadedContract): Changelog {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch {
    throw new ContractError(`${file}: cannot read the file; the changelog page and feed are built from it.`);
  }
  return parseChangelog(file, text, contract);
}

/** What the changelog page shows: each operation resolved to its API page (checkApiPages' map). */
export function buildChangelogView(
  changelog: Changelog,
  contract: LoadedContract,
  pages: ReadonlyMap<string, ApiPage>,
  feedPath = `/${changelogFeedFile}`,
): ChangelogView {
  return {
    feedPath,
    versions: changelog.versions.map((entry) => ({
      version: entry.version,
      anchor: versionAnchor(entry.version),
      date: entry.date,
      displayDate: displayDate(entry.date),
      summary: entry.summary,
      changes: entry.changes.map(
        (change): ChangelogChange => ({
          type: change.type,
          breaking: change.breaking,
          area: change.area,
          text: change.text,
          operations: (change.operations ?? []).map((operationId) => {
            const page = pages.get(operationId);
            if (!page)
              throw new ContractError(`${changelog.file}: ${entry.version}: operation "${operationId}" has no API page to link to.`);
            return {operationId, summary: contract.operations.get(operationId)?.operation.summary ?? operationId, url: page.url};
          }),
          codes: change.codes ?? [],
        }),
      ),
    })),
  };
}

/** Text made safe for XML character data and attribute values; characters XML 1.0 forbids become U+FFFD. */
export function escapeXml(text: string): string {
  return text
    .replace(/[^\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu, '\uFFFD')
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&apos;');
}

/** A changelog text as HTML: escaped, with its `backtick` spans as code. */
function textHtml(text: string): string {
  return splitCodeSpans(text)
    .map((run) => (run.code ? `<code>${escapeXml(run.text)}</code>` : escapeXml(run.text)))
    .join('');
}

const typeLabels: Record<ChangeType, string> = {
  added: 'Added',
  changed: 'Changed',
  deprecated: 'Deprecated',
  removed: 'Removed',
  fixed: 'Fixed',
  security: 'Security',
};

function changeHtml(change: ChangelogChange, siteUrl: string): string {
  const parts = [
    `${change.breaking ? '<strong>Breaking.</strong> ' : ''}<em>${typeLabels[change.type]}</em>, ${escapeXml(change.area)}: ${textHtml(change.text)}`,
  ];
  if (change.operations.length > 0) {
    parts.push(
      `Operations: ${change.operations.map((operation) => `<a href="${escapeXml(siteUrl + operation.url)}">${escapeXml(operation.summary)}</a>`).join(', ')}.`,
    );
  }
  if (change.codes.length > 0) parts.push(`Response codes: ${change.codes.map((code) => `<code>${escapeXml(code)}</code>`).join(', ')}.`);
  return `<li>${parts.join(' ')}</li>`;
}

export interface FeedSite {
  /** The site's URL with its base path and no trailing slash, such as "https://developers.example.com". */
  readonly url: string;
  /** The provider's name, for the feed's title and author. */
  readonly name: string;
}

/** The changelog as an Atom 1.0 feed (RFC 4287): one entry per version, newest first, linking to its heading on the page. */
export function buildChangelogFeed(view: ChangelogView, site: FeedSite, pagePath = changelogPagePath): string {
  const pageUrl = site.url + pagePath;
  const timestamp = (date: string) => `${date}T00:00:00Z`;
  const newest = view.versions[0];
  const entries = view.versions.map((version) => {
    const link = `${pageUrl}#${version.anchor}`;
    const breaking = version.changes.filter((change) => change.breaking);
    const others = version.changes.filter((change) => !change.breaking);
    const list = (changes: readonly ChangelogChange[]) => `<ul>${changes.map((change) => changeHtml(change, site.url)).join('')}</ul>`;
    const html = [
      `<p>${textHtml(version.summary)}</p>`,
      ...(breaking.length > 0 ? [`<h3>Breaking changes</h3>`, list(breaking)] : []),
      ...(others.length > 0 ? [`<h3>${breaking.length > 0 ? 'Other changes' : 'Changes'}</h3>`, list(others)] : []),
    ].join('');
    return [
      '  <entry>',
      `    <id>${escapeXml(link)}</id>`,
      `    <title>${escapeXml(`${site.name} API ${version.version}`)}</title>`,
      `    <link rel="alternate" type="text/html" href="${escapeXml(link)}"/>`,
      `    <published>${timestamp(version.date)}</published>`,
      `    <updated>${timestamp(version.date)}</updated>`,
      `    <summary>${escapeXml(version.summary)}</summary>`,
      `    <content type="html">${escapeXml(html)}</content>`,
      '  </entry>',
    ].join('\n');
  });
  return [
    '<?xml version="1.0" encoding="utf-8"?>',
    '<feed xmlns="http://www.w3.org/2005/Atom">',
    `  <id>${escapeXml(site.url + view.feedPath)}</id>`,
    `  <title>${escapeXml(`${site.name} API changelog`)}</title>`,
    `  <subtitle>${escapeXml(`Every change to the ${site.name} payment API, by version.`)}</subtitle>`,
    `  <link rel="self" type="application/atom+xml" href="${escapeXml(site.url + view.feedPath)}"/>`,
    `  <link rel="alternate" type="text/html" href="${escapeXml(pageUrl)}"/>`,
    `  <updated>${timestamp(newest?.date ?? '1970-01-01')}</updated>`,
    `  <author><name>${escapeXml(site.name)}</name></author>`,
    ...entries,
    '</feed>',
    '',
  ].join('\n');
}

/** Writes the page's data module (contentLoaded). */
export async function writeChangelogModule(generatedFilesDir: string, view: ChangelogView): Promise<void> {
  const file = path.join(generatedFilesDir, changelogModule);
  await mkdir(path.dirname(file), {recursive: true});
  await writeFile(file, JSON.stringify(view));
}

/** Writes the feed into the built site (postBuild), after checking that the page it links to was built. */
export async function writeChangelogFeed(
  outDir: string,
  view: ChangelogView,
  site: FeedSite,
  routesPaths: readonly string[],
): Promise<void> {
  if (!routesPaths.includes(changelogPagePath)) {
    throw new ContractError(
      `openapi-contract: the API changelog feed links to ${changelogPagePath}, but the build has no such page (docs/api-changelog.mdx renders it).`,
    );
  }
  await writeFile(path.join(outDir, changelogFeedFile), buildChangelogFeed(view, site));
}
