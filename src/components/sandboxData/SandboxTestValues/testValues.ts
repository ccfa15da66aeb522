/**
 * The test accounts page's model: every card, wallet, IBAN and amount ending of the sandbox data, each with
 * what it does, a replay link to the live demo that plays it (demoFlows.ts) and a link that opens the API
 * page whose Try it takes it, prefilled (prefillFromUrl.ts). Pure (no React), unit-tested in
 * tests/unit/testValues.test.ts, which also plays each replay link's outcome on the live demo's flows.
 */
import {replayLink} from '@site/src/components/demo/demoFlows';
import {walletOutcomeId} from '@site/src/components/demo/testWallets';
import {tryItLink} from '@site/src/components/widgets/TryItPanel/prefillFromUrl';
import {brandName, cardBehaviorText, formatMoney} from '@site/src/lib/sandboxDataText';
import type {PaymentCard, PaymentEndingRule, SandboxPageData} from '@site/src/sandbox/engine/rules/types';

/** The sections of the sandbox data the page reads (remarkSandboxData inlines them). */
export const testValueSections = [
  'wallets',
  'cards',
  'payments',
  'refunds',
  'payouts',
  'bankAccounts',
  'virtualAccounts',
  'payoutCards',
] as const;
export type TestValueData = SandboxPageData<(typeof testValueSections)[number]>;

export type TestValueGroup = 'cards' | 'wallets' | 'ibans' | 'paymentEndings' | 'refundEndings' | 'payoutEndings' | 'payoutCards';

export interface LinkOut {
  readonly href: string;
  /** What the link does, as its visible text. */
  readonly label: string;
}

export interface TestValue {
  /** What to type in a form or send in a request. */
  readonly value: string;
  /** What it is: "Visa credit", "USD wallet". */
  readonly title: string;
  /** What it does, codes in `backticks`. */
  readonly does: string;
  readonly demo?: LinkOut;
  readonly tryIt?: LinkOut;
  /** Why there is no Try it link, when there is none. */
  readonly noTryIt?: string;
}

/** The live flow whose demo plays card payments and amount endings (the hosted pay page). */
const cardFlow = 'hosted';
/** The live flow whose demo plays the test wallets (the e-wallet on a phone). */
const walletFlow = 'ewallet';
/** The live flow whose demo plays a bank transfer into a virtual account (the B2B invoice). */
const transferFlow = 'invoice';

/** The live demo outcome an amount ending of a payment plays, by the id the live demo gives it; undefined when no demo plays it. */
export function endingOutcomeId(rule: PaymentEndingRule): string | undefined {
  if (rule.kind === 'SUCCEEDED' && rule.at === 'ATTEMPT') return 'approve';
  if (rule.kind === 'DECLINED' && rule.at === 'ATTEMPT') return `decline-${rule.ending}`;
  if (rule.kind === 'REJECTED' && rule.at === 'CREATE_ORDER') return `rejected-${rule.ending}`;
  if (rule.kind === 'DELAYED' && rule.at === 'ATTEMPT') return `slow-${rule.ending}`;
  if (rule.kind === 'FAILED' && rule.at === 'ATTEMPT') return `timeout-${rule.ending}`;
  if (rule.kind === 'UNANSWERED') return 'expiry';
  return undefined;
}

/** The live demo outcome a test card plays: its 3-D Secure outcome, the approval, or the ending that declines the same way. */
export function cardOutcomeId(data: Pick<TestValueData, 'payments'>, card: PaymentCard): string | undefined {
  if (card.threeDSecure?.flow === 'CHALLENGE') return card.threeDSecure.result === 'PASSED' ? '3ds-passed' : '3ds-failed';
  if (card.behavior === 'ENDINGS') return 'approve';
  const failureCode = card.behavior.failureCode;
  const same = data.payments.endings.rules.find((rule) => rule.kind === 'DECLINED' && rule.failureCode === failureCode);
  return same ? endingOutcomeId(same) : undefined;
}

/** What the demo link of a card plays: its challenge, a payment with it, or the same decline made by an amount ending. */
function cardDemoLabel(card: PaymentCard): string {
  if (card.threeDSecure?.flow === 'CHALLENGE') return 'Use in a demo: the challenge';
  return card.behavior === 'ENDINGS' ? 'Use in a demo' : 'Use in a demo: the same decline, by amount';
}

const demoLink = (outcome: string | undefined, label: string, amount?: number, flow = cardFlow): LinkOut | undefined => {
  const href = outcome === undefined ? undefined : replayLink(flow, outcome, amount);
  return href === undefined ? undefined : {href, label};
};

function tryItOf(data: TestValueData, operationId: string, body: Readonly<Record<string, string | number>>): LinkOut | undefined {
  const operation = data.operations[operationId];
  const href = operation?.url ? tryItLink({page: operation.url}, {body}) : undefined;
  return href === undefined || operation === undefined ? undefined : {href, label: `Use in Try it: ${operation.summary}`};
}

/** An amount with this ending in a currency with two decimals: 42.51 for "51". */
const amountWith = (whole: number, ending: string): number => whole * 100 + Number(ending);

export function testValues(data: TestValueData, group: TestValueGroup): TestValue[] {
  switch (group) {
    case 'cards':
      return data.cards.cards.map((card) => {
        const outcome = cardOutcomeId(data, card);
        return {
          value: card.number,
          title: `${brandName(card.brand)} ${card.funding.toLowerCase()}`,
          does: cardBehaviorText(card, data.cards.threeDSecure.failed.failureCode),
          ...optional('demo', demoLink(outcome, cardDemoLabel(card))),
          noTryIt: 'Typed in the cashier: no call of yours sends it.',
        };
      });
    case 'wallets':
      return data.wallets.map((wallet) => ({
        value: wallet.phone,
        title: `${wallet.currency} wallet, PIN ${wallet.pin}${wallet.status === 'FROZEN' ? ', frozen' : ''}`,
        does: `${wallet.note} Wallet ID \`${wallet.walletId}\`, balance ${formatMoney(wallet.balance, wallet.currency)}.`,
        ...optional('demo', demoLink(walletOutcomeId(data.wallets, wallet.phone), 'Use in a demo', undefined, walletFlow)),
        ...optional(
          'tryIt',
          tryItOf(data, 'transfer', {
            'payee.payeeType': 'WALLET_ID',
            'payee.walletId': wallet.walletId,
            'amount.currency': wallet.currency,
          }),
        ),
      }));
    case 'ibans':
      return [
        ...data.bankAccounts.accounts.map((account) => ({
          value: account.iban,
          title: `${account.country} ${account.currency} account${account.holderName ? ` of ${account.holderName}` : ''}`,
          does:
            account.behavior.note ??
            `${account.behavior.kind === 'SUCCEEDED' ? 'Payouts succeed.' : `Payouts end \`${account.behavior.kind}\`.`}`,
          ...optional('tryIt', tryItOf(data, 'getIbanHolderName', {iban: account.iban})),
        })),
        ...data.virtualAccounts.accounts.map((account) => ({
          value: account.iban,
          title: `Virtual account ${account.virtualAccountId} (${account.currency})`,
          does: `A buyer's bank transfer to it tops up your balance and sends \`VAM.TOP_UP\`, with customer reference \`${account.customerReference}\`.`,
          ...optional('demo', demoLink('exact', 'Use in a demo: a bank transfer', undefined, transferFlow)),
          noTryIt: 'Money arrives on it from a bank, not from a call of yours: the sandbox console simulates the top-up.',
        })),
      ];
    case 'paymentEndings':
      return endingEntries(data, data.payments.endings.rules, {
        whole: 42,
        currency: 'USD',
        kind: 'Payment',
        operationId: 'createOrder',
        outcomeOf: endingOutcomeId,
      });
    case 'refundEndings':
      return endingEntries(data, data.refunds.endings.rules, {whole: 10, currency: 'USD', kind: 'Refund', operationId: 'refundOrder'});
    case 'payoutEndings':
      return endingEntries(data, data.payouts.endings.rules, {whole: 250, currency: 'EUR', kind: 'Payout', operationId: 'transfer'});
    case 'payoutCards':
      return data.payoutCards.cards.map((card) => ({
        value: card.number,
        title: `${brandName(card.brand)} issued in ${card.issuerCountry}`,
        does:
          card.payout.note ??
          (card.eligibility.eligible
            ? `Eligible; payouts end \`${card.payout.status ?? card.payout.kind}\`.`
            : `Not eligible (\`${card.eligibility.reason ?? ''}\`).`),
        ...optional('tryIt', tryItOf(data, 'transferToBankCard', {'card.cardNumber': card.number})),
      }));
  }
}

/** The entries of an ending table: an amount with each ending, Try it of the operation it decides, and for payments the demo that plays it. */
function endingEntries<Rule extends {readonly ending: string; readonly summary: string}>(
  data: TestValueData,
  rules: readonly Rule[],
  of: {
    readonly whole: number;
    readonly currency: string;
    readonly kind: string;
    readonly operationId: string;
    readonly outcomeOf?: (rule: Rule) => string | undefined;
  },
): TestValue[] {
  return rules.map((rule) => {
    const amount = amountWith(of.whole, rule.ending);
    const outcome = of.outcomeOf?.(rule);
    return {
      value: rule.ending,
      title: `${of.kind} of ${formatMoney(amount, of.currency)}`,
      does: rule.summary,
      ...optional('demo', demoLink(outcome, 'Use in a demo', amount)),
      ...optional('tryIt', tryItOf(data, of.operationId, {'amount.value': amount})),
    };
  });
}

/** `{[key]: value}` when value is defined, else nothing (exactOptionalPropertyTypes). */
function optional<K extends string, V>(key: K, value: V | undefined): Partial<Record<K, V>> {
  return value === undefined ? {} : ({[key]: value} as Record<K, V>);
}
