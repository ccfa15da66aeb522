/** Small pure helpers the domain modules share: money, masks, timestamps, JSON copies. */
import {bytesToBase64, timestampPattern} from '../../lib/signing';
import {isoSeconds} from './clock';
import {canonicalJson} from './spec';
import type {Json, JsonObject, Money} from './state';

export const msPerSecond = 1000;

/**
 * Records one change of an object that notifications carry: `version` goes up by one, and `updatedAt`
 * (where the object has it) is now. Receivers order notifications by `version`, which, unlike a
 * whole-second timestamp, tells apart two changes of the same second.
 */
export function recordChange(object: JsonObject, now: number): void {
  object['version'] = (typeof object['version'] === 'number' ? object['version'] : 0) + 1;
  if ('updatedAt' in object) object['updatedAt'] = isoSeconds(now);
}

/** The amounts of an order that refunds and chargebacks move, as one comparable string. */
export const amountsOf = (order: JsonObject): string =>
  JSON.stringify([order['refundedAmount'], order['refundableAmount'], order['disputedAmount']]);

export const processingMessage = (merchantOrderNo: string): string =>
  `Order ${merchantOrderNo} has a payment attempt in PROCESSING: wait for its result notification, then try again.`;
export const disputedMessage = (merchantOrderNo: string): string =>
  `Order ${merchantOrderNo} has an OPEN chargeback: respond to it, then try again.`;

/** YYYY-MM-DDTHH:MM:SSZ naming an instant that exists: 2026-02-30 does not, although Date.parse rolls it over. */
export function isRealTimestamp(text: string): boolean {
  return timestampPattern.test(text) && !Number.isNaN(Date.parse(text)) && isoSeconds(Date.parse(text)) === text;
}

/** Members a JSON body must never carry: JSON.parse makes "__proto__" an own member, which some schema keywords count as evaluated. */
export function hasForbiddenMember(value: unknown, depth = 0): boolean {
  if (depth > 64 || typeof value !== 'object' || value === null) return false;
  if (Array.isArray(value)) return value.some((item) => hasForbiddenMember(item, depth + 1));
  return Object.keys(value).some((key) => key === '__proto__' || hasForbiddenMember((value as Record<string, unknown>)[key], depth + 1));
}

/**
 * A deep copy of a JSON value that shares its strings, which are immutable, instead of making new ones as a
 * JSON round trip does: a notification's snapshot of an object then costs its structure, not its text again.
 * Members whose value is undefined are left out, as JSON would leave them; no data holds "__proto__" (refused
 * with the body it came in).
 */
export function copyJson<T extends Json>(value: T): T {
  if (Array.isArray(value)) return value.map((item) => copyJson(item)) as T;
  if (value === null || typeof value !== 'object') return value;
  const copy: JsonObject = {};
  for (const [key, item] of Object.entries(value)) if (item !== undefined) copy[key] = copyJson(item);
  return copy as T;
}

/**
 * What an idempotent create remembers of the request it accepted: the SHA-256 (base64) of the request's
 * canonical JSON, which compares exactly as the text does (x-idempotency.comparison) at a tenth of its
 * memory per object.
 */
export async function requestKeyOf(value: Json): Promise<string> {
  return bytesToBase64(new Uint8Array(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(canonicalJson(value)))));
}

/** An absolute http or https URL (the local sandbox delivers to plain http on this machine too). */
export function isHttpUrl(text: string): boolean {
  if (!/^https?:\/\/[^\s]+$/.test(text)) return false;
  try {
    return new URL(text).host !== '';
  } catch {
    return false;
  }
}

export function isObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export function money(value: number, currency: string): Money {
  return {value, currency};
}

/** The masked form the contract's MaskedAccount pattern wants: stars, then the last four. */
export function maskTail(account: string): string {
  return `${'*'.repeat(Math.max(1, account.length - 4))}${account.slice(-4)}`;
}

export function maskCard(number: string): string {
  return `${number.slice(0, 6)}${'*'.repeat(number.length - 10)}${number.slice(-4)}`;
}

/** A decimal rate string as a fraction, for exact integer arithmetic. */
export function rateFraction(rate: string): {numerator: bigint; denominator: bigint} {
  const [whole = '0', fraction = ''] = rate.split('.');
  return {numerator: BigInt(`${whole}${fraction}`), denominator: 10n ** BigInt(fraction.length)};
}
