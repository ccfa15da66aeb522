import {describe, test} from 'node:test';
import assert from 'node:assert/strict';
import {mkdirSync, mkdtempSync, writeFileSync} from 'node:fs';
import {tmpdir} from 'node:os';
import path from 'node:path';
import {loadContract} from '../../plugins/content/openapi-contract/loadContract';
import {checkPublishedLinks, contentFileLinks, contractFileLinks} from '../../plugins/content/openapi-contract/publishedLinks';
import {repoRoot} from '../support/routeContract';

const contract = loadContract(path.join(repoRoot, 'api', 'openapi.yaml'));

describe('links to published files', () => {
  test('the pages link the test vectors and keys, and the contract points at the vector file', () => {
    const targets = new Set(contentFileLinks(repoRoot).map((link) => link.target));
    for (const file of ['signing.json', 'merchant-test-private.pem', 'provider-test-public.pem']) assert.ok(targets.has(`/test-vectors/${file}`), file);
    assert.deepEqual(contractFileLinks(contract, 'openapi.yaml').map((link) => link.target), ['/test-vectors/signing.json']);
  });

  test('a dead link fails with where it is written, a published one passes', () => {
    const outDir = mkdtempSync(path.join(tmpdir(), 'published-links-'));
    mkdirSync(path.join(outDir, 'test-vectors'));
    writeFileSync(path.join(outDir, 'test-vectors', 'signing.json'), '{}');
    const links = [{from: 'docs/a.md', target: '/test-vectors/signing.json'}];
    assert.doesNotThrow(() => checkPublishedLinks(outDir, '/', links));
    assert.throws(
      () => checkPublishedLinks(outDir, '/', [...links, {from: 'docs/b.md', target: '/test-vectors/gone.pem'}]),
      /docs\/b\.md: \/test-vectors\/gone\.pem/,
    );
  });
});
