import {describe, test} from 'node:test';
import assert from 'node:assert/strict';
import {mkdirSync, mkdtempSync, writeFileSync} from 'node:fs';
import {tmpdir} from 'node:os';
import path from 'node:path';
import {loadContract} from '../../src/contract/node/loadContract';
import {checkPublishedLinks, contentFileLinks, contractFileLinks} from '../../src/contract/node/publishedLinks';
import {repoRoot} from '../support/routeContract';

const contract = loadContract(path.join(repoRoot, 'api', 'openapi.yaml'));

describe('links to published files', () => {
  test('the pages link the test vectors and keys, and the contract points at the vector file', () => {
    const targets = new Set(contentFileLinks(repoRoot).map((link) => link.target));
    for (const file of ['signing.json', 'merchant-test-private.pem', 'provider-test-public.pem'])
      assert.ok(targets.has(`/test-vectors/${file}`), file);
    const fromContract = contractFileLinks(contract, 'openapi.yaml');
    assert.ok(
      fromContract.some((link) => link.from.endsWith('x-signature.testVector') && link.target === '/test-vectors/signing.json'),
      'testVector',
    );
    assert.ok(
      fromContract.some(
        (link) => link.from.endsWith('x-signature.providerKeys') && link.target === '/test-vectors/provider-test-public.pem',
      ),
      'the provider key named in the text',
    );
  });

  test('a dead link fails with where it is written, a published one passes', async () => {
    const outDir = mkdtempSync(path.join(tmpdir(), 'published-links-'));
    mkdirSync(path.join(outDir, 'test-vectors'));
    writeFileSync(path.join(outDir, 'test-vectors', 'signing.json'), '{}');
    const links = [{from: 'docs/a.md', target: '/test-vectors/signing.json'}];
    await checkPublishedLinks(outDir, '/', links, 0);
    await assert.rejects(
      checkPublishedLinks(outDir, '/', [...links, {from: 'docs/b.md', target: '/test-vectors/gone.pem'}], 200),
      /docs\/b\.md: \/test-vectors\/gone\.pem/,
    );
    // A file another plugin's postBuild writes while the check waits (the blog's feeds) is not dead.
    const late = checkPublishedLinks(outDir, '/', [{from: 'blog/a.md', target: '/blog/rss.xml'}], 5_000);
    setTimeout(() => {
      mkdirSync(path.join(outDir, 'blog'));
      writeFileSync(path.join(outDir, 'blog', 'rss.xml'), '<rss/>');
    }, 150);
    await late;
  });
});
