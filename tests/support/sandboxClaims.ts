/**
 * Finds the sandbox statements of a page or of the contract and checks them against api/sandbox.yaml:
 *
 * - fixtures anywhere in the text (prose, code, JSX props): sandbox phone numbers and PINs, wallet IDs,
 *   card numbers (plain, grouped or masked), IBANs, QR payment codes, agreement tokens, and the values
 *   of fields such as `walletId` or `cardNumber` in code;
 * - amount endings stated in prose ("an amount ending in `58`", "42.51 USD", "an order for `1059`")
 *   together with the outcome the sentence attributes to them: a code, an event, a status, or plain
 *   words ("declined by risk control", "no answer", "succeeds");
 * - the contract's examples (checkContractExamples): fixture fields, and whether the sandbox would
 *   answer each request example, and could produce each order, refund and payout shown, as shown.
 */
import type {LoadedContract} from '../../src/contract/node/loadContract';
import {resolvePointer, type ResponseObject} from '../../src/contract/openapiTypes';
import {
  createOrderOutcome,
  ibanCheckDigitsValid,
  knownCardNumbers,
  knownIbans,
  maskMatches,
  paymentRuleFor,
  refundRuleFor,
} from '../../src/sandbox/engine/rules/rules';
import {payoutOutcome, type PayoutRequest} from '../../src/sandbox/engine/rules/payoutRules';
import type {PaymentEndingRule, PayoutEndingRule, RefundEndingRule, SandboxData} from '../../src/sandbox/engine/rules/types';

export interface Finding {
  /** "docs/x.md:12" or a place in the contract. */
  readonly where: string;
  readonly message: string;
}

export const formatFinding = (finding: Finding): string => `${finding.where}: ${finding.message}`;

// ---- Fixtures --------------------------------------------------------------------------------------

/** IBAN lengths of the countries a page might use, so that "FP2506051044XK7Q" is not taken for one. */
const ibanLengths: Readonly<Record<string, number>> = {
  AD: 24,
  AT: 20,
  BE: 16,
  CH: 21,
  CZ: 24,
  DE: 22,
  DK: 18,
  ES: 24,
  FI: 18,
  FR: 27,
  GB: 22,
  IE: 22,
  IT: 27,
  LU: 20,
  NL: 18,
  NO: 15,
  PL: 28,
  PT: 25,
  SE: 24,
};

function looksLikeIban(candidate: string): boolean {
  return ibanLengths[candidate.slice(0, 2)] === candidate.length;
}

interface FixtureSets {
  readonly phones: ReadonlySet<string>;
  readonly walletIds: ReadonlySet<string>;
  readonly pins: ReadonlySet<string>;
  readonly cards: ReadonlySet<string>;
  readonly ibans: ReadonlySet<string>;
  readonly codes: ReadonlySet<string>;
  readonly tokens: ReadonlySet<string>;
  readonly authCodes: ReadonlySet<string>;
  readonly walletUserIds: ReadonlySet<string>;
  readonly accountNumbers: ReadonlySet<string>;
}

export function fixtureSets(data: SandboxData): FixtureSets {
  return {
    phones: new Set(data.wallets.map((wallet) => wallet.phone)),
    walletIds: new Set(data.wallets.map((wallet) => wallet.walletId)),
    pins: new Set(data.wallets.map((wallet) => wallet.pin)),
    cards: knownCardNumbers(data),
    ibans: knownIbans(data),
    codes: new Set(data.paymentCodes.codes.map((entry) => entry.code)),
    tokens: new Set(data.agreementTokens.tokens.map((entry) => entry.token)),
    authCodes: new Set(data.walletAuthCodes.codes.map((entry) => entry.code)),
    walletUserIds: new Set(data.walletAuthCodes.codes.map((entry) => entry.userId)),
    accountNumbers: new Set(data.bankAccounts.accounts.flatMap((account) => (account.accountNumber ? [account.accountNumber] : []))),
  };
}

/** Fixture-looking values in one line of text that the sandbox data does not hold. */
export function unknownFixturesIn(text: string, sets: FixtureSets): string[] {
  const problems: string[] = [];
  for (const [phone] of text.matchAll(/(?<![\d+])\+1000000\d{4}(?!\d)/g)) {
    if (!sets.phones.has(phone)) problems.push(`${phone} is not a test wallet's phone number`);
  }
  for (const [walletId] of text.matchAll(/(?<!\d)8800\d{8}(?!\d)/g)) {
    if (!sets.walletIds.has(walletId)) problems.push(`${walletId} is not a test wallet ID`);
  }
  for (const match of text.matchAll(/(?<![\d*])([2-6]\d{3})([ -]?)(\d{4})\2(\d{4})\2(\d{4})(?![\d*])/g)) {
    const number = `${match[1] ?? ''}${match[3] ?? ''}${match[4] ?? ''}${match[5] ?? ''}`;
    if (!sets.cards.has(number)) problems.push(`${match[0]} is not a test card number`);
  }
  for (const [masked] of text.matchAll(/(?<![\d*])\d{6}\*{6}\d{4}(?![\d*])/g)) {
    if (![...sets.cards].some((card) => maskMatches(masked, card))) problems.push(`${masked} masks no test card`);
  }
  for (const [raw] of text.matchAll(/\b[A-Z]{2}\d{2}(?: ?[A-Z0-9]{4}){2,7}(?: ?[A-Z0-9]{1,4})?\b/g)) {
    const iban = raw.replace(/ /g, '');
    if (looksLikeIban(iban) && !sets.ibans.has(iban)) problems.push(`${raw} is not a sandbox IBAN`);
  }
  for (const [code] of text.matchAll(/(?<!\d)28\d{16}(?!\d)/g)) {
    if (!sets.codes.has(code)) problems.push(`${code} is not a sandbox payment code`);
  }
  for (const [token] of text.matchAll(/\bagt_[A-Za-z0-9]{8,}/g)) {
    if (!sets.tokens.has(token)) problems.push(`${token} is not a sandbox agreement token`);
  }
  for (const [code] of text.matchAll(/\bwac_[A-Za-z0-9]{20}\b/g)) {
    if (!sets.authCodes.has(code)) problems.push(`${code} is not a sandbox wallet auth code`);
  }
  for (const [userId] of text.matchAll(/\bwu_[A-Za-z0-9]{10}\b/g)) {
    if (!sets.walletUserIds.has(userId)) problems.push(`${userId} is not a sandbox wallet user ID`);
  }
  for (const match of text.matchAll(/\bPIN(?: is| of)?\s+`?(\d{4,8})`?(?!\d)|\bPIN"[^>]*?\bvalue="(\d{4,8})"/g)) {
    const pin = match[1] ?? match[2] ?? '';
    if (!sets.pins.has(pin)) problems.push(`PIN ${pin} is not a test wallet's PIN`);
  }
  for (const match of text.matchAll(
    /\b(walletId|payerPaymentCode|payerAgreementToken|iban|cardNumber|phoneNumber|accountNumber)["']?\s*[:=]\s*["'`]([^"'`]+)["'`]/g,
  )) {
    const problem = fieldProblem(match[1] ?? '', match[2] ?? '', sets);
    if (problem) problems.push(problem);
  }
  return [...new Set(problems)];
}

/** A fixture field's value the sandbox would not know; undefined for values that are not fixtures (placeholders, variables). */
export function fieldProblem(field: string, value: string, sets: FixtureSets): string | undefined {
  const plain = value.replace(/ /g, '');
  switch (field) {
    case 'walletId':
      return /^\d{12}$/.test(value) && !sets.walletIds.has(value) ? `walletId ${value} is not a test wallet ID` : undefined;
    case 'phoneNumber':
      return /^\+\d{8,15}$/.test(value) && !sets.phones.has(value) ? `phoneNumber ${value} is not a test wallet's phone number` : undefined;
    case 'payerPaymentCode':
      return /^\d{18}$/.test(value) && !sets.codes.has(value) ? `payerPaymentCode ${value} is not a sandbox payment code` : undefined;
    case 'payerAgreementToken':
      return /^agt_/.test(value) && !sets.tokens.has(value) ? `payerAgreementToken ${value} is not a sandbox agreement token` : undefined;
    case 'cardNumber':
      return /^\d{13,19}$/.test(plain) && !sets.cards.has(plain) ? `cardNumber ${value} is not a test card` : undefined;
    case 'iban':
      if (value.includes('*'))
        return [...sets.ibans].some((iban) => maskMatches(value, iban)) ? undefined : `iban ${value} masks no sandbox IBAN`;
      return /^[A-Z]{2}\d{2}[A-Z0-9]{11,30}$/.test(plain) && !sets.ibans.has(plain) ? `iban ${value} is not a sandbox IBAN` : undefined;
    case 'accountNumber':
      return /^\d{6,17}$/.test(value) && !sets.accountNumbers.has(value)
        ? `accountNumber ${value} is not a sandbox bank account`
        : undefined;
    default:
      return undefined;
  }
}

// ---- Amount endings in prose -------------------------------------------------------------------------

export type Domain = 'payments' | 'refunds' | 'payouts';

interface Mention {
  readonly ending: string;
  readonly start: number;
  readonly end: number;
}

/** Ending mentions: "ending in `58`", "ends in 00", "42.51 USD", "USD 5.00", "an order for `1059`". */
export function endingMentions(sentence: string): Mention[] {
  const mentions: Mention[] = [];
  const add = (ending: string | undefined, match: RegExpMatchArray) => {
    if (ending !== undefined && match.index !== undefined) mentions.push({ending, start: match.index, end: match.index + match[0].length});
  };
  for (const match of sentence.matchAll(/\b(?:ends?|ending)(?:\s+(?:in|with))?\s+`?(\d{2})`?(?![\d.,])/gi)) add(match[1], match);
  // "ending in `00` succeeds, `51` is declined, and `91` never completes": the list goes on in bare code spans.
  const first = mentions[0];
  if (first) {
    for (const match of sentence.slice(first.end).matchAll(/`(\d{2})`/g)) {
      if (match.index !== undefined)
        mentions.push({ending: match[1] ?? '', start: first.end + match.index, end: first.end + match.index + match[0].length});
    }
  }
  // Money in major units: an ending statement unless it is a threshold ("any payment above USD 5.00").
  const threshold = /\b(?:above|over|below|under|more than|less than|up to|at most|at least|exceeds?|balance(?: of)?)\s+$/i;
  const addMoney = (ending: string | undefined, match: RegExpMatchArray) => {
    if (match.index !== undefined && !threshold.test(sentence.slice(Math.max(0, match.index - 20), match.index))) add(ending, match);
  };
  for (const match of sentence.matchAll(/(?<![\d.,])\d+(?:,\d{3})*\.(\d{2})\s?(?:USD|EUR|GBP)\b/g)) addMoney(match[1], match);
  for (const match of sentence.matchAll(/\b(?:USD|EUR|GBP)\s?\d+(?:,\d{3})*\.(\d{2})(?![\d.])/g)) addMoney(match[1], match);
  for (const match of sentence.matchAll(/\b(?:for|of|refunds?)\s+`(\d{3,})`/gi)) add(match[1]?.slice(-2), match);
  const seen = new Set<number>();
  return mentions.sort((a, b) => a.start - b.start).filter((mention) => !seen.has(mention.start) && Boolean(seen.add(mention.start)));
}

/** The flow a mention is about: the nearest of "refund" or "payout/transfer" before it in the sentence, else payments. */
export function domainOf(sentence: string, at: number): Domain {
  const before = sentence.slice(0, at).toLowerCase();
  const refund = before.lastIndexOf('refund');
  const payout = Math.max(before.lastIndexOf('payout'), before.lastIndexOf('transfer'), before.lastIndexOf('pay out'));
  if (refund < 0 && payout < 0) {
    const after = sentence.slice(at).toLowerCase();
    if (/\brefund/.test(after) && !/\b(order|payment)\b/.test(after)) return 'refunds';
    if (/\b(payout|transfer)/.test(after) && !/\b(order|payment)\b/.test(after)) return 'payouts';
    return 'payments';
  }
  return refund > payout ? 'refunds' : 'payouts';
}

/** What a sentence segment says happens, in the terms of the data. */
export interface Claims {
  readonly codes: readonly string[];
  readonly events: readonly string[];
  readonly statuses: readonly string[];
  readonly phrases: readonly Phrase[];
}

export type Phrase = 'noAnswer' | 'declined' | 'insufficient' | 'expiredMethod' | 'riskDecline' | 'riskReject' | 'success' | 'heldResponse';

/** The statuses the ending rules decide; PARTIALLY_REFUNDED and REFUNDED follow from refund arithmetic, not from an ending. */
const statusWords = new Set(['PENDING', 'PROCESSING', 'PAID', 'CLOSED', 'SUCCEEDED', 'FAILED', 'RETURNED', 'EXPIRED']);

export function claimsIn(segment: string, knownCodes: ReadonlySet<string>): Claims {
  const codes = [...segment.matchAll(/\b[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+\b/g)]
    .map(([code]) => code)
    .filter((code) => knownCodes.has(code) && !statusWords.has(code));
  const events = [...segment.matchAll(/\b[A-Z][A-Z_]*\.[A-Z][A-Z_]*\b/g)].map(([event]) => event);
  const statuses = [...segment.matchAll(/`([A-Z_]+)`/g)].map((match) => match[1] ?? '').filter((word) => statusWords.has(word));
  const text = segment.toLowerCase();
  const phrases: Phrase[] = [];
  const failureWords = /declin|\bfail|reject|insufficient|expired|risk|no answer|never|unanswered/;
  if (/no answer|never (?:gets? an answer|answered|completes?|get an answer)|unanswered|keeps? waiting/.test(text))
    phrases.push('noAnswer');
  if (
    /\b(?:is|are|be|been|gets?)\s+declined\b|:\s*declined\b|\bdeclined\s+(?:at|for|by|with|because|as|when)\b|\bdeclines?\s+(?:it|them|each|every|any)\b|\ba decline (?:by|for|as)\b/.test(
      text,
    )
  )
    phrases.push('declined');
  if (/insufficient (?:balance|funds)/.test(text)) phrases.push('insufficient');
  if (/\b(?:card|wallet)\b[^.;]*\bexpired\b|\bexpired[- ](?:card|wallet)/.test(text)) phrases.push('expiredMethod');
  if (/risk/.test(text) && /declin/.test(text)) phrases.push('riskDecline');
  if (/risk/.test(text) && !/declin/.test(text) && /reject|\bfails?\b|no order/.test(text)) phrases.push('riskReject');
  if (/held|holds? (?:back|the (?:create order )?response)|read timeout/.test(text)) phrases.push('heldResponse');
  if (/\b(?:succeeds?|success(?:ful(?:ly)?)?|approves?|approved|is paid|are paid|is accepted)\b/.test(text) && !failureWords.test(text))
    phrases.push('success');
  return {codes, events, statuses, phrases};
}

const isEmpty = (claims: Claims) => claims.codes.length + claims.events.length + claims.statuses.length + claims.phrases.length === 0;

/** What a rule can truthfully be said to do. */
interface RuleFacts {
  readonly summary: string;
  readonly kind: string;
  readonly codes: ReadonlySet<string>;
  readonly events: ReadonlySet<string>;
  readonly statuses: ReadonlySet<string>;
  readonly heldResponse: boolean;
}

function paymentFacts(data: SandboxData, rule: PaymentEndingRule): RuleFacts {
  const effective =
    rule.then !== undefined ? (data.payments.endings.rules.find((candidate) => candidate.ending === rule.then) ?? rule) : rule;
  const variants = [effective.payer, effective.createOrder].filter((variant) => variant !== undefined);
  const codes = [effective.failureCode, effective.resultCode, ...variants.map((variant) => variant.failureCode)].filter(
    (code) => code !== undefined,
  );
  const events = [...(effective.events ?? []), ...variants.flatMap((variant) => variant.events)];
  const statuses = new Set<string>([
    ...(effective.orderStatus ? [effective.orderStatus] : []),
    ...variants.flatMap((variant) => [variant.orderStatus, variant.closeReason]),
  ]);
  if (effective.kind === 'DECLINED') statuses.add('FAILED').add('PENDING');
  if (effective.kind === 'SUCCEEDED' || effective.kind === 'DELAYED') statuses.add('SUCCEEDED');
  // Cash and bank transfer payments pass through PROCESSING whatever the ending (payments.methods).
  const slowMethods = data.payments.methods.some((method) => method.processingSeconds !== undefined);
  if (
    (effective.processingSeconds ?? 0) > 0 ||
    effective.kind === 'UNANSWERED' ||
    (slowMethods && effective.at === 'ATTEMPT' && effective.kind !== 'FAILED')
  )
    statuses.add('PROCESSING');
  if (effective.kind === 'UNANSWERED' || effective.kind === 'FAILED') statuses.add('PENDING').add('FAILED').add('CLOSED').add('EXPIRED');
  return {
    summary: rule.summary,
    kind: effective.kind,
    codes: new Set(codes),
    events: new Set(events),
    statuses,
    heldResponse: rule.responseDelaySeconds !== undefined,
  };
}

function asyncFacts(rule: RefundEndingRule | PayoutEndingRule, events: readonly string[]): RuleFacts {
  const codes = [rule.failureCode, rule.resultCode].filter((code) => code !== undefined);
  const statuses = new Set<string>(rule.status ? [rule.status] : []);
  if (rule.kind !== 'REJECTED') statuses.add('PROCESSING');
  return {summary: rule.summary, kind: rule.kind, codes: new Set(codes), events: new Set(events), statuses, heldResponse: false};
}

export function factsFor(data: SandboxData, domain: Domain, ending: string): RuleFacts {
  const value = Number(ending);
  if (domain === 'payments') return paymentFacts(data, paymentRuleFor(data, value));
  if (domain === 'refunds') {
    const rule = refundRuleFor(data, value);
    return asyncFacts(rule, rule.events);
  }
  const rule =
    data.payouts.endings.rules.find((candidate) => candidate.ending === ending) ??
    data.payouts.endings.rules.find((candidate) => candidate.ending === data.payouts.endings.default);
  if (!rule) throw new Error('payout endings have no default rule');
  const events = rule.status ? data.payouts.products.flatMap((product) => (rule.status ? [product.events[rule.status]] : [])) : [];
  return asyncFacts(rule, events);
}

/** Why the claims do not fit the rule; undefined when they do. */
export function mismatch(claims: Claims, facts: RuleFacts, domain: Domain): string | undefined {
  const wrong: string[] = [];
  for (const code of claims.codes) if (!facts.codes.has(code)) wrong.push(`\`${code}\``);
  for (const event of claims.events) if (!facts.events.has(event)) wrong.push(`\`${event}\``);
  for (const status of claims.statuses) if (!facts.statuses.has(status)) wrong.push(`\`${status}\``);
  if (claims.codes.length === 0) {
    for (const phrase of claims.phrases) {
      const fits =
        phrase === 'noAnswer'
          ? facts.kind === 'UNANSWERED'
          : phrase === 'declined'
            ? domain === 'payments'
              ? facts.kind === 'DECLINED'
              : facts.kind === 'FAILED' || facts.kind === 'REJECTED'
            : phrase === 'insufficient'
              ? facts.codes.has('INSUFFICIENT_FUNDS') || facts.codes.has('INSUFFICIENT_BALANCE')
              : phrase === 'expiredMethod'
                ? facts.codes.has('PAYMENT_METHOD_EXPIRED')
                : phrase === 'riskDecline'
                  ? facts.codes.has(domain === 'payments' ? 'RISK_DECLINED' : 'RISK_REJECTED')
                  : phrase === 'riskReject'
                    ? facts.codes.has('RISK_REJECTED')
                    : phrase === 'heldResponse'
                      ? facts.heldResponse
                      : facts.kind === 'SUCCEEDED' || facts.kind === 'DELAYED';
      if (!fits) wrong.push(phraseLabels[phrase]);
    }
  }
  return wrong.length > 0 ? wrong.join(', ') : undefined;
}

const phraseLabels: Readonly<Record<Phrase, string>> = {
  noAnswer: '"no answer"',
  declined: '"declined"',
  insufficient: '"insufficient balance or funds"',
  expiredMethod: '"expired card or wallet"',
  riskDecline: '"declined by risk control"',
  riskReject: '"rejected by risk control"',
  success: '"succeeds"',
  heldResponse: '"response held back"',
};

/** Every code the data names, plus the contract's result codes: the UPPER_SNAKE words a sentence can attribute. */
export function knownCodesOf(data: SandboxData, contract?: LoadedContract): Set<string> {
  const codes = new Set<string>(contract ? [...contract.resultCodes.keys()] : []);
  const walk = (node: unknown): void => {
    if (Array.isArray(node)) node.forEach(walk);
    else if (typeof node === 'object' && node !== null) {
      for (const [key, value] of Object.entries(node)) {
        if ((key === 'failureCode' || key === 'resultCode' || key === 'returnFailureCode') && typeof value === 'string') codes.add(value);
        else walk(value);
      }
    }
  };
  walk(data);
  return codes;
}

/** Splits a prose line into sentences (a decimal point is not a sentence end). */
export function sentencesOf(line: string): string[] {
  return line.split(/(?<=[.!?;])\s+(?=[A-Z`*[(])|\s+\|\s+/).filter((sentence) => sentence.trim() !== '');
}

/** Mentions that a list joins ("`51`, `54` or `58`: declined with ...") share the words after the last of them. */
function groupMentions(sentence: string, mentions: readonly Mention[]): Mention[][] {
  const groups: Mention[][] = [];
  for (const mention of mentions) {
    const group = groups[groups.length - 1];
    const previous = group?.[group.length - 1];
    if (group && previous && /^`?(?:,\s*|\s+)(?:(?:or|and)\s+)?$/.test(sentence.slice(previous.end, mention.start))) group.push(mention);
    else groups.push([mention]);
  }
  return groups;
}

/** The ending statements of one sentence that the data contradicts. */
export function endingProblemsIn(sentence: string, data: SandboxData, knownCodes: ReadonlySet<string>): string[] {
  const groups = groupMentions(sentence, endingMentions(sentence));
  const problems: string[] = [];
  let following: {endings: string; claims: Claims} | undefined;
  for (let index = groups.length - 1; index >= 0; index -= 1) {
    const group = groups[index];
    const last = group?.[group.length - 1];
    if (!group || !last) continue;
    const next = groups[index + 1]?.[0];
    let claims = claimsIn(sentence.slice(last.end, next?.start ?? sentence.length), knownCodes);
    const endings = group.map((mention) => mention.ending).join(', ');
    // "An amount ending in 51, such as 42.51 USD, is declined": the first mention shares the second's words.
    if (isEmpty(claims) && following?.endings === endings) claims = following.claims;
    following = {endings, claims};
    if (isEmpty(claims)) continue;
    const domain = domainOf(sentence, group[0]?.start ?? 0);
    const facts = group.map((mention) => factsFor(data, domain, mention.ending));
    const wrong = mismatch(claims, facts.length === 1 && facts[0] ? facts[0] : unionFacts(facts), domain);
    if (wrong)
      problems.push(
        `ending ${endings} (${domain}) is said to give ${wrong}; api/sandbox.yaml: ${facts.map((fact) => fact.summary).join(' / ')}`,
      );
  }
  return problems.reverse();
}

/**
 * The facts of a list of endings: a code, event or status named must belong to one of them, and a
 * phrase ("declined") must fit every one of them (mismatch checks kinds against `kinds`).
 */
function unionFacts(facts: readonly RuleFacts[]): RuleFacts {
  const kinds = new Set(facts.map((fact) => fact.kind));
  return {
    summary: facts.map((fact) => fact.summary).join(' / '),
    kind: kinds.size === 1 ? (facts[0]?.kind ?? '') : 'MIXED',
    codes: new Set(facts.flatMap((fact) => [...fact.codes])),
    events: new Set(facts.flatMap((fact) => [...fact.events])),
    statuses: new Set(facts.flatMap((fact) => [...fact.statuses])),
    heldResponse: facts.every((fact) => fact.heldResponse),
  };
}

/** The sandbox statements of a page (Markdown or MDX) that the data does not hold. */
export function pageFindings(file: string, text: string, data: SandboxData, knownCodes: ReadonlySet<string>): Finding[] {
  const sets = fixtureSets(data);
  const findings: Finding[] = [];
  let fence: string | undefined;
  let frontMatter = text.startsWith('---\n');
  text.split('\n').forEach((line, index) => {
    const where = `${file}:${index + 1}`;
    if (frontMatter) {
      if (index > 0 && line === '---') frontMatter = false;
      return;
    }
    const fenceMatch = /^\s*(`{3,}|~{3,})/.exec(line);
    if (fenceMatch?.[1]) {
      if (fence === undefined) fence = fenceMatch[1];
      else if (line.trim().startsWith(fence)) fence = undefined;
    }
    for (const message of unknownFixturesIn(line, sets)) findings.push({where, message});
    const inCode = fence !== undefined || fenceMatch !== null;
    if (inCode || /^(import|export)\s/.test(line)) return;
    for (const sentence of sentencesOf(line)) {
      for (const message of endingProblemsIn(sentence, data, knownCodes))
        findings.push({where, message: `${message} ("${sentence.trim().slice(0, 120)}")`});
    }
  });
  return findings;
}

// ---- Contract examples ---------------------------------------------------------------------------

type Json = string | number | boolean | null | Json[] | {[key: string]: Json};
type JsonObject = {[key: string]: Json};

const isObject = (value: unknown): value is JsonObject => typeof value === 'object' && value !== null && !Array.isArray(value);
const text = (value: Json | undefined): string | undefined => (typeof value === 'string' ? value : undefined);
const money = (value: Json | undefined): {value: number; currency: string} | undefined =>
  isObject(value) && typeof value.value === 'number' && typeof value.currency === 'string'
    ? {value: value.value, currency: value.currency}
    : undefined;

const fixtureFields = new Set([
  'walletId',
  'phoneNumber',
  'payerPaymentCode',
  'payerAgreementToken',
  'iban',
  'cardNumber',
  'maskedCardNumber',
  'maskedAccount',
  'accountNumber',
  'virtualAccountNumber',
]);

/** Fixture fields with a value (or schema-level examples) that the sandbox does not know. */
function fieldFindings(
  node: unknown,
  where: string,
  sets: FixtureSets,
  data: SandboxData,
  findings: Finding[],
  checkedExamples = false,
): void {
  if (Array.isArray(node)) {
    node.forEach((item, index) => fieldFindings(item, `${where}[${index}]`, sets, data, findings));
    return;
  }
  if (!isObject(node)) {
    if (typeof node === 'string') for (const message of unknownFixturesIn(node, sets)) findings.push({where, message});
    return;
  }
  for (const [key, value] of Object.entries(node)) {
    const at = `${where}.${key}`;
    if (fixtureFields.has(key) && typeof value === 'string') {
      const problem = maskedFieldProblem(key, value, data) ?? fieldProblem(key, value, sets);
      if (problem) findings.push({where: at, message: problem});
      continue;
    }
    // A schema's own examples: properties.walletId.examples[0].
    if (key === 'properties' && isObject(value)) {
      for (const [property, schema] of Object.entries(value)) {
        if (!fixtureFields.has(property) || !isObject(schema)) continue;
        const samples = [
          ...(Array.isArray(schema.examples) ? schema.examples : []),
          ...(schema.example !== undefined ? [schema.example] : []),
        ];
        for (const sample of samples) {
          const problem =
            typeof sample === 'string' ? (maskedFieldProblem(property, sample, data) ?? fieldProblem(property, sample, sets)) : undefined;
          if (problem) findings.push({where: `${at}.${property}.examples`, message: problem});
        }
      }
    }
    // The examples of a fixture field's schema were checked as that field just above.
    if (checkedExamples && (key === 'examples' || key === 'example')) continue;
    if (key === 'properties' && isObject(value)) {
      for (const [property, schema] of Object.entries(value))
        fieldFindings(schema, `${at}.${property}`, sets, data, findings, fixtureFields.has(property));
      continue;
    }
    fieldFindings(value, at, sets, data, findings);
  }
}

function maskedFieldProblem(field: string, value: string, data: SandboxData): string | undefined {
  if (!value.includes('*')) {
    if (field === 'virtualAccountNumber')
      return data.virtualAccounts.accounts.some((account) => account.iban === value)
        ? undefined
        : `virtualAccountNumber ${value} is not a sandbox virtual account`;
    return undefined;
  }
  const cards = [...knownCardNumbers(data)];
  const accounts = data.bankAccounts.accounts.flatMap((account) => [
    account.iban,
    ...(account.accountNumber ? [account.accountNumber] : []),
  ]);
  const candidates =
    field === 'maskedCardNumber' ? cards : field === 'maskedAccount' ? [...accounts, ...cards] : field === 'iban' ? accounts : [];
  if (candidates.length === 0) return undefined;
  return candidates.some((full) => maskMatches(value, full))
    ? undefined
    : `${field} ${value} masks no sandbox ${field === 'maskedCardNumber' ? 'card' : 'account'}`;
}

interface ExampleRef {
  readonly label: string;
  readonly value: Json;
}

function mediaExamples(
  media: {examples?: Record<string, {value?: unknown}>} | undefined,
  label: string,
): Array<ExampleRef & {name: string}> {
  return Object.entries(media?.examples ?? {}).map(([name, example]) => ({
    name,
    label: `${label} example "${name}"`,
    value: example.value as Json,
  }));
}

/** Request, response and webhook examples of every operation, with a label naming the place. */
function examplesOf(contract: Pick<LoadedContract, 'document' | 'operations'>): {
  requests: Map<string, Array<ExampleRef & {name: string}>>;
  responses: Map<string, Array<ExampleRef & {name: string}>>;
} {
  const requests = new Map<string, Array<ExampleRef & {name: string}>>();
  const responses = new Map<string, Array<ExampleRef & {name: string}>>();
  for (const location of contract.operations.values()) {
    const {operation, operationId} = location;
    const kind = location.kind === 'webhook' ? 'notification' : 'request';
    requests.set(operationId, mediaExamples(operation.requestBody?.content?.['application/json'], `${operationId} ${kind}`));
    const list: Array<ExampleRef & {name: string}> = [];
    for (const [status, response] of Object.entries(operation.responses ?? {})) {
      const resolved = (response.$ref ? resolvePointer(contract.document, response.$ref) : response) as ResponseObject;
      list.push(...mediaExamples(resolved.content?.['application/json'], `${operationId} response ${status}`));
    }
    responses.set(operationId, list);
  }
  return {requests, responses};
}

function describeRejection(outcome: {resultCode: string; because: string}): string {
  return `the sandbox rejects it with ${outcome.resultCode} (${outcome.because})`;
}

/** Could the sandbox have produced this order? */
function orderFindings(order: JsonObject, where: string, data: SandboxData): string[] {
  const amount = money(order.amount);
  if (!amount) return [];
  const rule = paymentRuleFor(data, amount.value);
  if (rule.kind === 'REJECTED')
    return [`an order of ${amount.value} cannot exist: ending ${rule.ending} is rejected by Create order with ${rule.resultCode ?? ''}`];
  const effective =
    rule.then !== undefined ? (data.payments.endings.rules.find((candidate) => candidate.ending === rule.then) ?? rule) : rule;
  const attempt = isObject(order.lastAttempt) ? order.lastAttempt : undefined;
  const method = text(attempt?.paymentMethod) ?? text(order.paymentMethod);
  const methodRule = data.payments.methods.find((candidate) => candidate.method === method);
  const status = text(order.status);
  const problems: string[] = [];
  const wasPaid = status === 'PAID' || status === 'PARTIALLY_REFUNDED' || status === 'REFUNDED' || text(attempt?.status) === 'SUCCEEDED';
  if (wasPaid) {
    const declineIgnored = effective.kind === 'DECLINED' && methodRule?.declines === false;
    if (!(effective.kind === 'SUCCEEDED' || effective.kind === 'DELAYED' || declineIgnored)) {
      problems.push(
        `a paid order of ${amount.value}${method ? ` by ${method}` : ''}: api/sandbox.yaml says ending ${rule.ending}: ${rule.summary}`,
      );
    }
  }
  if (text(attempt?.status) === 'FAILED') {
    const code = text(attempt?.failureCode);
    const fromFixtures = new Set<string>([
      ...data.cards.cards.flatMap((card) => (card.behavior !== 'ENDINGS' && card.behavior.failureCode ? [card.behavior.failureCode] : [])),
      ...Object.values(data.walletRules.payments).flatMap((outcome) => (outcome.failureCode ? [outcome.failureCode] : [])),
      ...(text(order.scene) === 'QR_PAY' && data.paymentCodes.unknown.failureCode ? [data.paymentCodes.unknown.failureCode] : []),
    ]);
    const fromEnding = new Set(
      [effective.failureCode, effective.payer?.failureCode, effective.createOrder?.failureCode].filter((value) => value !== undefined),
    );
    if (code !== undefined && !fromFixtures.has(code) && !fromEnding.has(code)) {
      problems.push(
        `lastAttempt.failureCode ${code} cannot come from an amount ending ${rule.ending} (api/sandbox.yaml: ${rule.summary}) or from any test wallet, card or payment code`,
      );
    }
  }
  if (status === 'PROCESSING' || text(attempt?.status) === 'PROCESSING') {
    const slowMethod = methodRule?.processingSeconds !== undefined;
    const slowRule =
      (effective.processingSeconds ?? 0) > 0 ||
      (effective.kind === 'UNANSWERED' && (text(order.scene) === 'QR_PAY' || text(order.scene) === 'DIRECT_PAY'));
    if (!slowMethod && !slowRule)
      problems.push(
        `a PROCESSING order of ${amount.value}${method ? ` by ${method}` : ''}: api/sandbox.yaml says ending ${rule.ending}: ${rule.summary}`,
      );
  }
  return problems.map((problem) => `${where}: ${problem}`);
}

function refundFindings(refund: JsonObject, where: string, data: SandboxData): string[] {
  const amount = money(refund.amount);
  if (!amount) return [];
  const origin = text(refund.origin) === 'REVOKE' ? 'REVOKE' : 'MERCHANT';
  const rule = refundRuleFor(data, amount.value, origin);
  const status = text(refund.status);
  const problem = (message: string) => [
    `${where}: a refund of ${amount.value} ${message}; api/sandbox.yaml says ending ${rule.ending}: ${rule.summary}`,
  ];
  if (rule.kind === 'REJECTED') return problem('cannot exist');
  if (status === 'FAILED' && (rule.kind !== 'FAILED' || rule.failureCode !== text(refund.failureCode)))
    return problem(`cannot end FAILED with ${text(refund.failureCode) ?? 'no failureCode'}`);
  if (status === 'SUCCEEDED' && rule.kind === 'FAILED') return problem('cannot succeed');
  return [];
}

/** The payout request an example object implies, from its payee, beneficiary or masked card. */
function payoutRequestOf(payout: JsonObject, data: SandboxData): PayoutRequest | string | undefined {
  const id = text(payout.transferId) ?? '';
  const amount = money(payout.amount);
  if (!amount) return undefined;
  if (id.startsWith('trf_')) {
    const payee = isObject(payout.payee) ? payout.payee : {};
    return {
      product: 'WALLET',
      amount,
      payee: {
        ...(text(payee.walletId) ? {walletId: text(payee.walletId)} : {}),
        ...(text(payee.phoneNumber) ? {phoneNumber: text(payee.phoneNumber)} : {}),
      },
    };
  }
  if (id.startsWith('btr_')) {
    const beneficiary = isObject(payout.beneficiary) ? payout.beneficiary : {};
    const masked = text(beneficiary.maskedAccount) ?? '';
    const matches = data.bankAccounts.accounts.filter(
      (account) => maskMatches(masked, account.iban) || (account.accountNumber !== undefined && maskMatches(masked, account.accountNumber)),
    );
    const account = matches[0];
    if (!account || matches.length > 1)
      return `maskedAccount ${masked} ${account ? 'matches more than one' : 'matches no'} sandbox account`;
    const byIban = maskMatches(masked, account.iban);
    const destination = money(payout.destinationAmount);
    return {
      product: 'BANK',
      amount,
      ...(destination ? {destinationCurrency: destination.currency} : {}),
      beneficiary: {
        ...(text(beneficiary.name) ? {name: text(beneficiary.name)} : {}),
        account: byIban
          ? {iban: account.iban}
          : {
              ...(account.accountNumber ? {accountNumber: account.accountNumber} : {}),
              ...(account.routingCode ? {routingCode: account.routingCode} : {}),
            },
      },
    };
  }
  if (id.startsWith('cpo_')) {
    const masked = text(payout.maskedCardNumber) ?? '';
    const card = data.payoutCards.cards.find((candidate) => maskMatches(masked, candidate.number));
    return card ? {product: 'CARD', amount, cardNumber: card.number} : `maskedCardNumber ${masked} masks no payout card`;
  }
  return undefined;
}

function payoutFindings(payout: JsonObject, where: string, data: SandboxData): string[] {
  const request = payoutRequestOf(payout, data);
  if (request === undefined) return [];
  if (typeof request === 'string') return [`${where}: ${request}`];
  const outcome = payoutOutcome(data, request);
  const status = text(payout.status);
  if (!outcome.accepted) return [`${where}: this payout cannot exist: ${describeRejection(outcome)}`];
  const failureCode = text(payout.failureCode);
  if (status === 'FAILED' && (outcome.status !== 'FAILED' || outcome.failureCode !== failureCode)) {
    return [
      `${where}: the sandbox ends this payout ${outcome.status}${outcome.failureCode ? ` with ${outcome.failureCode}` : ''} (${outcome.because}), not FAILED with ${failureCode ?? 'no failureCode'}`,
    ];
  }
  if (status === 'SUCCEEDED' && outcome.status !== 'SUCCEEDED')
    return [`${where}: the sandbox ends this payout FAILED with ${outcome.failureCode ?? ''} (${outcome.because})`];
  if (status === 'RETURNED' && (outcome.returnedAfterSeconds === undefined || outcome.returnFailureCode !== failureCode)) {
    return [
      `${where}: the sandbox returns no bank transfer to this account${outcome.returnedAfterSeconds !== undefined ? ` with ${failureCode ?? 'no failureCode'}` : ''} (${outcome.because}); only the returning account in bankAccounts is returned`,
    ];
  }
  return [];
}

function eligibilityFindings(result: JsonObject, where: string, data: SandboxData): string[] {
  const candidates = [
    ...data.payoutCards.cards.map((card) => ({brand: card.brand, issuerCountry: card.issuerCountry, ...card.eligibility})),
    data.payoutCards.unknownCard.eligibility,
  ];
  const fits = candidates.some(
    (candidate) =>
      candidate.eligible === result.eligible &&
      (result.reason === undefined || candidate.reason === result.reason) &&
      (result.fundsAvailability === undefined || candidate.fundsAvailability === result.fundsAvailability) &&
      (result.cardBrand === undefined || !('brand' in candidate) || candidate.brand === result.cardBrand) &&
      (result.issuerCountry === undefined || !('issuerCountry' in candidate) || candidate.issuerCountry === result.issuerCountry),
  );
  return fits ? [] : [`${where}: no payout card in api/sandbox.yaml gives this eligibility (${JSON.stringify(result)})`];
}

/** Orders, refunds, payouts and eligibility results anywhere in an example value. */
function objectFindings(node: Json, where: string, data: SandboxData): string[] {
  if (Array.isArray(node)) return node.flatMap((item, index) => objectFindings(item, `${where}[${index}]`, data));
  if (!isObject(node)) return [];
  const own: string[] = [];
  const id = (key: string, prefix: string) => text(node[key])?.startsWith(prefix) === true;
  if (id('orderId', 'ord_') && node.scene !== undefined) own.push(...orderFindings(node, where, data));
  if (id('refundId', 'rfd_')) own.push(...refundFindings(node, where, data));
  if (id('transferId', 'trf_') || id('transferId', 'btr_') || id('transferId', 'cpo_')) own.push(...payoutFindings(node, where, data));
  if (typeof node.eligible === 'boolean') own.push(...eligibilityFindings(node, where, data));
  return [...own, ...Object.entries(node).flatMap(([key, value]) => objectFindings(value, `${where}.${key}`, data))];
}

/** What the sandbox does with each request example, against the response example of the same name. */
function requestFindings(
  operationId: string,
  example: ExampleRef & {name: string},
  responses: ReadonlyArray<ExampleRef & {name: string}>,
  data: SandboxData,
): string[] {
  const body = example.value;
  if (!isObject(body)) return [];
  const amount = money(body.amount);
  const where = example.label;
  switch (operationId) {
    case 'createOrder': {
      if (!amount || typeof body.scene !== 'string') return [];
      const outcome = createOrderOutcome(data, {
        scene: body.scene,
        amount,
        ...(text(body.payerPaymentCode) ? {payerPaymentCode: text(body.payerPaymentCode)} : {}),
        ...(text(body.payerAgreementToken) ? {payerAgreementToken: text(body.payerAgreementToken)} : {}),
      });
      if (!outcome.accepted) return [`${where}: ${describeRejection(outcome)}`];
      const paired = responses.find((response) => response.name === example.name && response.label.includes('response 200'));
      const data_ = isObject(paired?.value) && isObject(paired.value.data) ? paired.value.data : undefined;
      const order = isObject(data_?.order) ? data_.order : undefined;
      if (!order || !paired) return [];
      const problems: string[] = [];
      if (order.status !== outcome.orderStatus)
        problems.push(
          `${paired.label}: order.status is ${String(order.status)}, but the sandbox answers ${outcome.orderStatus} for the request example (${outcome.because})`,
        );
      const attempt = isObject(order.lastAttempt) ? order.lastAttempt : undefined;
      if (
        attempt &&
        outcome.attempt?.attemptStatus === 'FAILED' &&
        outcome.attempt.kind === 'DECLINED' &&
        attempt.failureCode !== outcome.attempt.failureCode
      ) {
        problems.push(
          `${paired.label}: lastAttempt.failureCode is ${String(attempt.failureCode)}, but the sandbox declines the request example with ${outcome.attempt.failureCode ?? ''} (${outcome.because})`,
        );
      }
      return problems;
    }
    case 'refundOrder': {
      if (!amount) return [];
      const rule = refundRuleFor(data, amount.value);
      return rule.kind === 'REJECTED'
        ? [`${where}: ${describeRejection({resultCode: rule.resultCode ?? '', because: `ending ${rule.ending}`})}`]
        : [];
    }
    case 'transfer':
    case 'transferToBank':
    case 'transferToBankCard': {
      if (!amount) return [];
      let request: PayoutRequest;
      if (operationId === 'transfer') {
        const payee = isObject(body.payee) ? body.payee : {};
        request = {
          product: 'WALLET',
          amount,
          payee: {
            ...(text(payee.walletId) ? {walletId: text(payee.walletId)} : {}),
            ...(text(payee.phoneNumber) ? {phoneNumber: text(payee.phoneNumber)} : {}),
          },
        };
      } else if (operationId === 'transferToBank') {
        const beneficiary = isObject(body.beneficiary) ? body.beneficiary : {};
        const account = isObject(beneficiary.account) ? beneficiary.account : {};
        request = {
          product: 'BANK',
          amount,
          ...(text(body.destinationCurrency) ? {destinationCurrency: text(body.destinationCurrency)} : {}),
          beneficiary: {
            ...(text(beneficiary.name) ? {name: text(beneficiary.name)} : {}),
            account: {
              ...(text(account.iban) ? {iban: text(account.iban)} : {}),
              ...(text(account.accountNumber) ? {accountNumber: text(account.accountNumber)} : {}),
              ...(text(account.routingCode) ? {routingCode: text(account.routingCode)} : {}),
            },
          },
        };
      } else {
        const card = isObject(body.card) ? body.card : {};
        request = {product: 'CARD', amount, cardNumber: text(card.cardNumber) ?? ''};
      }
      const outcome = payoutOutcome(data, request);
      return outcome.accepted ? [] : [`${where}: ${describeRejection(outcome)}`];
    }
    case 'getIbanHolderName': {
      const iban = text(body.iban);
      if (iban === undefined) return [];
      const account = data.bankAccounts.accounts.find((candidate) => candidate.iban === iban);
      if (!account || !ibanCheckDigitsValid(iban) || account.behavior.kind === 'REJECTED') {
        return [
          `${where}: the sandbox rejects the lookup of ${iban} with ${(!ibanCheckDigitsValid(iban) ? data.bankAccounts.invalidIban : data.bankAccounts.unknownAccount).resultCode ?? ''}`,
        ];
      }
      return responses.flatMap((response) => {
        const found = isObject(response.value) && isObject(response.value.data) ? response.value.data : undefined;
        if (!found || !response.label.includes('response 200')) return [];
        const expected = {holderName: account.holderName, bankName: account.bankName, bic: account.bic, country: account.country};
        const wrong = Object.entries(expected).filter(([key, value]) => found[key] !== undefined && found[key] !== value);
        return wrong.length > 0
          ? [`${response.label}: ${wrong.map(([key, value]) => `${key} should be ${String(value)}`).join(', ')} for ${iban}`]
          : [];
      });
    }
    default:
      return [];
  }
}

/** Every place in the contract's examples where the sandbox would disagree. */
export function contractExampleFindings(contract: Pick<LoadedContract, 'document' | 'operations'>, data: SandboxData): string[] {
  const sets = fixtureSets(data);
  const fieldProblems: Finding[] = [];
  fieldFindings(contract.document as unknown, 'api/openapi.yaml', sets, data, fieldProblems);
  const {requests, responses} = examplesOf(contract);
  const problems = fieldProblems.map(formatFinding);
  for (const [operationId, examples] of requests) {
    const answers = responses.get(operationId) ?? [];
    for (const example of examples) {
      problems.push(...requestFindings(operationId, example, answers, data));
      problems.push(...objectFindings(example.value, example.label, data));
    }
    for (const answer of answers) problems.push(...objectFindings(answer.value, answer.label, data));
  }
  return [...new Set(problems)];
}
