/**
 * The sandbox's state as one JSON document, for export and import (the sandbox console's Export button,
 * the local server's /_sandbox/export): the store's records exactly as a store keeps them, under a format
 * name and version, so a file from another tool or a later format is refused instead of half-loaded.
 *
 * An import is checked here in full before anything changes: the document's members, every record key
 * (a merchant, a job, the clock offset, or a collection of a merchant the document contains), and the
 * shape of each record as far as the engine relies on it. The first problem is reported in one sentence
 * naming the record.
 */
import {collections, type Collection, type JobRecord} from './state';
import type {RecordValue} from './store';

export const stateFormat = 'veloxa-sandbox-state';
const stateFormatVersion = 1;

export interface SandboxStateDocument {
  readonly format: typeof stateFormat;
  readonly version: typeof stateFormatVersion;
  /** The contract version (info.version) of the sandbox that wrote it. */
  readonly contractVersion: string;
  /** The sandbox clock's time when it was written. */
  readonly exportedAt: string;
  /** Every record: [key, value], as the store keeps them (see store.ts for the keys). */
  readonly records: ReadonlyArray<readonly [string, RecordValue]>;
  /** The browser's notification inbox, when the browser wrote it; the engine carries it but does not read it. */
  readonly inbox?: readonly RecordValue[];
}

/** The document of an export: `records` as an engine of `contractVersion` wrote them at `exportedAt`. */
export function stateDocumentOf(
  records: SandboxStateDocument['records'],
  contractVersion: string,
  exportedAt: string,
): SandboxStateDocument {
  return {format: stateFormat, version: stateFormatVersion, contractVersion, exportedAt, records};
}

export type CheckedState =
  | {readonly ok: true; readonly records: Array<[string, RecordValue]>}
  | {readonly ok: false; readonly message: string};

type Shape = (value: unknown, id: string) => string | undefined;

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);
const isText = (value: unknown): value is string => typeof value === 'string';
const isNumber = (value: unknown): value is number => typeof value === 'number' && Number.isFinite(value);
const isMoney = (value: unknown): boolean => isObject(value) && Number.isSafeInteger(value['value']) && isText(value['currency']);

/** A problem with the object under `member` of a record, or undefined when it has the fields checked. */
function inner(value: unknown, member: string, idField: string, id: string, moneyFields: readonly string[] = []): string | undefined {
  if (!isObject(value)) return 'is not an object';
  const object = value[member];
  if (!isObject(object)) return `has no "${member}" object`;
  if (object[idField] !== id)
    return `has ${member}.${idField} ${JSON.stringify(object[idField])}, not the ${JSON.stringify(id)} of its key`;
  if ('status' in object && !isText(object['status'])) return `has a ${member}.status that is not text`;
  const badMoney = moneyFields.find((field) => !isMoney(object[field]));
  return badMoney === undefined ? undefined : `has a ${member}.${badMoney} that is not {value: integer, currency}`;
}

const jobKinds: ReadonlyArray<JobRecord['kind']> = [
  'attempt.resolve',
  'order.expire',
  'refund.complete',
  'payout.complete',
  'bank.return',
  'event.deliver',
  'vam.credit',
  'agreement.expire',
];

/** The shape of each merchant collection's records, as far as the engine relies on it. */
const collectionShapes: Record<Collection, Shape> = {
  order: (value, id) =>
    inner(value, 'order', 'merchantOrderNo', id, ['amount']) ??
    (isText((value as {order: Record<string, unknown>}).order['createdAt']) &&
    isText((value as {order: Record<string, unknown>}).order['expiresAt'])
      ? undefined
      : 'has no order.createdAt or order.expiresAt'),
  tombstone: (value) => (isText(value) ? undefined : 'is not text'),
  refund: (value, id) => inner(value, 'refund', 'refundId', id, ['amount']),
  refundNo: (value) => (isText(value) ? undefined : 'is not text'),
  payout: (value, id) =>
    isObject(value) && ['WALLET', 'BANK', 'CARD'].includes(value['kind'] as string)
      ? inner(value, 'payout', 'merchantTransferNo', id, ['amount', 'fee'])
      : 'has no kind of WALLET, BANK or CARD',
  agreement: (value, id) => inner(value, 'agreement', 'merchantAgreementNo', id),
  token: (value) => (isText(value) ? undefined : 'is not text'),
  chargeback: (value, id) => inner(value, 'chargeback', 'chargebackId', id, ['amount']),
  quote: (value, id) =>
    inner(value, 'quote', 'quoteId', id) ??
    (isNumber((value as Record<string, unknown>)['expiresAtMs']) ? undefined : 'has no expiresAtMs number'),
  event: (value, id) => {
    const problem = inner(value, 'event', 'notificationId', id);
    if (problem) return problem;
    const record = value as Record<string, unknown>;
    const event = record['event'] as Record<string, unknown>;
    if (!isText(event['eventType']) || !isObject(event['delivery'])) return 'has no event.eventType or event.delivery';
    return isObject(record['source']) && Array.isArray(record['log']) && isNumber(record['scheduledAttempts'])
      ? undefined
      : 'has no source, log or scheduledAttempts';
  },
  ledger: (value, id) => {
    if (!isObject(value)) return 'is not an object';
    if (value['id'] !== id) return `has id ${JSON.stringify(value['id'])}, not the ${JSON.stringify(id)} of its key`;
    if (!isNumber(value['at']) || !isText(value['currency']) || !isText(value['memo'])) return 'needs at (a number), currency and memo';
    const legs = value['legs'];
    if (
      !isObject(legs) ||
      !Object.entries(legs).every(([name, amount]) => ['available', 'pending', 'frozen'].includes(name) && Number.isSafeInteger(amount))
    ) {
      return 'has legs other than integer available, pending and frozen amounts';
    }
    return undefined;
  },
  nonce: (value) => (isNumber(value) ? undefined : 'is not a number'),
  authCode: (value) =>
    isObject(value) && isText(value['wallet']) && isNumber(value['issuedAt']) && typeof value['used'] === 'boolean'
      ? undefined
      : 'needs wallet, issuedAt and used',
};

function merchantProblem(value: unknown, clientId: string): string | undefined {
  if (!isObject(value)) return 'is not an object';
  if (value['clientId'] !== clientId)
    return `has clientId ${JSON.stringify(value['clientId'])}, not the ${JSON.stringify(clientId)} of its key`;
  const keys = value['keys'];
  if (!isObject(keys) || Object.keys(keys).length === 0) return 'has no public keys';
  const badKey = Object.entries(keys).find(
    ([version, pem]) => !/^[1-9]\d{0,5}$/.test(version) || !isText(pem) || !pem.includes('-----BEGIN PUBLIC KEY-----'),
  );
  if (badKey) return `has a key ${JSON.stringify(badKey[0])} that is not a key version with a PEM public key`;
  if (value['defaultNotifyUrl'] !== null && !isText(value['defaultNotifyUrl']))
    return 'has a defaultNotifyUrl that is neither text nor null';
  if (typeof value['compressedRetries'] !== 'boolean' || !isNumber(value['createdAt']))
    return 'needs compressedRetries (true or false) and createdAt (a number)';
  return undefined;
}

function jobProblem(value: unknown, id: string, merchants: ReadonlySet<string>): string | undefined {
  if (!isObject(value)) return 'is not an object';
  if (value['id'] !== id) return `has id ${JSON.stringify(value['id'])}, not the ${JSON.stringify(id)} of its key`;
  if (!isNumber(value['at']) || !Number.isSafeInteger(value['seq']) || (value['seq'] as number) < 0 || !isText(value['ref']))
    return 'needs at (a number), seq (an integer) and ref';
  if (!jobKinds.includes(value['kind'] as JobRecord['kind'])) return `has the unknown kind ${JSON.stringify(value['kind'])}`;
  if (!merchants.has(value['clientId'] as string))
    return `belongs to ${JSON.stringify(value['clientId'])}, a merchant the document does not contain`;
  return undefined;
}

/** Members a record must never carry: JSON.parse makes "__proto__" an own member, which copying would turn into a prototype. */
function forbiddenMember(value: unknown, depth = 0): boolean {
  if (typeof value !== 'object' || value === null) return false;
  if (depth > 64) return true;
  if (Array.isArray(value)) return value.some((item) => forbiddenMember(item, depth + 1));
  return Object.keys(value).some((key) => key === '__proto__' || forbiddenMember((value as Record<string, unknown>)[key], depth + 1));
}

const majorOf = (version: string): string => version.split('.')[0] ?? version;

/**
 * Checks an exported state (parsed JSON) for an engine of `contractVersion`: its records as fresh copies, or
 * the first problem as one sentence. A document written under another major contract version is refused,
 * since its objects may have other fields.
 */
export function checkStateDocument(document: unknown, contractVersion: string): CheckedState {
  const refuse = (message: string): CheckedState => ({ok: false, message});
  if (!isObject(document)) return refuse('The file is not a sandbox state export: it is not a JSON object.');
  if (document['format'] !== stateFormat)
    return refuse(
      `The file is not a sandbox state export: its format is ${JSON.stringify(document['format'] ?? null)}, not "${stateFormat}".`,
    );
  if (document['version'] !== stateFormatVersion)
    return refuse(
      `The export is format version ${JSON.stringify(document['version'] ?? null)}; this sandbox reads version ${stateFormatVersion}.`,
    );
  if (!isText(document['contractVersion'])) return refuse('The export has no contractVersion.');
  if (majorOf(document['contractVersion']) !== majorOf(contractVersion)) {
    return refuse(
      `The export was made with contract version ${document['contractVersion']}, and this sandbox runs ${contractVersion}: a different major version.`,
    );
  }
  if (document['inbox'] !== undefined && !Array.isArray(document['inbox'])) return refuse("The export's inbox is not a list.");
  const records = document['records'];
  if (!Array.isArray(records)) return refuse('The export has no records list.');

  const seen = new Set<string>();
  const merchants = new Set<string>();
  // Merchants first: the other records name them.
  for (const [index, entry] of (records as unknown[]).entries()) {
    if (!Array.isArray(entry) || entry.length !== 2 || !isText(entry[0])) return refuse(`Record ${index + 1} is not a [key, value] pair.`);
    const key = entry[0];
    if (seen.has(key)) return refuse(`Record ${index + 1} repeats the key "${key.slice(0, 120)}".`);
    seen.add(key);
    if (forbiddenMember(entry[1]))
      return refuse(`Record ${index + 1} ("${key.slice(0, 120)}") has a member named __proto__ or is nested too deeply.`);
    if (key.startsWith('~/merchant/')) {
      const clientId = key.slice('~/merchant/'.length);
      const problem = merchantProblem(entry[1], clientId);
      if (problem) return refuse(`Record ${index + 1} ("${key.slice(0, 120)}") ${problem}.`);
      merchants.add(clientId);
    }
  }

  const ledgerIds = new Map<string, string[]>();
  for (const [index, entry] of (records as Array<[string, unknown]>).entries()) {
    const [key, value] = entry;
    const at = `Record ${index + 1} ("${key.slice(0, 120)}")`;
    if (key.startsWith('~/merchant/')) continue;
    if (key === '~/clock/offset') {
      if (!isNumber(value) || value < 0) return refuse(`${at} is not a number of milliseconds, zero or more.`);
      continue;
    }
    if (key.startsWith('~/job/')) {
      const problem = jobProblem(value, key.slice('~/job/'.length), merchants);
      if (problem) return refuse(`${at} ${problem}.`);
      continue;
    }
    const [clientId = '', collection = '', ...rest] = key.split('/');
    const id = rest.join('/');
    if (clientId === '~' || !(collections as readonly string[]).includes(collection) || id === '') {
      return refuse(
        `${at} is not a sandbox record: its key is neither a merchant, a job, the clock nor "<clientId>/<collection>/<id>" of a known collection.`,
      );
    }
    if (!merchants.has(clientId)) return refuse(`${at} belongs to ${clientId.slice(0, 60)}, a merchant the document does not contain.`);
    const problem = collectionShapes[collection as Collection](value, id);
    if (problem) return refuse(`${at} ${problem}.`);
    if (collection === 'ledger') ledgerIds.set(clientId, [...(ledgerIds.get(clientId) ?? []), id]);
  }

  // A new ledger entry takes the next number after the count, so the numbers must run 0, 1, 2... without a gap.
  for (const [clientId, ids] of ledgerIds) {
    const sorted = ids.sort();
    const gap = sorted.findIndex((id, position) => id !== String(position).padStart(10, '0'));
    if (gap !== -1) return refuse(`The ledger of ${clientId} is not numbered 0000000000 upwards without a gap (at ${sorted[gap] ?? ''}).`);
  }
  return {ok: true, records: JSON.parse(JSON.stringify(records)) as Array<[string, RecordValue]>};
}
