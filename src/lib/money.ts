/**
 * Conversion between the amounts customers read ("12.34") and the integer
 * minor units the payment API takes (1234). Pure: no DOM, no React.
 */

/**
 * ISO 4217 minor-unit exponents of the currencies used across the docs and the contract. Create order's
 * page shows the same table and code (tests/unit/money.test.ts holds them, and the contract's currencies, to it).
 */
export const currencyExponents = {
  USD: 2,
  EUR: 2,
  GBP: 2,
  INR: 2,
  JPY: 0,
  KRW: 0,
  BHD: 3,
  KWD: 3,
} as const satisfies Record<string, number>;

export type CurrencyCode = keyof typeof currencyExponents;

export function isCurrencyCode(code: string): code is CurrencyCode {
  return Object.hasOwn(currencyExponents, code);
}

export type MinorUnitsResult = {readonly ok: true; readonly minorUnits: number} | {readonly ok: false; readonly error: string};

/**
 * Parses a decimal amount typed by a person into minor units, refusing rather
 * than rounding: "10.005" USD is an error, not 1001 or 1000.
 */
export function toMinorUnits(input: string, currency: CurrencyCode): MinorUnitsResult {
  const exponent = currencyExponents[currency];
  const text = input.trim();
  if (text === '') {
    return {ok: false, error: 'Enter an amount.'};
  }
  const match = /^(\d+)(?:\.(\d+))?$/.exec(text);
  if (!match) {
    return {
      ok: false,
      error: `"${text}" is not an amount: use digits and at most one decimal point, with no sign or thousands separators.`,
    };
  }
  const whole = match[1] ?? '';
  const fraction = match[2] ?? '';
  if (fraction.length > exponent) {
    return {
      ok: false,
      error:
        exponent === 0
          ? `${currency} has no minor unit: enter a whole number.`
          : `${currency} has ${exponent} decimal places: "${text}" has ${fraction.length}.`,
    };
  }
  const digits = `${whole}${fraction.padEnd(exponent, '0')}`;
  const minorUnits = Number(digits);
  if (!Number.isSafeInteger(minorUnits)) {
    return {ok: false, error: 'That amount is too large to represent exactly.'};
  }
  return {ok: true, minorUnits};
}

/** Formats minor units back to a decimal string with the currency's exponent. */
export function fromMinorUnits(minorUnits: number, currency: CurrencyCode): string {
  if (!Number.isSafeInteger(minorUnits) || minorUnits < 0) {
    throw new RangeError(`minorUnits must be a non-negative safe integer, got ${minorUnits}`);
  }
  const exponent = currencyExponents[currency];
  if (exponent === 0) {
    return String(minorUnits);
  }
  const padded = String(minorUnits).padStart(exponent + 1, '0');
  return `${padded.slice(0, -exponent)}.${padded.slice(-exponent)}`;
}
