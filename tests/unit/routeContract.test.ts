/**
 * The repository's copy of the route contract (spec/routes.json) against the product spec's file,
 * when the spec folder is beside the repository. A plain clone has no spec folder: the test is
 * skipped there, and everything else reads the copy.
 */
import assert from 'node:assert/strict';
import {existsSync, readFileSync} from 'node:fs';
import {describe, test} from 'node:test';
import {loadRouteContract, routeContractPath, specRouteContractPath} from '../support/routeContract';

/** Every "section: path" and "alias -> target" line of a contract, for a readable difference. */
function routeLines(file: string): string[] {
  const contract = loadRouteContract(file);
  return [
    ...Object.entries(contract.pages).flatMap(([section, paths]) => paths.map((page) => `page ${section}: ${page}`)),
    ...Object.entries(contract.aliases).map(([from, to]) => `alias ${from} -> ${to}`),
    ...contract.notFound.map((page) => `not found: ${page}`),
  ].sort();
}

describe('route contract copy', () => {
  test('the repository holds the route contract and it loads', () => {
    const contract = loadRouteContract();
    assert.ok(Object.keys(contract.pages).length > 0, `${routeContractPath} lists no pages`);
  });

  test('spec/routes.json matches the product spec when the spec folder is beside the repository', (t) => {
    if (!existsSync(specRouteContractPath)) {
      t.skip(`no product spec at ${specRouteContractPath}; the copy in spec/ is used as it is`);
      return;
    }
    const copy = routeLines(routeContractPath);
    const spec = routeLines(specRouteContractPath);
    const missing = spec.filter((line) => !copy.includes(line));
    const extra = copy.filter((line) => !spec.includes(line));
    assert.deepEqual(
      {missing, extra},
      {missing: [], extra: []},
      'spec/routes.json differs from the product spec: copy the spec file into spec/',
    );
    assert.deepEqual(JSON.parse(readFileSync(routeContractPath, 'utf8')), JSON.parse(readFileSync(specRouteContractPath, 'utf8')));
  });
});
