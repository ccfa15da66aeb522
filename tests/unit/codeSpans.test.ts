import {describe, test} from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import {splitCodeSpans} from '../../src/lib/codeSpans';
import {loadContract} from '../../src/contract/node/loadContract';

const code = (text: string) => ({text, code: true});
const plain = (text: string) => ({text, code: false});

describe('backtick spans in contract texts', () => {
  test('marks the runs between paired backticks as code', () => {
    assert.deepEqual(splitCodeSpans('`message` names the field.'), [code('message'), plain(' names the field.')]);
    assert.deepEqual(splitCodeSpans('Use `a` or `b`.'), [plain('Use '), code('a'), plain(' or '), code('b'), plain('.')]);
    assert.deepEqual(splitCodeSpans('No markup here.'), [plain('No markup here.')]);
  });

  test('keeps an unpaired backtick as written', () => {
    assert.deepEqual(splitCodeSpans('`a` then a stray ` here'), [code('a'), plain(' then a stray ` here')]);
    assert.deepEqual(splitCodeSpans('a stray `'), [plain('a stray `')]);
  });

  test('every response-code and statement-column text of the contract pairs its backticks', () => {
    const contract = loadContract(path.resolve('api/openapi.yaml'));
    const texts = [
      ...[...contract.resultCodes.values()].flatMap((result) => [result.meaning, result.action]),
      ...contract.statementColumns.map((column) => column.meaning),
    ];
    const unpaired = texts.filter((text) => (text.match(/`/g) ?? []).length % 2 === 1);
    assert.deepEqual(unpaired, []);
    assert.ok(
      texts.some((text) => splitCodeSpans(text).some((run) => run.code)),
      'some contract text carries inline code',
    );
  });
});
