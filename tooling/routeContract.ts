/**
 * The route contract (spec/routes.json): every URL the product spec requires the portal to
 * serve. The repository keeps its own copy, so a clone builds and tests with nothing beside it;
 * tests/unit/routeContract.test.ts compares the copy with the product spec's own file when that
 * is beside the repository. The portal's own extra pages (src/extraRoutes.ts)
 * are held to the same tests: sitePages and allPages return both lists. The build does not read
 * it (the Markdown twins take their pages from the build's own routes); scripts/checkHtml.ts and
 * the tests do, the tests through tests/support/routeContract.ts.
 */
import {existsSync, readFileSync} from 'node:fs';
import path from 'node:path';
import {extraRoutes} from '../src/extraRoutes';

export interface RouteContract {
  readonly pages: Readonly<Record<string, readonly string[]>>;
  readonly aliases: Readonly<Record<string, string>>;
  readonly notFound: readonly string[];
}

export const repoRoot = path.resolve(__dirname, '..');
export const routeContractPath = path.resolve(repoRoot, 'spec', 'routes.json');

function isStringArray(value: unknown): value is string[] {
  return Array.isArray(value) && value.every((item) => typeof item === 'string');
}

export function loadRouteContract(file: string = routeContractPath): RouteContract {
  if (!existsSync(file)) {
    throw new Error(`Route contract not found at ${file}: it is part of the repository (spec/routes.json); restore it from git.`);
  }
  const raw: unknown = JSON.parse(readFileSync(file, 'utf8'));
  if (typeof raw !== 'object' || raw === null) {
    throw new Error(`${file}: expected a JSON object.`);
  }
  const {pages, aliases, notFound} = raw as Record<string, unknown>;
  if (typeof pages !== 'object' || pages === null || !Object.values(pages).every(isStringArray)) {
    throw new Error(`${file}: "pages" must map section names to arrays of paths.`);
  }
  if (typeof aliases !== 'object' || aliases === null || !Object.values(aliases).every((v) => typeof v === 'string')) {
    throw new Error(`${file}: "aliases" must map paths to paths.`);
  }
  if (!isStringArray(notFound)) {
    throw new Error(`${file}: "notFound" must be an array of paths.`);
  }
  return {
    pages: pages as Record<string, string[]>,
    aliases: aliases as Record<string, string>,
    notFound,
  };
}

/** The portal's extra pages of a section (src/extraRoutes.ts); none for a section it adds nothing to. */
export function extraPages(section: string): string[] {
  const routes: Readonly<Record<string, readonly {readonly path: string}[]>> = extraRoutes;
  return (routes[section] ?? []).map((route) => route.path);
}

/** The pages of one section: the contract's, then the portal's extra pages. */
export function sitePages(contract: RouteContract, section: string): string[] {
  return [...(contract.pages[section] ?? []), ...extraPages(section)];
}

/** Every page the site serves: the contract's pages and the portal's extra pages, section by section. */
export function allPages(contract: RouteContract): string[] {
  const sections = new Set([...Object.keys(contract.pages), ...Object.keys(extraRoutes)]);
  return [...sections].flatMap((section) => sitePages(contract, section));
}
