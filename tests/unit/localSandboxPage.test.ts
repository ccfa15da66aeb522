/**
 * The walk-through on /docs/local-sandbox shows one real run of the downloaded veloxa-sandbox.mjs
 * (issue 29: its statement digest and row IDs had been made up). The figures must agree with each
 * other as a run produces them: the SHA-256 is the digest of the statement it shows, gzip-compressed
 * as the sandbox does it; the file name and row count fit the rows; the notification the handler
 * printed is the payment's; the closing balance is the balance after the clock moved.
 */
import {describe, test} from 'node:test';
import assert from 'node:assert/strict';
import {readFileSync} from 'node:fs';
import path from 'node:path';
import {gzipWithDigest} from '../../src/sandbox/engine/engine';
import {repoRoot} from '../support/routeContract';

const page = readFileSync(path.join(repoRoot, 'docs', 'local-sandbox.mdx'), 'utf8');

/** What the walk-through shows: the statement CSV, the download's answer and the printed lines. */
function walkthroughFigures(text: string) {
  const csv = /```text\n(statement_date,[^`]*?)```/.exec(text)?.[1];
  const download = /^# (\{"fileName":.*\})$/m.exec(text)?.[1];
  const paid = /^POST \/payments\/notify ORDER\.PAID (ntf_\w+) (\S+)$/m.exec(text);
  const balances = [...text.matchAll(/^# (\{"currency":"USD".*\})$/gm)].map(
    (match) => JSON.parse(match[1] ?? '{}') as {available: number; pending: number},
  );
  if (!csv || !download || !paid) throw new Error('the walk-through lacks its statement, its download answer or the ORDER.PAID line');
  return {csv, download: JSON.parse(download) as {fileName: string; rowCount: number; sha256: string}, paidAt: paid[2] ?? '', balances};
}

const column = (csv: string, type: string, name: string): string => {
  const [header = '', ...rows] = csv.trim().split('\n');
  const row = rows.find((line) => line.split(',')[1] === type);
  assert.ok(row, `the statement has a ${type} row`);
  return row.split(',')[header.split(',').indexOf(name)] ?? '';
};

describe('Local sandbox walk-through: figures of one real run', () => {
  const figures = walkthroughFigures(page);

  test("the statement's SHA-256 is the digest of the statement shown, gzip-compressed as the sandbox serves it", async () => {
    const {sha256} = await gzipWithDigest(figures.csv);
    assert.equal(figures.download.sha256, sha256);
  });

  test('a digest that does not belong to the rows shown is caught', async () => {
    const edited = figures.csv.replace(/,-75,2425,/, ',-76,2424,');
    assert.notEqual(edited, figures.csv);
    assert.notEqual((await gzipWithDigest(edited)).sha256, figures.download.sha256);
  });

  test('file name, row count, notification time and balances agree with the rows', () => {
    const rows = figures.csv.trim().split('\n').slice(1);
    const day = rows[0]?.split(',')[0] ?? '';
    assert.equal(figures.download.fileName, `statement-${day}-USD.csv.gz`);
    assert.equal(figures.download.rowCount, rows.length);
    assert.equal(
      column(figures.csv, 'PAYMENT', 'completed_at'),
      figures.paidAt,
      'the ORDER.PAID line is printed when the payment completes',
    );
    assert.equal(
      Number(column(figures.csv, 'CLOSING_BALANCE', 'net_amount')),
      figures.balances.at(-1)?.available,
      'closing balance = available after the clock moved',
    );
    assert.equal(
      Number(column(figures.csv, 'PAYMENT', 'net_amount')),
      figures.balances[0]?.pending,
      'the net amount waits in pending first',
    );
  });
});
