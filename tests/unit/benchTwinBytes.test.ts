/** The bench's HTML-against-twin byte table: read from the build's files, clean URLs resolved as the hosting does. */
import {test} from 'node:test';
import assert from 'node:assert/strict';
import {mkdirSync, mkdtempSync, rmSync, writeFileSync} from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {gzipSync} from 'node:zlib';
import {twinBytes, twinBytesTable} from '../../tooling/bench/twinBytes';

test("counts each page type's HTML and twin, raw and gzip, and names a missing twin", () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'twin-bytes-'));
  try {
    const html = `<html>${'<p>payment</p>'.repeat(200)}</html>`;
    const markdown = 'payment\n'.repeat(50);
    mkdirSync(path.join(dir, 'docs', 'refund'), {recursive: true});
    writeFileSync(path.join(dir, 'docs', 'refund', 'index.html'), html);
    writeFileSync(path.join(dir, 'docs', 'refund.md'), markdown);
    writeFileSync(path.join(dir, 'index.html'), html);
    writeFileSync(path.join(dir, 'index.md'), markdown);
    const rows = twinBytes(dir, [
      ['guide', '/docs/refund'],
      ['home', '/'],
    ]);
    assert.deepEqual(rows[0]?.html, {raw: html.length, gzip: gzipSync(html, {level: 6}).length});
    assert.deepEqual(rows[1]?.twin, {raw: markdown.length, gzip: gzipSync(markdown, {level: 6}).length});
    const table = twinBytesTable(rows);
    assert.match(table, /\| guide \| \/docs\/refund \| 2\.7 KB \|/);
    assert.equal(table.split('\n').length, 4);
    assert.throws(() => twinBytes(dir, [['demo', '/demos/none']]), /\/demos\/none: no HTML/);
    rmSync(path.join(dir, 'index.md'));
    assert.throws(() => twinBytes(dir, [['home', '/']]), /no Markdown twin/);
  } finally {
    rmSync(dir, {recursive: true, force: true});
  }
});
