import {after, describe, test} from 'node:test';
import assert from 'node:assert/strict';
import {randomBytes} from 'node:crypto';
import {existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync} from 'node:fs';
import {tmpdir} from 'node:os';
import path from 'node:path';
import {brotliDecompressSync, constants, gunzipSync} from 'node:zlib';
import {
  brotliQuality,
  compressibleFiles,
  encodingHeaderBytes,
  minimumBytes,
  precompressBuild,
  preferredEncoding,
} from '../../tooling/precompress';

describe('choosing the precompressed copy to send', () => {
  const both = ['br', 'gzip'] as const;

  test('a current browser gets Brotli, an older client gzip, a client that asks for neither the file itself', () => {
    assert.equal(preferredEncoding('gzip, deflate, br, zstd', both), 'br');
    assert.equal(preferredEncoding('gzip, deflate', both), 'gzip');
    assert.equal(preferredEncoding('x-gzip', both), 'gzip');
    assert.equal(preferredEncoding('identity', both), undefined);
    assert.equal(preferredEncoding(undefined, both), undefined);
    assert.equal(preferredEncoding('', both), undefined);
  });

  test('q-values rank the encodings, and q=0 refuses one', () => {
    assert.equal(preferredEncoding('br;q=0.2, gzip;q=0.8', both), 'gzip');
    assert.equal(preferredEncoding('br;q=0, gzip', both), 'gzip');
    assert.equal(preferredEncoding('BR ; Q=0 , GZIP;q=0', both), undefined);
    assert.equal(preferredEncoding('*', both), 'br');
    assert.equal(preferredEncoding('*;q=0.5, br;q=0', both), 'gzip');
  });

  test('only copies that exist are chosen', () => {
    assert.equal(preferredEncoding('gzip, br', ['gzip']), 'gzip');
    assert.equal(preferredEncoding('br', ['gzip']), undefined);
    assert.equal(preferredEncoding('gzip, br', []), undefined);
  });
});

describe('precompressing a build', () => {
  const text = (size: number) =>
    'const answer = {amount: 1000, currency: "EUR", status: "PAID"};\n'.repeat(Math.ceil(size / 64)).slice(0, size);

  const roots: string[] = [];
  after(() => roots.forEach((root) => rmSync(root, {recursive: true, force: true})));

  function makeBuild(): string {
    const root = mkdtempSync(path.join(tmpdir(), 'precompress-'));
    roots.push(root);
    mkdirSync(path.join(root, 'assets', 'js'), {recursive: true});
    mkdirSync(path.join(root, 'docs', 'refund'), {recursive: true});
    writeFileSync(path.join(root, 'assets', 'js', 'main.0a1b2c3d.js'), text(20_000));
    writeFileSync(path.join(root, 'docs', 'refund', 'index.html'), `<!doctype html><main>${text(8_000)}</main>`);
    writeFileSync(path.join(root, 'tiny.css'), 'a{color:red}');
    // A page type's small sheet, as the demo pages link: worth a copy (469 bytes, 236 in Brotli, in the build).
    mkdirSync(path.join(root, 'assets', 'css'), {recursive: true});
    writeFileSync(path.join(root, 'assets', 'css', 'demo.1a2b3c4d.css'), text(470));
    writeFileSync(path.join(root, 'logo.png'), randomBytes(4_000));
    // Random bytes do not shrink: no copy is worth writing.
    writeFileSync(path.join(root, 'assets', 'js', 'random.js'), randomBytes(4_000));
    return root;
  }

  test(`lists text files of ${minimumBytes} bytes or more, largest first; not images, not smaller files`, async () => {
    const root = makeBuild();
    assert.deepEqual(await compressibleFiles(root), [
      'assets/js/main.0a1b2c3d.js',
      'docs/refund/index.html',
      'assets/js/random.js',
      'assets/css/demo.1a2b3c4d.css',
    ]);
  });

  test('writes .br and .gz copies that decompress to the original, and none that would be larger', async () => {
    const root = makeBuild();
    const results = await precompressBuild(root);
    assert.equal(results.length, 4);
    for (const file of ['assets/js/main.0a1b2c3d.js', 'docs/refund/index.html', 'assets/css/demo.1a2b3c4d.css']) {
      const original = readFileSync(path.join(root, file));
      const br = readFileSync(path.join(root, `${file}.br`));
      const gz = readFileSync(path.join(root, `${file}.gz`));
      assert.ok(br.length + encodingHeaderBytes < original.length && gz.length + encodingHeaderBytes < original.length, file);
      assert.deepEqual(brotliDecompressSync(br), original);
      assert.deepEqual(gunzipSync(gz), original);
    }
    const random = results.find((result) => result.relativePath === 'assets/js/random.js');
    assert.deepEqual({br: random?.br, gz: random?.gz}, {br: undefined, gz: undefined});
    assert.equal(existsSync(path.join(root, 'assets', 'js', 'random.js.br')), false);
    assert.equal(existsSync(path.join(root, 'tiny.css.br')), false);
  });

  test('hashed bundles get the strongest Brotli setting, pages a fast one', () => {
    assert.equal(brotliQuality('assets/js/main.0a1b2c3d.js'), constants.BROTLI_MAX_QUALITY);
    assert.ok(brotliQuality('docs/refund/index.html') < constants.BROTLI_MAX_QUALITY);
  });
});
