/**
 * The sandbox's behaviour is data (api/sandbox.yaml), and nothing else may state it differently:
 *
 * 1. the data validates against its schema, holds together, and names only codes, events, statuses and
 *    operations the contract has;
 * 2. no page under docs/ or demos/ states a sandbox fixture the data lacks, or attributes an amount
 *    ending to an outcome the data does not give it;
 * 3. no example in the contract uses a value the sandbox would reject, or shows an order, refund or
 *    payout the sandbox could not produce from it.
 *
 * Each check is also fed a bad input, to show that it fails.
 */
import {describe, test} from 'node:test';
import assert from 'node:assert/strict';
import {mkdtempSync, readFileSync, rmSync, writeFileSync, copyFileSync, mkdirSync} from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {contractRelativePath, loadContract, type LoadedContract} from '../../src/contract/node/loadContract';
import {
  checkSandboxAgainstContract,
  formatContractProblem,
  loadSandboxData,
  sandboxRelativePath,
  sandboxSchemaRelativePath,
  SandboxDataError,
  validateSandboxData,
} from '../../src/contract/node/sandboxData';
import type {Root} from 'mdast';
import type {MdxJsxFlowElement, MdxJsxTextElement} from 'mdast-util-mdx';
import remarkSandboxData from '../../plugins/content/openapi-contract/remarkSandboxData';
import {listOperations, type OpenApiDocument} from '../../src/contract/openapiTypes';
import {formatMoney, formatSeconds, formatTotalSeconds, valueAtPath} from '../../src/lib/sandboxDataText';
import {
  amountEnding,
  createOrderOutcome,
  ibanCheckDigitsValid,
  luhnValid,
  maskMatches,
  paymentAttemptOutcome,
  refundOutcome,
} from '../../src/sandbox/engine/rules/rules';
import {payoutOutcome} from '../../src/sandbox/engine/rules/payoutRules';
import type {SandboxData} from '../../src/sandbox/engine/rules/types';
import {readContentFiles} from '../../src/contract/node/contentFiles';
import {
  contractExampleFindings,
  endingProblemsIn,
  formatFinding,
  knownCodesOf,
  pageFindings,
  unknownFixturesIn,
  fixtureSets,
} from '../support/sandboxClaims';
import {repoRoot} from '../support/routeContract';

const sandboxFile = path.join(repoRoot, sandboxRelativePath);
const schemaFile = path.join(repoRoot, sandboxSchemaRelativePath);
const contract = loadContract(path.join(repoRoot, contractRelativePath));
const data = validateSandboxData(sandboxFile, schemaFile, repoRoot);
const knownCodes = knownCodesOf(data, contract);

/** A copy of the data and its schema in a temporary api/ folder, with `edit` applied to the YAML text. */
function withEditedCopy<T>(edit: (yaml: string) => string, run: (file: string) => T): T {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'sandbox-data-'));
  try {
    const api = path.join(dir, 'api');
    mkdirSync(path.join(api, 'test-vectors'), {recursive: true});
    for (const file of ['merchant-test-public.pem', 'merchant-test-private.pem', 'provider-test-public.pem']) {
      copyFileSync(path.join(repoRoot, 'api', 'test-vectors', file), path.join(api, 'test-vectors', file));
    }
    copyFileSync(schemaFile, path.join(api, 'sandbox.schema.json'));
    const original = readFileSync(sandboxFile, 'utf8');
    const edited = edit(original);
    assert.notEqual(edited, original, 'the probe must change the data');
    const file = path.join(api, 'sandbox.yaml');
    writeFileSync(file, edited);
    return run(file);
  } finally {
    rmSync(dir, {recursive: true, force: true});
  }
}

const problemsOf = (run: () => unknown): string[] => {
  try {
    run();
  } catch (error) {
    if (error instanceof SandboxDataError) return [...error.problems];
    throw error;
  }
  return [];
};

describe('api/sandbox.yaml', () => {
  test('validates against api/sandbox.schema.json and holds together', () => {
    assert.equal(data.merchant.clientId, 'sandbox-merchant-0001');
    assert.ok(data.wallets.length >= 5 && data.payments.endings.rules.length >= 5);
  });

  test('names only result codes, failure codes, events, statuses and operations the contract has', () => {
    assert.deepEqual(checkSandboxAgainstContract(data, contract).map(formatContractProblem), []);
    assert.doesNotThrow(() => loadSandboxData(sandboxFile, contract));
  });

  test('a schema problem names the file, the line and the entry', () => {
    const problems = withEditedCopy(
      (yaml) => yaml.replace('walletId: "880000000002"', 'walletId: "88000002"'),
      (file) => problemsOf(() => validateSandboxData(file, path.join(path.dirname(file), 'sandbox.schema.json'))),
    );
    assert.equal(problems.length, 1, problems.join('\n'));
    assert.match(problems[0] ?? '', /^api\/sandbox\.yaml:\d+:\d+: wallets\[1\] \(\+10000000002\)\.walletId: must match pattern/);
  });

  test('an unquoted comma in a flow mapping is reported as the unexpected key it makes', () => {
    const problems = withEditedCopy(
      (yaml) => yaml.replace('description: "The other endings (59, 62 and 93)."', 'description: The other endings (59, 62 and 93).'),
      (file) => problemsOf(() => validateSandboxData(file, path.join(path.dirname(file), 'sandbox.schema.json'))),
    );
    assert.match(problems.join('\n'), /payouts\.precedence\[3\] \(ENDING_OUTCOME\): unexpected key "62 and 93\)\."/);
  });

  test('consistency problems are all reported: duplicates, dangling wallets, Luhn, IBAN check digits, default ending', () => {
    const problems = withEditedCopy(
      (yaml) =>
        yaml
          .replace('walletId: "880000000003"', 'walletId: "880000000001"')
          .replace('{code: "286510000000000002", wallet: "+10000000002"}', '{code: "286510000000000002", wallet: "+10000000009"}')
          .replace('{number: "5500000000000004"', '{number: "5500000000000005"')
          .replace('iban: NL91ABNA0417164300', 'iban: NL92ABNA0417164300')
          .replace('iban: DE89370400440532013001', 'iban: DE89370400440532013000')
          .replace(/refunds:\n( {2}note: [\s\S]*?)\n {2}endings:\n {4}default: "00"/, 'refunds:\n$1\n  endings:\n    default: "07"')
          .replace(
            'summary: The payment stays `PROCESSING` for 20 seconds, then succeeds.',
            'summary: The payment stays `PROCESSING` for 25 seconds, then succeeds.',
          ),
      (file) => problemsOf(() => validateSandboxData(file, path.join(path.dirname(file), 'sandbox.schema.json'))),
    );
    const text = problems.join('\n');
    assert.match(text, /wallets\[2\] \(\+10000000003\)\.walletId: wallet ID "880000000001" is listed twice/);
    assert.match(text, /paymentCodes\.codes\[1\] \(286510000000000002\)\.wallet: "\+10000000009" is not the phone number of a wallet/);
    assert.match(text, /cards\.cards\[1\] \(5500000000000005\)\.number: 5500000000000005 fails the Luhn check/);
    assert.match(text, /NL92ABNA0417164300 fails the IBAN check digits/);
    assert.match(text, /DE89370400440532013000 has valid check digits, but the entry says it is rejected with IBAN_INVALID/);
    assert.match(text, /refunds\.endings\.default: the default ending "07" has no rule/);
    assert.match(text, /payments\.endings\.rules\[7\] \(93\)\.summary: says "25 seconds", but the rule's seconds are 20, 30/);
    assert.ok(
      problems.every((problem) => /^api\/sandbox\.yaml:\d+:\d+: /.test(problem)),
      text,
    );
  });

  test('a name the contract lacks is reported, and one announced for 1.1.0 says so', () => {
    const edited: SandboxData = JSON.parse(JSON.stringify(data)) as SandboxData;
    const rules = edited.payments.endings.rules as Array<
      (typeof edited.payments.endings.rules)[number] & {failureCode?: string; events?: string[]}
    >;
    const rule58 = rules.find((rule) => rule.ending === '58');
    assert.ok(rule58);
    rule58.failureCode = 'RISK_DECLINED_AT_PAYMENT';
    rule58.events = ['ORDER.DECLINED'];
    const withoutCode = structuredClone(contract.document) as OpenApiDocument & {'x-result-codes': Array<{code: string}>};
    withoutCode['x-result-codes'] = withoutCode['x-result-codes'].filter((entry) => entry.code !== 'AGREEMENT_INVALID');
    const lean: LoadedContract = {
      ...contract,
      document: withoutCode,
      resultCodes: new Map([...contract.resultCodes].filter(([code]) => code !== 'AGREEMENT_INVALID')),
    };
    const problems = checkSandboxAgainstContract(edited, lean).map(formatContractProblem);
    assert.ok(
      problems.some((problem) =>
        /payments\.endings\.rules\[3\] \(58\)\.failureCode: RISK_DECLINED_AT_PAYMENT is not in components\.schemas\.PaymentFailureCode/.test(
          problem,
        ),
      ),
      problems.join('\n'),
    );
    assert.ok(
      problems.some((problem) => /ORDER\.DECLINED is not in the eventType enum of paymentResultNotification\.$/.test(problem)),
      problems.join('\n'),
    );
    assert.ok(
      problems.some((problem) =>
        /agreementTokens\.unknown\.resultCode: AGREEMENT_INVALID is not in x-result-codes \(announced for contract 1\.1\.0/.test(problem),
      ),
      problems.join('\n'),
    );
  });
});

describe('sandbox rules', () => {
  test('amount endings, check digits and masks', () => {
    assert.equal(amountEnding(1051), '51');
    assert.equal(amountEnding(5), '05');
    assert.equal(amountEnding(120000), '00');
    assert.ok(luhnValid('4000000000000002') && !luhnValid('4000000000000003'));
    assert.ok(ibanCheckDigitsValid('DE89370400440532013000') && !ibanCheckDigitsValid('DE89370400440532013001'));
    assert.ok(maskMatches('400000******0002', '4000000000000002') && !maskMatches('555555******4444', '4000000000000002'));
  });

  const usd = (value: number) => ({value, currency: 'USD'});
  const wallet1 = data.wallets.find((wallet) => wallet.phone === '+10000000001');
  assert.ok(wallet1);

  test('payments: 58 declines at payment time with ORDER.PAYMENT_FAILED; 59 rejects Create order; 92 holds the response 40 s', () => {
    const declined = paymentAttemptOutcome(data, {amount: usd(1058), method: 'CARD', attempt: 'PAYER'});
    assert.deepEqual(
      [declined.kind, declined.finalOrderStatus, declined.failureCode, declined.events],
      ['DECLINED', 'PENDING', 'RISK_DECLINED', ['ORDER.PAYMENT_FAILED']],
    );
    assert.deepEqual(createOrderOutcome(data, {scene: 'HOSTED_PAYPAGE', amount: usd(1059)}), {
      accepted: false,
      resultCode: 'RISK_REJECTED',
      because: 'ending 59',
    });
    const held = createOrderOutcome(data, {scene: 'HOSTED_PAYPAGE', amount: usd(1092)});
    assert.ok(held.accepted && held.responseDelaySeconds === 40 && held.responseDelaySeconds > data.clientReadTimeoutSeconds);
  });

  test('payments: QR_PAY and DIRECT_PAY answer the attempt in Create order', () => {
    const paid = createOrderOutcome(data, {scene: 'QR_PAY', amount: usd(2599), payerPaymentCode: '286510000000000001'});
    assert.ok(paid.accepted && paid.orderStatus === 'PAID');
    const poor = createOrderOutcome(data, {scene: 'QR_PAY', amount: usd(2500), payerPaymentCode: '286510000000000002'});
    assert.ok(poor.accepted && poor.orderStatus === 'PENDING' && poor.attempt?.failureCode === 'INSUFFICIENT_FUNDS');
    const unknownCode = createOrderOutcome(data, {scene: 'QR_PAY', amount: usd(2500), payerPaymentCode: '286512345678901234'});
    assert.ok(unknownCode.accepted && unknownCode.attempt?.failureCode === 'PAYMENT_CODE_INVALID');
    assert.deepEqual(
      createOrderOutcome(data, {scene: 'DIRECT_PAY', amount: usd(2500), payerAgreementToken: 'agt_Xk29Lm48Qp17Rt56Vw03Yz8B'}),
      {
        accepted: false,
        resultCode: 'AGREEMENT_INVALID',
        because: 'agreement token agt_Xk29Lm48Qp17Rt56Vw03Yz8B',
      },
    );
    const waiting = createOrderOutcome(data, {scene: 'QR_PAY', amount: usd(2591), payerPaymentCode: '286510000000000001'});
    assert.ok(waiting.accepted && waiting.orderStatus === 'PROCESSING' && waiting.attempt?.finalOrderStatus === 'CLOSED');
  });

  test('payments: cash and bank transfer go PROCESSING, then PAID; the declining endings do not apply to them', () => {
    const cash = paymentAttemptOutcome(data, {amount: usd(2551), method: 'CASH', attempt: 'PAYER'});
    assert.deepEqual([cash.orderStatus, cash.finalOrderStatus, cash.processingSeconds], ['PROCESSING', 'PAID', 60]);
    const bank = paymentAttemptOutcome(data, {amount: usd(2500), method: 'BANK_TRANSFER', attempt: 'PAYER'});
    assert.deepEqual([bank.orderStatus, bank.finalOrderStatus, bank.processingSeconds], ['PROCESSING', 'PAID', 120]);
    const frozen = paymentAttemptOutcome(data, {
      amount: usd(100),
      method: 'WALLET',
      attempt: 'PAYER',
      wallet: {...wallet1, status: 'FROZEN'},
    });
    assert.equal(frozen.failureCode, 'RISK_DECLINED');
  });

  test('refunds and payouts: synchronous rejections against asynchronous failures (D-29)', () => {
    assert.deepEqual(refundOutcome(data, 1051), {accepted: false, resultCode: 'INSUFFICIENT_BALANCE', because: 'ending 51'});
    const failedRefund = refundOutcome(data, 1061);
    assert.ok(failedRefund.accepted && failedRefund.status === 'FAILED' && failedRefund.failureCode === 'PAYEE_ACCOUNT_INVALID');
    const credit = payoutOutcome(data, {product: 'CARD', amount: {value: 1000, currency: 'EUR'}, cardNumber: '5555555555554444'});
    assert.deepEqual(credit, {accepted: false, resultCode: 'CARD_NOT_ELIGIBLE', because: 'card 5555555555554444'});
    const frozenWallet = payoutOutcome(data, {product: 'WALLET', amount: usd(1000), payee: {phoneNumber: '+10000000005'}});
    assert.ok(
      frozenWallet.accepted &&
        frozenWallet.status === 'FAILED' &&
        frozenWallet.failureCode === 'PAYEE_ACCOUNT_INVALID' &&
        frozenWallet.events[0] === 'TRANSFER.FAILED',
    );
    const returned = payoutOutcome(data, {
      product: 'BANK',
      amount: {value: 10000, currency: 'EUR'},
      beneficiary: {name: 'Camille Laurent', account: {iban: 'FR7630006000011234567890189'}},
    });
    assert.ok(returned.accepted && returned.returnedAfterSeconds === 600 && returned.events.includes('BANK_TRANSFER.RETURNED'));
    const wrongName = payoutOutcome(data, {
      product: 'BANK',
      amount: {value: 10000, currency: 'EUR'},
      beneficiary: {name: 'L. Hartmann', account: {iban: 'DE89370400440532013000'}},
    });
    assert.ok(!wrongName.accepted && wrongName.resultCode === 'PAYEE_NAME_MISMATCH');
  });
});

describe('pages state only what the sandbox data holds', () => {
  const pages = readContentFiles(repoRoot).filter((file) => file.section.folder === 'docs' || file.section.folder === 'demos');

  test('every fixture and amount ending on every docs and demos page', () => {
    assert.ok(pages.length > 20, 'the content folders were read');
    const findings = pages.flatMap((page) => pageFindings(page.file, page.text, data, knownCodes)).map(formatFinding);
    assert.deepEqual(findings, []);
  });

  test('unknown fixtures are found in prose, code and JSX', () => {
    const sets = fixtureSets(data);
    const found = (text: string) => unknownFixturesIn(text, sets);
    assert.deepEqual(found('Pay with wallet +10000000001, card 4000 0000 0000 0002 and PIN 123456.'), []);
    assert.match(found('Sign in as +10000000009.').join(), /\+10000000009 is not a test wallet's phone number/);
    assert.match(found('Transfer to wallet `880012345678`.').join(), /880012345678 is not a test wallet ID/);
    assert.match(
      found('<FieldPreview label="Card number" value="4111 1111 1111 1111" code />').join(),
      /4111 1111 1111 1111 is not a test card number/,
    );
    assert.match(found('"maskedCardNumber": "411111******1111"').join(), /411111\*{6}1111 masks no test card/);
    assert.match(found("{term: 'IBAN', value: 'GB82 WEST 1234 5698 7654 32'}").join(), /GB82 WEST 1234 5698 7654 32 is not a sandbox IBAN/);
    assert.match(found('  "payerPaymentCode": "286512345678901234",').join(), /286512345678901234 is not a sandbox payment code/);
    assert.match(
      found('  payerAgreementToken: "agt_Xk29Lm48Qp17Rt56Vw03Yz8B",').join(),
      /agt_Xk29Lm48Qp17Rt56Vw03Yz8B is not a sandbox agreement token/,
    );
    assert.match(found('<FieldPreview label="Wallet PIN" value="654321" obscured code />').join(), /PIN 654321 is not a test wallet's PIN/);
    assert.match(
      found('payee: {payeeType: "PHONE", phoneNumber: "+447700900123"}').join(),
      /phoneNumber \+447700900123 is not a test wallet's phone number/,
    );
    assert.deepEqual(found('The bank reference FP2506051044XK7Q and order ord_7Fh2Kp9LmQ4xR8sT are not fixtures.'), []);
  });

  test('an ending attributed to the wrong outcome is found, in words or by code (D-21)', () => {
    const wrong = (sentence: string) => endingProblemsIn(sentence, data, knownCodes);
    assert.match(
      wrong('An amount ending in 59 is declined by risk control.').join(),
      /ending 59 \(payments\) is said to give .*"declined by risk control"/,
    );
    assert.match(wrong('An invoice of 1200.59 GBP shows a decline by risk control on the cashier.').join(), /ending 59/);
    assert.match(
      wrong('An amount ending in `58` makes Create order fail with `RISK_REJECTED`.').join(),
      /ending 58 \(payments\) is said to give `RISK_REJECTED`/,
    );
    assert.match(wrong('Change the price to 24.51 USD to see a success.').join(), /ending 51 \(payments\) is said to give "succeeds"/);
    assert.match(wrong('An amount ending in `51` is paid and you receive `ORDER.PAID`.').join(), /`ORDER\.PAID`/);
    assert.match(wrong('Call Refund order for `1061`: it ends `SUCCEEDED`.').join(), /ending 61 \(refunds\)/);
    assert.match(wrong('A payout ending in `59` is rejected at once with `INSUFFICIENT_BALANCE`.').join(), /ending 59 \(payouts\)/);
    assert.deepEqual(
      wrong('An amount ending in 58, such as 42.58 USD, is declined by risk control, and one ending in 91 never gets an answer.'),
      [],
    );
    assert.deepEqual(
      wrong('An amount ending in `59` makes [Create order](../createorder.md) fail with `RISK_REJECTED`, and no order exists.'),
      [],
    );
    assert.deepEqual(wrong('A refund ending in `61` ends `FAILED` with `PAYEE_ACCOUNT_INVALID` and `REFUND.FAILED`.'), []);
    assert.deepEqual(wrong('Pay by card ending 0002.'), []);
    assert.deepEqual(
      wrong(
        'An amount ending in `51`, `54` or `58`: declined at payment time, with `INSUFFICIENT_FUNDS`, `PAYMENT_METHOD_EXPIRED` or `RISK_DECLINED`.',
      ),
      [],
    );
    assert.match(
      wrong('An amount ending in `51`, `54` or `59`: declined at payment time.').join(),
      /ending 51, 54, 59 \(payments\) is said to give "declined"/,
    );
    assert.deepEqual(wrong('Any payment above USD 5.00 is declined for insufficient funds.'), [], 'a threshold is not an ending');
  });
});

describe('remarkSandboxData', () => {
  const element = (name: string, attributes: Record<string, string> = {}): MdxJsxFlowElement => ({
    type: 'mdxJsxFlowElement',
    name,
    attributes: Object.entries(attributes).map(([attribute, value]) => ({type: 'mdxJsxAttribute', name: attribute, value})),
    children: [],
  });
  const inline = (path: string): MdxJsxTextElement => ({
    type: 'mdxJsxTextElement',
    name: 'SandboxValue',
    attributes: [{type: 'mdxJsxAttribute', name: 'path', value: path}],
    children: [],
  });
  const transform = remarkSandboxData({siteDir: repoRoot});
  const file = {path: `${repoRoot}/docs/general/test-accounts.mdx`};

  test('gives each sandbox component the data, inlining only the sections the page uses', () => {
    const wallets = element('SandboxWallets');
    const tree: Root = {
      type: 'root',
      children: [wallets, {type: 'paragraph', children: [{type: 'text', value: 'Read timeout: '}, inline('clientReadTimeoutSeconds')]}],
    };
    transform(tree, file);
    const first = tree.children[0];
    assert.ok(first?.type === 'mdxjsEsm' && first.value.startsWith('export const sandboxData = '));
    const inlined = JSON.parse(first.value.slice('export const sandboxData = '.length, -1)) as Record<string, unknown>;
    assert.deepEqual(Object.keys(inlined).sort(), ['clientReadTimeoutSeconds', 'operations', 'walletRules', 'wallets']);
    assert.deepEqual((inlined.operations as Record<string, {summary: string; url: string}>).transfer, {
      summary: 'Transfer to wallet',
      url: '/docs/transfer/transfer',
    });
    assert.ok(wallets.attributes.some((attribute) => attribute.type === 'mdxJsxAttribute' && attribute.name === 'data'));
  });

  test('a page without sandbox components is left alone', () => {
    const tree: Root = {type: 'root', children: [{type: 'paragraph', children: [{type: 'text', value: 'Prose.'}]}]};
    transform(tree, file);
    assert.equal(tree.children.length, 1);
  });

  test('a SandboxValue path that names nothing, or data given by hand, fails with the page named', () => {
    assert.throws(
      () => transform({type: 'root', children: [{type: 'paragraph', children: [inline('wallets.ending=99.pin')]}]}, file),
      /docs\/general\/test-accounts\.mdx: <SandboxValue path="wallets\.ending=99\.pin" \/> names nothing/,
    );
    assert.throws(
      () => transform({type: 'root', children: [{type: 'paragraph', children: [inline('wallets')]}]}, file),
      /names a list or a section, not a value/,
    );
    assert.throws(
      () => transform({type: 'root', children: [element('SandboxCards', {data: 'x'})]}, file),
      /<SandboxCards> gets its data from api\/sandbox\.yaml at compile time/,
    );
  });

  test('durations and amounts as the tables print them', () => {
    assert.deepEqual([0, 2, 60, 1800, 86_400].map(formatSeconds), [
      'at once',
      '2 seconds',
      '1 minute (60 s)',
      '30 minutes (1,800 s)',
      '1 day (86,400 s)',
    ]);
    assert.equal(formatTotalSeconds(166_875), '166,875 s (about 46 hours)');
    assert.equal(formatTotalSeconds(300), '300 s (5 min)');
    assert.equal(formatMoney(100_000_000, 'USD'), 'USD 1,000,000.00');
    assert.equal(formatMoney(500, 'USD'), 'USD 5.00');
  });

  test('paths pick list entries by a field', () => {
    assert.equal(valueAtPath(data, 'payments.endings.rules.ending=92.responseDelaySeconds'), 40);
    assert.equal(valueAtPath(data, 'wallets.phone=+10000000002.balance'), 500);
    assert.equal(valueAtPath(data, 'wallets.phone=+19999999999.balance'), undefined);
  });
});

describe('contract examples use values the sandbox accepts', () => {
  test('every request, response and notification example of api/openapi.yaml', () => {
    assert.deepEqual(contractExampleFindings(contract, data), []);
  });

  /** The object at a path of the document, to edit in a probe. */
  function dig(node: unknown, ...keys: string[]): Record<string, unknown> {
    let current = node;
    for (const key of keys) {
      assert.ok(typeof current === 'object' && current !== null && key in current, `no ${key} in the contract`);
      current = (current as Record<string, unknown>)[key];
    }
    assert.ok(typeof current === 'object' && current !== null);
    return current as Record<string, unknown>;
  }

  /** The contract with examples added or changed, to show that the check catches them. */
  function probe(edit: (doc: OpenApiDocument) => void): string[] {
    const document = structuredClone(contract.document);
    edit(document);
    const operations = new Map(listOperations(document).map((location) => [location.operationId, location]));
    return contractExampleFindings({document, operations}, data);
  }
  const requestExamples = (doc: OpenApiDocument, pathKey: string) =>
    dig(doc, 'paths', pathKey, 'post', 'requestBody', 'content', 'application/json', 'examples');
  const webhookExamples = (doc: OpenApiDocument, name: string) =>
    dig(doc, 'webhooks', name, 'post', 'requestBody', 'content', 'application/json', 'examples');

  test('a request example with an unknown payment code, wallet or card is reported', () => {
    const findings = probe((doc) => {
      requestExamples(doc, '/orders').probe = {
        value: {
          merchantOrderNo: 'ORD-PROBE-1',
          amount: {value: 2599, currency: 'USD'},
          scene: 'QR_PAY',
          subject: 'x',
          payerPaymentCode: '286512345678901234',
          storeId: 's',
          terminalId: 't',
        },
      };
      requestExamples(doc, '/transfers').probe = {
        value: {
          merchantTransferNo: 'TRF-PROBE-1',
          amount: {value: 25000, currency: 'EUR'},
          payee: {payeeType: 'WALLET_ID', walletId: '880012345678'},
        },
      };
      requestExamples(doc, '/card-payouts').probe = {
        value: {
          merchantTransferNo: 'CPO-PROBE-1',
          amount: {value: 1000, currency: 'EUR'},
          card: {cardNumber: '5555555555554444', expiryMonth: 12, expiryYear: 2028},
        },
      };
    }).join('\n');
    assert.match(findings, /examples\.probe\.value\.payerPaymentCode: payerPaymentCode 286512345678901234 is not a sandbox payment code/);
    assert.match(findings, /walletId 880012345678 is not a test wallet ID/);
    assert.match(findings, /transfer request example "probe": the sandbox rejects it with PAYEE_ACCOUNT_INVALID \(wallet 880012345678\)/);
    assert.match(
      findings,
      /transferToBankCard request example "probe": the sandbox rejects it with CARD_NOT_ELIGIBLE \(card 5555555555554444\)/,
    );
  });

  test('an amount ending that gives another outcome than the example shows is reported', () => {
    const findings = probe((doc) => {
      requestExamples(doc, '/orders').probe = {
        value: {
          merchantOrderNo: 'ORD-PROBE-2',
          amount: {value: 1059, currency: 'USD'},
          scene: 'HOSTED_PAYPAGE',
          subject: 'x',
          returnUrl: 'https://shop.example.com/',
        },
      };
      dig(
        doc,
        'paths',
        '/orders',
        'post',
        'responses',
        '200',
        'content',
        'application/json',
        'examples',
        'qrPay',
        'value',
        'data',
        'order',
      ).amount = {value: 2551, currency: 'USD'};
      webhookExamples(doc, 'refundResult').probe = {
        value: {
          notificationId: 'ntf_x',
          eventType: 'REFUND.FAILED',
          createdAt: '2025-06-02T10:01:00Z',
          data: {
            refundId: 'rfd_8Qr0St2Uv4Wx6Yz8',
            status: 'FAILED',
            amount: {value: 1999, currency: 'USD'},
            failureCode: 'PAYEE_ACCOUNT_INVALID',
          },
        },
      };
      webhookExamples(doc, 'cardPayoutResult').probe = {
        value: {
          notificationId: 'ntf_y',
          eventType: 'CARD_PAYOUT.FAILED',
          data: {
            transferId: 'cpo_GKFSufrdZSlB5er8',
            status: 'FAILED',
            amount: {value: 8000, currency: 'EUR'},
            maskedCardNumber: '555555******4444',
            failureCode: 'CARD_NOT_ELIGIBLE',
          },
        },
      };
    }).join('\n');
    assert.match(findings, /createOrder request example "probe": the sandbox rejects it with RISK_REJECTED \(ending 59\)/);
    assert.match(findings, /createOrder response 200 example "qrPay".*a paid order of 2551 by WALLET/);
    assert.match(
      findings,
      /refundResultNotification notification example "probe"\.data: a refund of 1999 cannot end FAILED with PAYEE_ACCOUNT_INVALID/,
    );
    assert.match(
      findings,
      /bankCardTransferNotification notification example "probe"\.data: this payout cannot exist: the sandbox rejects it with CARD_NOT_ELIGIBLE/,
    );
  });
});
