/**
 * Holds the content tree to the route contract and the portal's extra pages
 * (src/extraRoutes.ts): every docs and demos route has exactly one source file,
 * no file publishes a route neither list names, every doc sits in its sidebar
 * exactly once, and the aliases match.
 */
import {describe, test} from 'node:test';
import assert from 'node:assert/strict';
import docsSidebars from '../../sidebars/docs';
import demosSidebars from '../../sidebars/demos';
import {contentSections} from '../../src/contentSections';
import {extraRoutes} from '../../src/extraRoutes';
import {routeAliases} from '../../src/routeAliases';
import {docId, docUrl} from '../../src/contract/node/docRoutes';
import {loadRouteContract, sitePages} from '../support/routeContract';
import {readContentFolder} from '../support/contentTree';

const contract = loadRouteContract();

/** The part of a sidebar item this test reads (the sidebars use doc ids, docs and categories). */
type SidebarEntry = string | {readonly type: string; readonly id?: string; readonly items?: readonly SidebarEntry[]};

/** Doc ids a sidebar references, in order, with repeats. */
function sidebarDocIds(items: readonly SidebarEntry[]): string[] {
  return items.flatMap((item): string[] => {
    if (typeof item === 'string') return [item];
    if (item.items) return sidebarDocIds(item.items);
    return item.id !== undefined && (item.type === 'doc' || item.type === 'ref') ? [item.id] : [];
  });
}

/** Each docs section's routes: the contract's and the portal's extra pages (src/extraRoutes.ts). */
const sections = [
  {
    ...contentSections.docs,
    contractRoutes: contract.pages.docs ?? [],
    routes: sitePages(contract, 'docs'),
    extras: extraRoutes.docs,
    sidebar: docsSidebars.docs,
  },
  {
    ...contentSections.demos,
    contractRoutes: contract.pages.demos ?? [],
    routes: sitePages(contract, 'demos'),
    extras: extraRoutes.demos,
    sidebar: demosSidebars.demos,
  },
] as const;

for (const section of sections) {
  describe(`${section.folder}/ against the route contract`, () => {
    const sources = readContentFolder(section);
    const published = new Map<string, string[]>();
    for (const source of sources) {
      const url = docUrl(section.routeBasePath, source);
      published.set(url, [...(published.get(url) ?? []), source.relativePath]);
    }

    test('the contract lists this section', () => {
      assert.ok(section.contractRoutes.length > 0, `routes.json has no "${section.folder}" pages`);
    });

    test('the extra pages of src/extraRoutes.ts are new URLs of this section, each with a reason', () => {
      const extras: ReadonlyArray<{readonly path: string; readonly reason: string}> = section.extras;
      const prefix = `${section.routeBasePath}/`;
      assert.deepEqual(
        extras.filter(({path}) => !path.startsWith(prefix) || path.endsWith('/')),
        [],
        `extra pages must start with ${prefix} and have no trailing slash`,
      );
      assert.deepEqual(
        extras.filter(({path}) => section.contractRoutes.includes(path)),
        [],
        'extra pages the route contract now lists: delete them from src/extraRoutes.ts',
      );
      assert.deepEqual(
        extras.filter(({path}, index) => extras.findIndex((other) => other.path === path) !== index),
        [],
        'extra pages listed twice',
      );
      assert.deepEqual(
        extras.filter(({reason}) => reason.trim().length < 10),
        [],
        'extra pages without a reason',
      );
    });

    test('every route of the contract and the extra pages has exactly one source file', () => {
      const missing = section.routes.filter((route) => !published.has(route));
      assert.deepEqual(missing, [], 'routes without a source file');
      const doubled = [...published].filter(([, files]) => files.length > 1);
      assert.deepEqual(doubled, [], 'URLs published by more than one file');
    });

    test('no source file publishes a route outside the contract and the extra pages', () => {
      const stray = [...published.keys()].filter((url) => !section.routes.includes(url));
      assert.deepEqual(
        stray,
        [],
        'URLs neither routes.json nor src/extraRoutes.ts lists (add a new page to src/extraRoutes.ts, with its reason)',
      );
    });

    test('every doc is in the sidebar exactly once, and the sidebar names no unknown doc', () => {
      const ids = sidebarDocIds(section.sidebar);
      const known = new Set(sources.map((source) => docId(source.relativePath)));
      assert.deepEqual(
        ids.filter((id) => !known.has(id)),
        [],
        'sidebar ids without a file',
      );
      assert.deepEqual(
        ids.filter((id, index) => ids.indexOf(id) !== index),
        [],
        'ids listed twice',
      );
      assert.deepEqual(
        [...known].filter((id) => !ids.includes(id)),
        [],
        'docs missing from the sidebar',
      );
    });

    test('every page has a title, a sidebar label and a description', () => {
      const incomplete = sources
        .filter((source) => !/^---[\s\S]*?\ntitle: .+[\s\S]*?\nsidebar_label: .+[\s\S]*?\ndescription: .+[\s\S]*?---/.test(source.text))
        .map((source) => source.relativePath);
      assert.deepEqual(incomplete, []);
    });
  });
}

describe('aliases', () => {
  test('the redirect list is exactly the contract aliases', () => {
    const configured = Object.fromEntries(routeAliases.map(({from, to}) => [from, to]));
    assert.deepEqual(configured, contract.aliases);
  });

  test('every alias points at a page of the contract', () => {
    const pages = new Set(Object.values(contract.pages).flat());
    assert.deepEqual(
      routeAliases.filter(({to}) => !pages.has(to)),
      [],
    );
  });
});
