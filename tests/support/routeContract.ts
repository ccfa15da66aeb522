/**
 * The route contract (../shared/spec/routes.json): every URL the portal must
 * serve. Read from the shared spec beside the repository, never copied into it.
 */
import {existsSync, readFileSync} from 'node:fs';
import path from 'node:path';

export interface RouteContract {
  readonly pages: Readonly<Record<string, readonly string[]>>;
  readonly aliases: Readonly<Record<string, string>>;
  readonly notFound: readonly string[];
}

export const repoRoot = path.resolve(__dirname, '..', '..');
export const routeContractPath = path.resolve(repoRoot, '..', 'shared', 'spec', 'routes.json');

function isStringArray(value: unknown): value is string[] {
  return Array.isArray(value) && value.every((item) => typeof item === 'string');
}

export function loadRouteContract(file: string = routeContractPath): RouteContract {
  if (!existsSync(file)) {
    throw new Error(`Route contract not found at ${file}: the tests expect the shared spec folder beside the repository.`);
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

export function allPages(contract: RouteContract): string[] {
  return Object.values(contract.pages).flat();
}
