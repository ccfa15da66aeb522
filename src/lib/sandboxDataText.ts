/**
 * Words for the sandbox data, shared by the components that render it and the remark plugin that
 * feeds them: durations, amounts, brand names, and values picked by path. Pure (no React, no DOM).
 */
import {fromMinorUnits, isCurrencyCode} from './money';

const units = [
  {seconds: 86_400, one: 'day', many: 'days'},
  {seconds: 3_600, one: 'hour', many: 'hours'},
  {seconds: 60, one: 'minute', many: 'minutes'},
] as const;

/** `2` → "2 seconds", `1800` → "30 minutes (1,800 s)", `86400` → "1 day (86,400 s)": the exact seconds stay visible. */
export function formatSeconds(seconds: number): string {
  if (seconds === 0) return 'at once';
  const unit = units.find((candidate) => seconds >= candidate.seconds && seconds % candidate.seconds === 0);
  if (!unit) return `${seconds} ${seconds === 1 ? 'second' : 'seconds'}`;
  const count = seconds / unit.seconds;
  return `${count} ${count === 1 ? unit.one : unit.many} (${seconds.toLocaleString('en-US')} s)`;
}

/** `1000000, "USD"` → "USD 10,000.00". */
export function formatMoney(minorUnits: number, currency: string): string {
  if (!isCurrencyCode(currency)) return `${currency} ${minorUnits} (minor units)`;
  const [whole = '0', fraction] = fromMinorUnits(minorUnits, currency).split('.');
  const grouped = whole.replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  return `${currency} ${fraction === undefined ? grouped : `${grouped}.${fraction}`}`;
}

/**
 * The value at a dotted path of the data, or undefined when the path leads nowhere. A segment is a
 * key, an index, or `field=value`, which picks the list entry whose field has that value:
 * `payments.endings.rules.ending=92.responseDelaySeconds`, `payments.methods.method=CASH.processingSeconds`.
 */
export function valueAtPath(data: unknown, dotted: string): unknown {
  let node: unknown = data;
  for (const segment of dotted.split('.')) {
    const pick = /^(\w+)=(.+)$/.exec(segment);
    if (pick && Array.isArray(node)) {
      node = node.find(
        (entry: unknown) =>
          typeof entry === 'object' && entry !== null && String((entry as Record<string, unknown>)[pick[1] ?? '']) === pick[2],
      );
      continue;
    }
    if (typeof node !== 'object' || node === null || !Object.hasOwn(node, segment)) return undefined;
    node = (node as Record<string, unknown>)[segment];
  }
  return node;
}

/** A total of seconds as "166,875 s (about 46 hours)". */
export function formatTotalSeconds(seconds: number): string {
  const exact = `${seconds.toLocaleString('en-US')} s`;
  if (seconds >= 3_600) return `${exact} (about ${Math.floor(seconds / 3_600)} hours)`;
  if (seconds >= 60) return `${exact} (${Math.floor(seconds / 60)} min ${seconds % 60} s)`.replace(' 0 s)', ')');
  return exact;
}

/** Brand names as people write them: VISA → Visa. */
export function brandName(brand: string): string {
  return brand === 'MASTERCARD' ? 'Mastercard' : brand === 'VISA' ? 'Visa' : brand.charAt(0) + brand.slice(1).toLowerCase();
}

/**
 * What a payment with a test card does, with codes in `backticks`: its 3-D Secure step first
 * (cards.threeDSecure of the sandbox data), then its own behavior.
 */
export function cardBehaviorText(
  card: {
    readonly behavior: 'ENDINGS' | {readonly failureCode?: string};
    readonly threeDSecure?: {readonly flow: string; readonly result?: string};
  },
  challengeFailureCode: string | undefined,
): string {
  const enrolment = card.threeDSecure;
  if (enrolment?.flow === 'CHALLENGE' && enrolment.result === 'FAILED')
    return `3-D Secure challenge that fails: every attempt is declined with \`${challengeFailureCode ?? 'UNKNOWN'}\` once the shopper answers it.`;
  if (enrolment?.flow === 'CHALLENGE') return '3-D Secure challenge that passes with any code; then it follows the amount endings.';
  if (enrolment?.flow === 'FRICTIONLESS')
    return '3-D Secure without a challenge: the issuer authenticates it at once; then it follows the amount endings.';
  return card.behavior === 'ENDINGS'
    ? 'Follows the amount endings.'
    : `Every attempt is declined with \`${card.behavior.failureCode ?? 'UNKNOWN'}\`, whatever the amount.`;
}
