/** Statements: the CSV of a UTC day from the ledger, its gzip file and digest, and Download statement. */
import {dayStart, isoSeconds} from '../clock';
import {randomToken} from '../ids';
import type {Json, JsonObject, LedgerEntry, MerchantState} from '../state';
import {reject, type Reply, type Tx} from '../tx';
import {msPerSecond} from '../values';

/** gzip, then SHA-256 in lower-case hex: the statement file as downloaded, and its digest. */
export async function gzipWithDigest(text: string): Promise<{bytes: Uint8Array; sha256: string}> {
  const stream = new Blob([text]).stream().pipeThrough(new CompressionStream('gzip'));
  const bytes = new Uint8Array(await new Response(stream).arrayBuffer());
  const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', bytes));
  return {bytes, sha256: [...digest].map((byte) => byte.toString(16).padStart(2, '0')).join('')};
}

/** The statement file of one UTC day, from the ledger, in the columns of api/statement-columns.yaml. */
export function statementCsv(tx: Tx, state: MerchantState, day: string, currency?: string): {csv: string; rowCount: number} {
  const start = dayStart(day);
  const end = start + 86400 * msPerSecond;
  const header = tx.spec.statementHeader;
  const opening = totals(tx, state, start);
  const closing = totals(tx, state, end);
  // Every currency of the account, even on a day before the merchant existed (0, no rows, 0).
  const currencies = [...new Set([...tx.spec.sandbox.currencies.payments, ...opening.keys(), ...closing.keys()])]
    .filter((code) => currency === undefined || code === currency)
    .sort();
  const lines = [header];
  const cell = (value: string | number) => {
    const text = String(value);
    return /[",\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
  };
  for (const code of currencies) {
    lines.push(
      [day, 'OPENING_BALANCE', '', '', '', code, opening.get(code) ?? 0, 0, opening.get(code) ?? 0, '', '', '', isoSeconds(start), '', '']
        .map(cell)
        .join(','),
    );
    const rows = [...state.ledger.values()]
      .filter((entry) => entry.row && entry.currency === code && entry.at >= start && entry.at < end)
      .sort((a, b) => a.at - b.at || a.id.localeCompare(b.id));
    for (const entry of rows) {
      const row = entry.row as NonNullable<LedgerEntry['row']>;
      const net = (entry.legs.available ?? 0) + (entry.legs.pending ?? 0) + (entry.legs.frozen ?? 0);
      lines.push(
        [
          day,
          row.transactionType,
          row.merchantReference,
          row.providerReference,
          row.relatedOrderNo,
          code,
          row.gross,
          row.fee,
          net,
          row.status,
          row.paymentMethod,
          row.createdAt,
          row.completedAt,
          row.storeId,
          entry.availableOn ?? '',
        ]
          .map(cell)
          .join(','),
      );
    }
    lines.push(
      [day, 'CLOSING_BALANCE', '', '', '', code, closing.get(code) ?? 0, 0, closing.get(code) ?? 0, '', '', '', isoSeconds(end), '', '']
        .map(cell)
        .join(','),
    );
  }
  return {csv: `${lines.join('\n')}\n`, rowCount: lines.length - 1};
}

/** Total balance per currency (available + pending + frozen) from entries before `before`. */
export function totals(tx: Tx, state: MerchantState, before: number): Map<string, number> {
  const totals = new Map<string, number>();
  for (const entry of state.ledger.values()) {
    if (entry.at >= before) continue;
    totals.set(
      entry.currency,
      (totals.get(entry.currency) ?? 0) + (entry.legs.available ?? 0) + (entry.legs.pending ?? 0) + (entry.legs.frozen ?? 0),
    );
  }
  return totals;
}

/** Fills in the digest of the file a Download statement link serves. */
export async function finishStatement(tx: Tx, state: MerchantState, reply: Reply): Promise<Reply> {
  const data = reply.data as JsonObject;
  const file = await statementFile(
    tx,
    state,
    String(data['statementDate']),
    typeof data['currency'] === 'string' ? data['currency'] : undefined,
  );
  return {...reply, data: {...data, sha256: file.sha256}};
}

/** The statement file of a day as Download statement's link serves it: gzip-compressed CSV, with its SHA-256. */
export async function statementFile(
  tx: Tx,
  state: MerchantState,
  day: string,
  currency?: string,
): Promise<{fileName: string; bytes: Uint8Array; sha256: string; csv: string}> {
  const statement = statementCsv(tx, state, day, currency);
  const {bytes, sha256} = await gzipWithDigest(statement.csv);
  return {fileName: `statement-${day}${currency ? `-${currency}` : ''}.csv.gz`, bytes, sha256, csv: statement.csv};
}

export function downloadStatementReply(tx: Tx, state: MerchantState, day: string, currency: Json | undefined): Reply {
  const data = tx.spec.sandbox.statements;
  if (!/^\d{4}-\d{2}-\d{2}$/.test(day) || Number.isNaN(dayStart(day)))
    reject('INVALID_PARAMETER', 'statementDate must be a date YYYY-MM-DD.');
  const readyAt = dayStart(day) + 86400 * msPerSecond + Date.parse(`1970-01-01T${data.readyAfterUtc}Z`);
  if (tx.clock.now() < readyAt)
    reject(data.notReady.resultCode ?? 'STATEMENT_NOT_READY', `The statement of ${day} is ready after ${isoSeconds(readyAt)}.`);
  const statement = statementCsv(tx, state, day, typeof currency === 'string' ? currency : undefined);
  if (!statement) return reject('INTERNAL_ERROR', `The sandbox could not build the statement of ${day}; try again.`);
  const fileName = `statement-${day}${typeof currency === 'string' ? `-${currency}` : ''}.csv.gz`;
  return {
    code: 'SUCCESS',
    data: {
      statementDate: day,
      ...(typeof currency === 'string' ? {currency} : {}),
      fileName,
      format: 'CSV_GZIP',
      downloadUrl: `https://${tx.hosts.files}/statements/${state.merchant.clientId}/${fileName}?t=${randomToken(24)}`,
      expiresAt: isoSeconds(tx.clock.now() + data.downloadUrlSeconds * msPerSecond),
      // Filled in by finishStatement: gzip and SHA-256 are asynchronous in WebCrypto and CompressionStream.
      sha256: '',
      rowCount: statement.rowCount,
    },
  };
}
