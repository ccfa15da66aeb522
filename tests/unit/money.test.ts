import {describe, test} from 'node:test';
import assert from 'node:assert/strict';
import {readFileSync} from 'node:fs';
import path from 'node:path';
import {currencyExponents, fromMinorUnits, toMinorUnits, type CurrencyCode} from '../../src/lib/money';
import {repoRoot} from '../support/routeContract';

describe('toMinorUnits', () => {
  const accepted: Array<[string, CurrencyCode, number]> = [
    ['12.34', 'USD', 1234],
    ['12.3', 'USD', 1230],
    ['12', 'USD', 1200],
    [' 0.01 ', 'EUR', 1],
    ['1500', 'JPY', 1500],
    ['1.234', 'BHD', 1234],
    ['0', 'GBP', 0],
  ];
  for (const [input, currency, expected] of accepted) {
    test(`${JSON.stringify(input)} ${currency} -> ${expected}`, () => {
      assert.deepEqual(toMinorUnits(input, currency), {ok: true, minorUnits: expected});
    });
  }

  const refused: Array<[string, CurrencyCode, RegExp]> = [
    ['10.005', 'USD', /USD has 2 decimal places: "10.005" has 3/],
    ['1.5', 'JPY', /JPY has no minor unit/],
    ['', 'USD', /Enter an amount/],
    ['-5', 'USD', /not an amount/],
    ['1,000.00', 'USD', /not an amount/],
    ['1e3', 'USD', /not an amount/],
    ['99999999999999999', 'USD', /too large/],
  ];
  for (const [input, currency, message] of refused) {
    test(`refuses ${JSON.stringify(input)} ${currency}`, () => {
      const result = toMinorUnits(input, currency);
      assert.equal(result.ok, false);
      assert.match(result.ok ? '' : result.error, message);
    });
  }
});

describe('fromMinorUnits', () => {
  const cases: Array<[number, CurrencyCode, string]> = [
    [1234, 'USD', '12.34'],
    [5, 'USD', '0.05'],
    [0, 'EUR', '0.00'],
    [1500, 'JPY', '1500'],
    [1, 'KWD', '0.001'],
  ];
  for (const [minor, currency, expected] of cases) {
    test(`${minor} ${currency} -> ${expected}`, () => {
      assert.equal(fromMinorUnits(minor, currency), expected);
    });
  }
  test('round-trips what toMinorUnits accepts', () => {
    const parsed = toMinorUnits('987.65', 'GBP');
    assert.ok(parsed.ok);
    assert.equal(fromMinorUnits(parsed.minorUnits, 'GBP'), '987.65');
  });
  test('rejects fractions and negatives', () => {
    assert.throws(() => fromMinorUnits(1.5, 'USD'), RangeError);
    assert.throws(() => fromMinorUnits(-1, 'USD'), RangeError);
  });
});

describe('the currency table', () => {
  const contractText = readFileSync(path.join(repoRoot, 'api', 'openapi.yaml'), 'utf8');

  test('has an exponent for every currency the contract names in a field or an example', () => {
    const named = new Set(
      [...contractText.matchAll(/\b(?:currency|Currency|sourceCurrency|destinationCurrency):\s*"?([A-Z]{3})\b/g)].map(
        (match) => match[1] ?? '',
      ),
    );
    assert.ok(named.has('USD') && named.size >= 4, `found ${[...named].join(', ')}`);
    for (const code of named)
      assert.ok(Object.hasOwn(currencyExponents, code), `${code} is used in api/openapi.yaml but has no exponent in src/lib/money.ts`);
  });

  test("Create order's page shows the same table and the same code as src/lib/money.ts", () => {
    const page = readFileSync(path.join(repoRoot, 'docs', 'createorder.md'), 'utf8');
    const codeTable = /new Map<string, number>\(\[\s*([^\]]*(?:\][^\]]*)*?)\]\);/.exec(page)?.[1] ?? '';
    const inCode = Object.fromEntries([...codeTable.matchAll(/\['([A-Z]{3})', (\d)\]/g)].map((match) => [match[1], Number(match[2])]));
    assert.deepEqual(inCode, currencyExponents, 'the minorUnitDigits map of the toMinorUnits sample');
    const inTable: Record<string, number> = {};
    for (const [, codes = '', digits = ''] of page.matchAll(/^\| ([A-Z]{3}(?:, [A-Z]{3})*) \| (\d) \|/gm)) {
      for (const code of codes.split(', ')) inTable[code] = Number(digits);
    }
    assert.deepEqual(inTable, currencyExponents, 'the table of exponents');
  });
});
