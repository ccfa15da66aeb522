/** The list operations' shared rules: a created or updated time range, filters, newest first, and pages. */
import {isoSeconds} from '../clock';
import type {Json, JsonObject} from '../state';
import {reject, type Reply, type Tx} from '../tx';
import {msPerSecond} from '../values';

export function listPage(
  tx: Tx,
  params: Record<string, Json>,
  items: readonly JsonObject[],
  key: string,
  filters: Record<string, string>,
): Reply {
  const created = params['createdFrom'] !== undefined || params['createdTo'] !== undefined;
  const updated = params['updatedFrom'] !== undefined || params['updatedTo'] !== undefined;
  if (created === updated) reject('INVALID_PARAMETER', 'Send either createdFrom and createdTo or updatedFrom and updatedTo.');
  const field = created ? 'created' : 'updated';
  const from = params[`${field}From`];
  const to = params[`${field}To`];
  if (typeof from !== 'string' || typeof to !== 'string') return reject('INVALID_PARAMETER', `Send both ${field}From and ${field}To.`);
  const range = timeRange(tx, from, to, `${field}From`, `${field}To`);
  // The records' timestamps are whole seconds in one fixed format, so they compare as text, which is far
  // cheaper than parsing every record's time on every call (lists were the bound on throughput). The bounds
  // are rounded up to whole seconds, where comparing text means comparing instants.
  const fromText = secondsText(range.from);
  const toText = secondsText(range.to);
  const timeField = `${field}At`;
  const filterEntries = Object.entries(filters).filter(([parameter]) => params[parameter] !== undefined);
  const matching: JsonObject[] = [];
  const times: string[] = [];
  for (const item of items) {
    const at = String(item[timeField]);
    if (!(at >= fromText && at < toText)) continue;
    if (!filterEntries.every(([parameter, property]) => item[property] === params[parameter])) continue;
    matching.push(item);
    times.push(at);
  }
  const newest = newestFirst(matching, times);
  return {code: 'SUCCESS', data: {[key]: paginate(tx, newest, params), pagination: pagination(tx, newest.length, params)}};
}

/**
 * The items newest first, those of the same second in the order given. Records are kept in the order they were
 * made, so the times usually come ascending already: then this is one pass backwards, where sorting every list
 * call cost more than the rest of the call.
 */
export function newestFirst<T>(items: readonly T[], times: readonly string[]): T[] {
  if (!times.every((at, index) => index === 0 || (times[index - 1] as string) <= at)) {
    const order = items.map((_, index) => index);
    order.sort((a, b) => ((times[b] as string) < (times[a] as string) ? -1 : (times[b] as string) > (times[a] as string) ? 1 : 0));
    return order.map((index) => items[index] as T);
  }
  const newest: T[] = [];
  for (let end = items.length; end > 0; ) {
    let start = end - 1;
    while (start > 0 && times[start - 1] === times[end - 1]) start -= 1;
    for (let index = start; index < end; index += 1) newest.push(items[index] as T);
    end = start;
  }
  return newest;
}

export function timeRange(tx: Tx, from: string, to: string, fromName: string, toName: string): {from: number; to: number} {
  const start = Date.parse(from);
  const end = Date.parse(to);
  if (!(end > start)) reject('INVALID_PARAMETER', `${toName} must be after ${fromName}.`);
  const days = tx.spec.timeLimits.listRangeDays;
  if (end - start > days * 86400 * msPerSecond) reject('INVALID_PARAMETER', `${fromName} to ${toName} spans more than ${days} days.`);
  return {from: start, to: end};
}

export function paginate<T>(tx: Tx, items: readonly T[], params: Record<string, Json>): T[] {
  const {pageNo, pageSize} = pageOf(tx, params);
  return items.slice((pageNo - 1) * pageSize, pageNo * pageSize);
}

export function pageOf(tx: Tx, params: Record<string, Json>): {pageNo: number; pageSize: number} {
  return {
    pageNo: typeof params['pageNo'] === 'number' ? params['pageNo'] : 1,
    pageSize: typeof params['pageSize'] === 'number' ? params['pageSize'] : tx.spec.pageSizeDefault,
  };
}

export function pagination(tx: Tx, total: number, params: Record<string, Json>): JsonObject {
  const {pageNo, pageSize} = pageOf(tx, params);
  return {pageNo, pageSize, totalItems: total, totalPages: Math.ceil(total / pageSize)};
}

/** The last instant a YYYY-MM-DDTHH:MM:SSZ text can name. */
const lastSecondText = Date.parse('9999-12-31T23:59:59Z');

/**
 * An instant as YYYY-MM-DDTHH:MM:SSZ text, rounded up to a whole second, for comparing with record
 * timestamps as text: a record's whole-second time t is at or after the instant exactly when t is at or
 * after this text. Beyond the year 9999 it is "~", which sorts after every timestamp.
 */
function secondsText(ms: number): string {
  const seconds = Math.ceil(ms / msPerSecond) * msPerSecond;
  return seconds > lastSecondText ? '~' : isoSeconds(seconds);
}
