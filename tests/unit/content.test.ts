/**
 * Every page meets the content rules (see CONTRIBUTING.md), and each rule
 * catches what it is meant to catch.
 */
import {describe, test} from 'node:test';
import assert from 'node:assert/strict';
import {lintContent, proseWordCount, type ContractVocabulary} from '../../tooling/contentLint/contentLint';
import {checkContent} from '../../tooling/contentLint/contentCheck';
import {repoRoot} from '../support/routeContract';

describe('the portal content', () => {
  test('has no placeholder text, unlabelled code blocks, short guides or names the contract lacks', () => {
    const problems = checkContent(repoRoot).map((p) => `${p.file}:${p.line}: ${p.message}`);
    assert.deepEqual(problems, []);
  });
});

const vocabulary: ContractVocabulary = {
  names: new Set(['merchantOrderNo', 'amount', 'value', 'nextAction', 'cashierUrl']),
  values: new Set(['HOSTED_PAYPAGE', 'ORDER.PAID', 'INVALID_SIGNATURE']),
  byPage: new Map([['/docs/createorder', {names: new Set(['merchantOrderNo', 'amount', 'value']), values: new Set(['HOSTED_PAYPAGE'])}]]),
};
const options = {isGuide: false, resolveLink: (target: string) => (target === './createorder.md' ? '/docs/createorder' : undefined)};
const lint = (text: string, isGuide = false) => lintContent('x.md', text, vocabulary, {...options, isGuide}).map((p) => p.message);

describe('lintContent rules', () => {
  test('placeholder and template words', () => {
    assert.match(lint('Refund details are coming soon.').join(), /placeholder or template text "coming soon"/);
    assert.match(lint('TODO: write this').join(), /"TODO"/);
    assert.deepEqual(lint('A complete sentence about refunds.'), []);
  });

  test('admonition titles in the bracket form (the old form renders as text)', () => {
    assert.match(lint(':::warning Public and volatile\n\nText.\n\n:::\n').join(), /write :::warning\[Public and volatile\]/);
    assert.deepEqual(lint(':::warning[Public and volatile]\n\nText.\n\n:::\n'), []);
    assert.deepEqual(lint('```text\n:::note Not a directive\n```\n'), []);
  });

  test('code blocks must name a language', () => {
    assert.match(lint('Text\n\n```\ncurl x\n```\n').join(), /code block without a language/);
    assert.deepEqual(lint('Text\n\n```bash\ncurl x\n```\n'), []);
  });

  test('identifiers in inline code must exist in the contract', () => {
    assert.match(lint('Send `merchantOrderNumber` once.').join(), /merchantOrderNumber is not a name in the API contract/);
    assert.match(lint('Expect `ORDER_SETTLED`.').join(), /`ORDER_SETTLED` is not a value/);
    assert.match(lint('Listen for `ORDER.SHIPPED`.').join(), /`ORDER.SHIPPED` is not a value/);
    assert.deepEqual(
      lint(
        'Send `merchantOrderNo`, read `nextAction.cashierUrl`, branch on `INVALID_SIGNATURE` and `ORDER.PAID`; call `launchPayment()`; run `npm test`.',
      ),
      [],
    );
  });

  test('inline code in a link to an API page must belong to that operation', () => {
    assert.deepEqual(lint('Pass [`amount.value`](./createorder.md).'), []);
    assert.match(
      lint('Pass [`cashierUrl`](./createorder.md).').join(),
      /`cashierUrl` is not defined by the operation of \.\/createorder\.md/,
    );
  });

  test('identifiers inside code blocks are not checked', () => {
    assert.deepEqual(lint('Example:\n\n```typescript\nconst orderNumber = `x`;\n```\n'), []);
  });

  test('guides need 300 words of prose; tables, code and headings do not count', () => {
    const words = (n: number) => Array.from({length: n}, () => 'word').join(' ');
    assert.equal(
      proseWordCount(
        `---\ntitle: T\n---\n\n## Heading words here\n\n${words(10)}\n\n- ${words(5)}\n\n| a | b |\n\n\`\`\`bash\n${words(50)}\n\`\`\`\n`,
      ),
      15,
    );
    assert.match(lint(words(299), true).join(), /only 299 words of prose/);
    assert.deepEqual(lint(words(300), true), []);
  });
});
