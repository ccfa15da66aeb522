/**
 * Loads api/sandbox.yaml, the sandbox's behaviour as data, and checks it three ways:
 *
 * 1. against its JSON Schema (api/sandbox.schema.json);
 * 2. for what a schema cannot say: unique fixtures, references between entries (a payment code names
 *    a wallet that exists), card numbers that pass the Luhn check, IBAN check digits (wrong only where
 *    the entry is there to be rejected with IBAN_INVALID), the client ID of src/brand.ts, the key files;
 * 3. against the contract (checkSandboxAgainstContract): every result code, failure code, event type,
 *    status, scene, method, reason and operation it names exists in api/openapi.yaml, in the place
 *    that object's API uses.
 *
 * Every problem names the file, the line and the entry (`api/sandbox.yaml:52:7: wallets[1]
 * (+10000000002).walletId: ...`); all problems are reported at once. Synchronous and cached per
 * modification time, like loadContract, so the remark plugin can call it for every page.
 */
import {existsSync, readFileSync, statSync} from 'node:fs';
import path from 'node:path';
import Ajv2020, {type ErrorObject} from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import {LineCounter, parseDocument, type Document} from 'yaml';
import {brand} from '../../brand';
import {resolvePointer, type JsonValue, type OpenApiDocument, type SchemaObject} from '../openapiTypes';
import {ibanCheckDigitsValid, luhnValid} from '../../sandbox/engine/rules/rules';
import {isCurrencyCode} from '../../lib/money';
import type {Outcome, SandboxData} from '../../sandbox/engine/rules/types';
import type {LoadedContract} from './loadContract';

export class SandboxDataError extends Error {
  constructor(
    message: string,
    readonly problems: readonly string[] = [message],
  ) {
    super(message);
    this.name = 'SandboxDataError';
  }
}

/** Where the data and its schema live, relative to the site directory. */
export const sandboxRelativePath = path.join('api', 'sandbox.yaml');
export const sandboxSchemaRelativePath = path.join('api', 'sandbox.schema.json');

type Segment = string | number;

/** Fields that name an entry of a list, shown beside its index so a message points at the entry a person sees. */
const identifyingFields = [
  'ending',
  'phone',
  'code',
  'token',
  'number',
  'iban',
  'scene',
  'method',
  'product',
  'step',
  'resolution',
  'currency',
] as const;

/** `wallets[1] (+10000000002).walletId` for the segments ['wallets', 1, 'walletId']. */
export function describePath(data: unknown, segments: readonly Segment[]): string {
  let text = '';
  let node: unknown = data;
  for (const segment of segments) {
    node = typeof node === 'object' && node !== null ? (node as Record<Segment, unknown>)[segment] : undefined;
    if (typeof segment === 'number') {
      const entry = node as Record<string, unknown> | undefined;
      const name = identifyingFields.map((field) => entry?.[field]).find((value) => typeof value === 'string');
      text += `[${segment}]${name === undefined ? '' : ` (${String(name)})`}`;
    } else {
      text += text === '' ? segment : `.${segment}`;
    }
  }
  return text === '' ? '(top level)' : text;
}

interface Located {
  readonly file: string;
  readonly doc: Document;
  readonly lineCounter: LineCounter;
  readonly data: unknown;
}

/** `file:line:column: path: message`, with the line of the YAML node (or of its nearest existing parent). */
function problemAt(source: Located, segments: readonly Segment[], message: string): string {
  let position = '';
  for (let length = segments.length; length >= 0; length -= 1) {
    const node = source.doc.getIn(segments.slice(0, length), true) as {range?: [number, number, number]} | undefined;
    if (node?.range) {
      const at = source.lineCounter.linePos(node.range[0]);
      position = `:${at.line}:${at.col}`;
      break;
    }
  }
  return `${source.file}${position}: ${describePath(source.data, segments)}: ${message}`;
}

function pointerSegments(instancePath: string): Segment[] {
  return instancePath
    .split('/')
    .slice(1)
    .map((raw) => raw.replace(/~1/g, '/').replace(/~0/g, '~'))
    .map((token) => (/^\d+$/.test(token) ? Number(token) : token));
}

function schemaMessage(error: ErrorObject): string {
  const params = error.params as {
    additionalProperty?: string;
    unevaluatedProperty?: string;
    allowedValues?: unknown[];
    allowedValue?: unknown;
  };
  if (error.keyword === 'additionalProperties' || error.keyword === 'unevaluatedProperties') {
    return `unexpected key "${String(params.additionalProperty ?? params.unevaluatedProperty)}" (check the spelling, or quote text that contains a comma or a colon)`;
  }
  if (error.keyword === 'enum') return `${error.message ?? 'is invalid'}: ${JSON.stringify(params.allowedValues)}`;
  if (error.keyword === 'const') return `must be ${JSON.stringify(params.allowedValue)}`;
  return error.message ?? 'is invalid';
}

function readSource(file: string, displayName: string): Located {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch {
    throw new SandboxDataError(`${displayName}: cannot read the file.`);
  }
  const lineCounter = new LineCounter();
  const doc = parseDocument(text, {lineCounter, prettyErrors: false});
  const first = doc.errors[0];
  if (first) {
    const at = lineCounter.linePos(first.pos[0]);
    throw new SandboxDataError(`${displayName}:${at.line}:${at.col}: invalid YAML: ${first.message.split('\n')[0]}`);
  }
  return {file: displayName, doc, lineCounter, data: doc.toJS()};
}

/** Schema problems, one per place (Ajv reports a failed `if`/`oneOf` branch several times). */
function schemaProblems(source: Located, schema: object): string[] {
  const ajv = new Ajv2020({strict: false, allErrors: true});
  addFormats(ajv);
  const validate = ajv.compile(schema);
  if (validate(source.data)) return [];
  const seen = new Set<string>();
  return (validate.errors ?? [])
    .filter((error) => error.keyword !== 'if' && error.keyword !== 'allOf')
    .map((error) => problemAt(source, pointerSegments(error.instancePath), schemaMessage(error)))
    .filter((problem) => !seen.has(problem) && Boolean(seen.add(problem)));
}

/** Checks a schema cannot make. `apiDir` is where the key files are looked up. */
function consistencyProblems(source: Located, data: SandboxData, apiDir: string): string[] {
  const problems: string[] = [];
  const at = (segments: readonly Segment[], message: string) => problems.push(problemAt(source, segments, message));

  if (data.merchant.clientId !== brand.sandboxClientId) {
    at(['merchant', 'clientId'], `"${data.merchant.clientId}" is not the sandbox client ID of src/brand.ts ("${brand.sandboxClientId}").`);
  }
  for (const key of ['merchantKey', 'providerKey'] as const) {
    const files = key === 'merchantKey' ? (['publicKey', 'privateKey'] as const) : (['publicKey'] as const);
    for (const field of files) {
      const file = key === 'merchantKey' ? data.merchant.merchantKey[field] : data.merchant.providerKey.publicKey;
      if (!existsSync(path.join(apiDir, file)))
        at(['merchant', key, field], `${file} does not exist under api/ (the build publishes api/test-vectors/ as /test-vectors/).`);
    }
  }

  const unique = <T>(list: readonly T[], value: (item: T) => string | undefined, segments: (index: number) => Segment[], what: string) => {
    const first = new Map<string, number>();
    list.forEach((item, index) => {
      const key = value(item);
      if (key === undefined) return;
      const earlier = first.get(key);
      if (earlier === undefined) first.set(key, index);
      else at(segments(index), `${what} "${key}" is listed twice (also at index ${earlier}).`);
    });
  };
  unique(
    data.wallets,
    (wallet) => wallet.phone,
    (index) => ['wallets', index, 'phone'],
    'phone number',
  );
  unique(
    data.wallets,
    (wallet) => wallet.walletId,
    (index) => ['wallets', index, 'walletId'],
    'wallet ID',
  );
  unique(
    data.paymentCodes.codes,
    (entry) => entry.code,
    (index) => ['paymentCodes', 'codes', index, 'code'],
    'payment code',
  );
  unique(
    data.agreementTokens.tokens,
    (entry) => entry.token,
    (index) => ['agreementTokens', 'tokens', index, 'token'],
    'agreement token',
  );
  unique(
    data.walletAuthCodes.codes,
    (entry) => entry.code,
    (index) => ['walletAuthCodes', 'codes', index, 'code'],
    'auth code',
  );
  unique(
    data.walletAuthCodes.codes,
    (entry) => entry.userId,
    (index) => ['walletAuthCodes', 'codes', index, 'userId'],
    'wallet user ID',
  );
  unique(
    data.cards.cards,
    (card) => card.number,
    (index) => ['cards', 'cards', index, 'number'],
    'card number',
  );
  unique(
    data.payoutCards.cards,
    (card) => card.number,
    (index) => ['payoutCards', 'cards', index, 'number'],
    'card number',
  );
  unique(
    data.bankAccounts.accounts,
    (account) => account.iban,
    (index) => ['bankAccounts', 'accounts', index, 'iban'],
    'IBAN',
  );
  unique(
    data.virtualAccounts.accounts,
    (account) => account.iban,
    (index) => ['virtualAccounts', 'accounts', index, 'iban'],
    'IBAN',
  );
  unique(
    data.payments.scenes,
    (scene) => scene.scene,
    (index) => ['payments', 'scenes', index, 'scene'],
    'scene',
  );
  unique(
    data.payments.methods,
    (method) => method.method,
    (index) => ['payments', 'methods', index, 'method'],
    'payment method',
  );
  unique(
    data.payouts.products,
    (product) => product.product,
    (index) => ['payouts', 'products', index, 'product'],
    'payout product',
  );

  const phones = new Set(data.wallets.map((wallet) => wallet.phone));
  data.paymentCodes.codes.forEach((entry, index) => {
    if (!phones.has(entry.wallet))
      at(['paymentCodes', 'codes', index, 'wallet'], `"${entry.wallet}" is not the phone number of a wallet in wallets.`);
  });
  data.agreementTokens.tokens.forEach((entry, index) => {
    if (!phones.has(entry.wallet))
      at(['agreementTokens', 'tokens', index, 'wallet'], `"${entry.wallet}" is not the phone number of a wallet in wallets.`);
  });
  data.walletAuthCodes.codes.forEach((entry, index) => {
    if (!phones.has(entry.wallet))
      at(['walletAuthCodes', 'codes', index, 'wallet'], `"${entry.wallet}" is not the phone number of a wallet in wallets.`);
  });

  data.cards.cards.forEach((card, index) => {
    if (!luhnValid(card.number))
      at(['cards', 'cards', index, 'number'], `${card.number} fails the Luhn check; the page promises that every test card passes it.`);
  });
  data.payoutCards.cards.forEach((card, index) => {
    if (!luhnValid(card.number)) at(['payoutCards', 'cards', index, 'number'], `${card.number} fails the Luhn check.`);
  });
  data.bankAccounts.accounts.forEach((account, index) => {
    const meantInvalid = account.behavior.kind === 'REJECTED' && account.behavior.resultCode === data.bankAccounts.invalidIban.resultCode;
    const valid = ibanCheckDigitsValid(account.iban);
    if (meantInvalid && valid)
      at(
        ['bankAccounts', 'accounts', index, 'iban'],
        `${account.iban} has valid check digits, but the entry says it is rejected with ${data.bankAccounts.invalidIban.resultCode ?? ''}.`,
      );
    if (!meantInvalid && !valid)
      at(
        ['bankAccounts', 'accounts', index, 'iban'],
        `${account.iban} fails the IBAN check digits (mod 97); only an entry rejected with ${data.bankAccounts.invalidIban.resultCode ?? 'IBAN_INVALID'} may.`,
      );
    if (account.iban.slice(0, 2) !== account.country)
      at(['bankAccounts', 'accounts', index, 'country'], `${account.country} is not the country of ${account.iban}.`);
    if (!meantInvalid && account.holderName === undefined)
      at(['bankAccounts', 'accounts', index], 'an account that can receive money needs holderName (Get IBAN holder name returns it).');
  });
  data.virtualAccounts.accounts.forEach((account, index) => {
    if (!ibanCheckDigitsValid(account.iban))
      at(['virtualAccounts', 'accounts', index, 'iban'], `${account.iban} fails the IBAN check digits (mod 97).`);
  });

  // Currencies: a payment currency needs a balance (refunds and statements use it), a payout currency a fee in
  // every product and a place among the payment currencies, and each its minor-unit exponent (the pages show it).
  const payments = new Set(data.currencies.payments);
  const balances = new Set(data.merchant.balances.map((balance) => balance.currency));
  data.currencies.payments.forEach((currency, index) => {
    if (!balances.has(currency)) at(['currencies', 'payments', index], `${currency} has no entry in merchant.balances.`);
    if (!isCurrencyCode(currency))
      at(['currencies', 'payments', index], `${currency} has no minor-unit exponent in src/lib/money.ts (currencyExponents).`);
  });
  data.merchant.balances.forEach((balance, index) => {
    if (!payments.has(balance.currency))
      at(['merchant', 'balances', index, 'currency'], `${balance.currency} is not in currencies.payments.`);
  });
  data.currencies.payouts.forEach((currency, index) => {
    if (!payments.has(currency))
      at(['currencies', 'payouts', index], `${currency} is not in currencies.payments: a payout needs a balance in its currency.`);
    for (const [product, fees] of Object.entries(data.pricing.payoutFees)) {
      if (fees[currency] === undefined) at(['pricing', 'payoutFees', product], `has no fee for ${currency}, a payout currency.`);
    }
  });
  data.payoutCards.currencies.forEach((currency, index) => {
    if (!data.currencies.payouts.includes(currency)) at(['payoutCards', 'currencies', index], `${currency} is not in currencies.payouts.`);
  });

  const tables: ReadonlyArray<readonly [string, {readonly default: string; readonly rules: readonly {readonly ending: string}[]}]> = [
    ['payments', data.payments.endings],
    ['refunds', data.refunds.endings],
    ['payouts', data.payouts.endings],
  ];
  for (const [name, table] of tables) {
    unique(
      table.rules,
      (rule) => rule.ending,
      (index) => [name, 'endings', 'rules', index, 'ending'],
      'ending',
    );
    if (!table.rules.some((rule) => rule.ending === table.default))
      at([name, 'endings', 'default'], `the default ending "${table.default}" has no rule in ${name}.endings.rules.`);
  }
  data.payments.endings.rules.forEach((rule, index) => {
    if (rule.then === undefined) return;
    const target = data.payments.endings.rules.find((candidate) => candidate.ending === rule.then);
    if (!target || target.at !== 'ATTEMPT')
      at(['payments', 'endings', 'rules', index, 'then'], `"${rule.then}" must be an ending with a rule at ATTEMPT.`);
  });
  // A summary that names a duration names one of the rule's own: the words and the numbers cannot drift apart.
  for (const [name, table] of [
    ['payments', data.payments.endings],
    ['refunds', data.refunds.endings],
    ['payouts', data.payouts.endings],
  ] as const) {
    table.rules.forEach((rule, index) => {
      const allowed = new Set([
        rule.processingSeconds,
        'responseDelaySeconds' in rule ? rule.responseDelaySeconds : undefined,
        data.clientReadTimeoutSeconds,
      ]);
      for (const match of rule.summary.matchAll(/(\d+)[ -](second|minute|hour)s?\b/g)) {
        const seconds = Number(match[1]) * {second: 1, minute: 60, hour: 3_600}[match[2] as 'second' | 'minute' | 'hour'];
        if (!allowed.has(seconds))
          at(
            [name, 'endings', 'rules', index, 'summary'],
            `says "${match[0]}", but the rule's seconds are ${[...allowed].filter((value) => value !== undefined).join(', ')}.`,
          );
      }
    });
  }
  const methods = new Set(data.payments.methods.map((method) => method.method));
  data.payments.scenes.forEach((scene, sceneIndex) =>
    scene.methods.forEach((method, index) => {
      if (!methods.has(method)) at(['payments', 'scenes', sceneIndex, 'methods', index], `${method} has no entry in payments.methods.`);
    }),
  );
  const {retryScheduleSeconds, compressedRetryScheduleSeconds} = data.notifications;
  if (retryScheduleSeconds.length !== compressedRetryScheduleSeconds.length) {
    at(
      ['notifications', 'compressedRetryScheduleSeconds'],
      `has ${compressedRetryScheduleSeconds.length} retries; the production schedule has ${retryScheduleSeconds.length}.`,
    );
  }
  const products = new Set(data.payouts.products.map((product) => product.product));
  for (const product of ['WALLET', 'BANK', 'CARD'] as const) {
    if (!products.has(product)) at(['payouts', 'products'], `${product} is missing.`);
  }
  return problems;
}

/** Reads and checks the data (schema and consistency, not the contract); throws SandboxDataError listing every problem. */
export function validateSandboxData(file: string, schemaFile: string, siteDir = path.dirname(path.dirname(file))): SandboxData {
  const display = (target: string) => path.relative(siteDir, target).split(path.sep).join('/') || target;
  const source = readSource(file, display(file));
  let schema: object;
  try {
    schema = JSON.parse(readFileSync(schemaFile, 'utf8')) as object;
  } catch (error) {
    throw new SandboxDataError(`${display(schemaFile)}: cannot read the schema: ${(error as Error).message}`);
  }
  const fromSchema = schemaProblems(source, schema);
  const problems = fromSchema.length > 0 ? fromSchema : consistencyProblems(source, source.data as SandboxData, path.dirname(file));
  if (problems.length > 0) {
    throw new SandboxDataError(
      `${problems.length === 1 ? 'A problem' : `${problems.length} problems`} in the sandbox data:\n${problems.map((problem) => `  ${problem}`).join('\n')}`,
      problems,
    );
  }
  return source.data as SandboxData;
}

// ---- Against the contract ------------------------------------------------------------------------

/**
 * Names the contract 1.1.0 design decisions (issue 19) add. A name on this list that the contract
 * lacks is reported as "announced, not yet in the contract"; any other missing name as unknown.
 */
export const announcedIn110 = new Set([
  'ORDER.PAYMENT_FAILED',
  'AGREEMENT.AUTHORIZED',
  'AGREEMENT.CANCELLED',
  'ORDER_PROCESSING',
  'ORDER_DISPUTED',
  'AGREEMENT_INVALID',
  'AGREEMENT_NOT_FOUND',
  'AUTH_CODE_INVALID',
  'QUOTE_MISMATCH',
  'EVENT_NOT_FOUND',
  'INSUFFICIENT_FUNDS',
  'PAYMENT_METHOD_EXPIRED',
  'RISK_DECLINED',
  'PAYER_DECLINED',
  'PAYMENT_CODE_INVALID',
  'PAYMENT_TIMEOUT',
]);

export interface SandboxContractProblem {
  /** The name the data uses. */
  readonly name: string;
  /** Where in api/sandbox.yaml. */
  readonly where: string;
  /** Where in api/openapi.yaml it must exist. */
  readonly expectedIn: string;
  /** True when the 1.1.0 design decisions announce the name, so the contract is what is behind. */
  readonly announced: boolean;
}

export function formatContractProblem(problem: SandboxContractProblem): string {
  return `${problem.where}: ${problem.name} is not in ${problem.expectedIn}${problem.announced ? ' (announced for contract 1.1.0 in the design decisions: add it to api/openapi.yaml)' : ''}.`;
}

function resolveSchema(doc: OpenApiDocument, schema: SchemaObject | undefined, depth = 0): SchemaObject | undefined {
  if (!schema || depth > 20) return schema;
  if (schema.$ref === undefined) return schema;
  try {
    return resolveSchema(doc, resolvePointer(doc, schema.$ref) as SchemaObject, depth + 1);
  } catch {
    return undefined;
  }
}

/** The values a schema allows (enum and const, through $ref, allOf, oneOf and anyOf); undefined when it allows any string. */
export function allowedValues(doc: OpenApiDocument, schema: SchemaObject | undefined, depth = 0): Set<string> | undefined {
  const resolved = resolveSchema(doc, schema);
  if (!resolved || depth > 20) return undefined;
  const values = new Set<string>();
  let found = false;
  const add = (list: readonly JsonValue[]) => {
    found = true;
    for (const value of list) values.add(String(value));
  };
  if (resolved.enum) add(resolved.enum);
  if (resolved.const !== undefined) add([resolved.const]);
  for (const branch of [...(resolved.allOf ?? []), ...(resolved.oneOf ?? []), ...(resolved.anyOf ?? [])]) {
    const inner = allowedValues(doc, branch, depth + 1);
    if (inner) {
      found = true;
      for (const value of inner) values.add(value);
    }
  }
  return found ? values : undefined;
}

/**
 * The schemas a property can have, looked for in the schema's properties and in its allOf, oneOf and
 * anyOf branches (a notification's `eventType` is a plain string in NotificationBase and an enum in
 * the notification's own branch: both are found).
 */
export function propertySchemas(doc: OpenApiDocument, schema: SchemaObject | undefined, property: string, depth = 0): SchemaObject[] {
  const resolved = resolveSchema(doc, schema);
  if (!resolved || depth > 20) return [];
  const direct = resolved.properties?.[property];
  const branches = [...(resolved.allOf ?? []), ...(resolved.oneOf ?? []), ...(resolved.anyOf ?? [])];
  return [...(direct ? [direct] : []), ...branches.flatMap((branch) => propertySchemas(doc, branch, property, depth + 1))];
}

/** The values allowed at a property path (`Order`, `lastAttempt`, `failureCode`): the union over every schema found there. */
export function valuesAt(doc: OpenApiDocument, schema: SchemaObject | undefined, ...properties: string[]): Set<string> | undefined {
  let schemas: SchemaObject[] = schema ? [schema] : [];
  for (const property of properties) schemas = schemas.flatMap((candidate) => propertySchemas(doc, candidate, property));
  let values: Set<string> | undefined;
  for (const candidate of schemas) {
    const allowed = allowedValues(doc, candidate);
    if (allowed) values = new Set([...(values ?? []), ...allowed]);
  }
  return values;
}

const componentSchema = (doc: OpenApiDocument, name: string): SchemaObject | undefined => doc.components?.schemas?.[name];

/** Every result code, failure code, event type, status and operation the data names, checked against the contract. */
export function checkSandboxAgainstContract(data: SandboxData, contract: LoadedContract): SandboxContractProblem[] {
  const doc = contract.document;
  const problems: SandboxContractProblem[] = [];
  const missing = (name: string, where: string, expectedIn: string) =>
    problems.push({name, where, expectedIn, announced: announcedIn110.has(name)});
  const label = (segments: readonly Segment[]) => `api/sandbox.yaml ${describePath(data, segments)}`;

  const inValues = (values: Set<string> | undefined, name: string, segments: readonly Segment[], expectedIn: string) => {
    if (!values?.has(name)) missing(name, label(segments), expectedIn);
  };

  // Operations and result codes.
  const operation = (operationId: string, segments: readonly Segment[]) => {
    if (!contract.operations.has(operationId)) missing(operationId, label(segments), 'the operations (operationId) of api/openapi.yaml');
  };
  const resultCode = (code: string, operations: readonly string[], segments: readonly Segment[]) => {
    const entry = contract.resultCodes.get(code);
    if (!entry) {
      missing(code, label([...segments, 'resultCode']), 'x-result-codes');
      return;
    }
    for (const operationId of operations) {
      const location = contract.operations.get(operationId);
      if (!location) continue;
      if (entry.scope !== 'common' && !(location.operation['x-result-codes'] ?? []).includes(code)) {
        missing(code, label([...segments, 'resultCode']), `the x-result-codes of ${operationId}`);
      }
    }
  };

  // Failure codes: where each kind of object keeps its failureCode.
  const paymentFailureCodes =
    allowedValues(doc, componentSchema(doc, 'PaymentFailureCode')) ??
    valuesAt(doc, componentSchema(doc, 'Order'), 'lastAttempt', 'failureCode');
  const refundFailureEnum = valuesAt(doc, componentSchema(doc, 'Refund'), 'failureCode');
  const refundFailureCodes = refundFailureEnum ?? new Set(contract.resultCodes.keys());
  const payoutFailureCodes = {
    WALLET: valuesAt(doc, componentSchema(doc, 'Transfer'), 'failureCode'),
    BANK: valuesAt(doc, componentSchema(doc, 'BankTransfer'), 'failureCode'),
    CARD: valuesAt(doc, componentSchema(doc, 'CardPayout'), 'failureCode'),
  } as const;
  const payoutSchemaName = {WALLET: 'Transfer', BANK: 'BankTransfer', CARD: 'CardPayout'} as const;
  const paymentFailureHome = 'components.schemas.PaymentFailureCode (the enum of Order.lastAttempt.failureCode)';

  // Event types, per notification.
  const webhookEvents = (operationId: string) => {
    const location = contract.operations.get(operationId);
    const schema = location?.operation.requestBody?.content?.['application/json']?.schema;
    return valuesAt(doc, schema, 'eventType');
  };
  const eventsOf = (events: readonly string[] | undefined, operationId: string, segments: readonly Segment[]) => {
    const values = webhookEvents(operationId);
    events?.forEach((event, index) => inValues(values, event, [...segments, 'events', index], `the eventType enum of ${operationId}`));
  };

  const orderStatuses = allowedValues(doc, componentSchema(doc, 'OrderStatus'));
  const closeReasons = valuesAt(doc, componentSchema(doc, 'Order'), 'closeReason');

  const checkOutcome = (
    outcome: Outcome,
    segments: readonly Segment[],
    failureCodes: Set<string> | undefined,
    failureHome: string,
    fallbackOperation?: string,
  ) => {
    const operations =
      outcome.operations ??
      (outcome.operation !== undefined ? [outcome.operation] : fallbackOperation !== undefined ? [fallbackOperation] : []);
    (outcome.operations ?? (outcome.operation !== undefined ? [outcome.operation] : [])).forEach((operationId) =>
      operation(operationId, segments),
    );
    if (outcome.resultCode !== undefined) resultCode(outcome.resultCode, operations, segments);
    if (outcome.failureCode !== undefined) inValues(failureCodes, outcome.failureCode, [...segments, 'failureCode'], failureHome);
  };

  // Payments.
  const scenes = allowedValues(doc, componentSchema(doc, 'Scene'));
  const paymentMethods = allowedValues(doc, componentSchema(doc, 'PaymentMethod'));
  data.payments.scenes.forEach((scene, index) => {
    inValues(scenes, scene.scene, ['payments', 'scenes', index, 'scene'], 'components.schemas.Scene');
    scene.methods.forEach((method, methodIndex) =>
      inValues(paymentMethods, method, ['payments', 'scenes', index, 'methods', methodIndex], 'components.schemas.PaymentMethod'),
    );
  });
  data.payments.methods.forEach((method, index) =>
    inValues(paymentMethods, method.method, ['payments', 'methods', index, 'method'], 'components.schemas.PaymentMethod'),
  );
  data.payments.endings.rules.forEach((rule, index) => {
    const segments: Segment[] = ['payments', 'endings', 'rules', index];
    if (rule.operation !== undefined) operation(rule.operation, segments);
    if (rule.resultCode !== undefined)
      resultCode(rule.resultCode, rule.operation !== undefined ? [rule.operation] : ['createOrder'], segments);
    if (rule.failureCode !== undefined) inValues(paymentFailureCodes, rule.failureCode, [...segments, 'failureCode'], paymentFailureHome);
    if (rule.orderStatus !== undefined)
      inValues(orderStatuses, rule.orderStatus, [...segments, 'orderStatus'], 'components.schemas.OrderStatus');
    eventsOf(rule.events, 'paymentResultNotification', segments);
    for (const variant of ['payer', 'createOrder'] as const) {
      const detail = rule[variant];
      if (!detail) continue;
      if (detail.failureCode !== undefined)
        inValues(paymentFailureCodes, detail.failureCode, [...segments, variant, 'failureCode'], paymentFailureHome);
      inValues(orderStatuses, detail.orderStatus, [...segments, variant, 'orderStatus'], 'components.schemas.OrderStatus');
      inValues(closeReasons, detail.closeReason, [...segments, variant, 'closeReason'], 'the enum of Order.closeReason');
      eventsOf(detail.events, 'paymentResultNotification', [...segments, variant]);
    }
  });
  checkOutcome(data.walletRules.payments.frozen, ['walletRules', 'payments', 'frozen'], paymentFailureCodes, paymentFailureHome);
  checkOutcome(
    data.walletRules.payments.insufficientBalance,
    ['walletRules', 'payments', 'insufficientBalance'],
    paymentFailureCodes,
    paymentFailureHome,
  );
  checkOutcome(data.walletRules.payments.wrongPin, ['walletRules', 'payments', 'wrongPin'], paymentFailureCodes, paymentFailureHome);
  checkOutcome(data.paymentCodes.unknown, ['paymentCodes', 'unknown'], paymentFailureCodes, paymentFailureHome);
  checkOutcome(data.agreementTokens.unknown, ['agreementTokens', 'unknown'], paymentFailureCodes, paymentFailureHome);
  checkOutcome(data.walletAuthCodes.unknown, ['walletAuthCodes', 'unknown'], paymentFailureCodes, paymentFailureHome);
  const cardBrands = allowedValues(doc, componentSchema(doc, 'CardBrand'));
  data.cards.cards.forEach((card, index) => {
    inValues(cardBrands, card.brand, ['cards', 'cards', index, 'brand'], 'components.schemas.CardBrand');
    if (card.behavior !== 'ENDINGS')
      checkOutcome(card.behavior, ['cards', 'cards', index, 'behavior'], paymentFailureCodes, paymentFailureHome);
  });
  checkOutcome(data.cards.threeDSecure.failed, ['cards', 'threeDSecure', 'failed'], paymentFailureCodes, paymentFailureHome);
  checkOutcome(data.cards.threeDSecure.cancelled, ['cards', 'threeDSecure', 'cancelled'], paymentFailureCodes, paymentFailureHome);

  // Refunds.
  const refundStatuses = allowedValues(doc, componentSchema(doc, 'RefundStatus'));
  const refundFailureHome = refundFailureEnum
    ? 'the enum of Refund.failureCode'
    : 'x-result-codes (Refund.failureCode holds a response code)';
  data.refunds.endings.rules.forEach((rule, index) => {
    const segments: Segment[] = ['refunds', 'endings', 'rules', index];
    if (rule.operation !== undefined) operation(rule.operation, segments);
    if (rule.resultCode !== undefined) resultCode(rule.resultCode, [rule.operation ?? 'refundOrder'], segments);
    if (rule.failureCode !== undefined) inValues(refundFailureCodes, rule.failureCode, [...segments, 'failureCode'], refundFailureHome);
    if (rule.status !== undefined) inValues(refundStatuses, rule.status, [...segments, 'status'], 'components.schemas.RefundStatus');
    eventsOf(rule.events, 'refundResultNotification', segments);
  });

  // Payouts: products, endings (every product), and each payee's own behavior.
  const notificationOf = {
    WALLET: 'transferNotification',
    BANK: 'transferToBankNotification',
    CARD: 'bankCardTransferNotification',
  } as const;
  const statusSchemaOf = {WALLET: 'TransferStatus', BANK: 'BankTransferStatus', CARD: 'CardPayoutStatus'} as const;
  data.payouts.products.forEach((product, index) => {
    const segments: Segment[] = ['payouts', 'products', index];
    operation(product.operation, [...segments, 'operation']);
    const values = webhookEvents(notificationOf[product.product]);
    for (const [status, event] of Object.entries(product.events)) {
      inValues(values, event, [...segments, 'events', status], `the eventType enum of ${notificationOf[product.product]}`);
      inValues(
        allowedValues(doc, componentSchema(doc, statusSchemaOf[product.product])),
        status,
        [...segments, 'events', status],
        `components.schemas.${statusSchemaOf[product.product]}`,
      );
    }
  });
  data.payouts.endings.rules.forEach((rule, index) => {
    const segments: Segment[] = ['payouts', 'endings', 'rules', index];
    for (const product of data.payouts.products) {
      if (rule.resultCode !== undefined) resultCode(rule.resultCode, [product.operation], segments);
      if (rule.failureCode !== undefined)
        inValues(
          payoutFailureCodes[product.product],
          rule.failureCode,
          [...segments, 'failureCode'],
          `the enum of ${payoutSchemaName[product.product]}.failureCode`,
        );
    }
  });
  checkOutcome(
    data.walletRules.transfers.unknownPayee,
    ['walletRules', 'transfers', 'unknownPayee'],
    payoutFailureCodes.WALLET,
    'the enum of Transfer.failureCode',
  );
  checkOutcome(
    data.walletRules.transfers.currencyMismatch,
    ['walletRules', 'transfers', 'currencyMismatch'],
    payoutFailureCodes.WALLET,
    'the enum of Transfer.failureCode',
  );
  checkOutcome(
    data.walletRules.transfers.frozen,
    ['walletRules', 'transfers', 'frozen'],
    payoutFailureCodes.WALLET,
    'the enum of Transfer.failureCode',
  );
  eventsOf(data.walletRules.transfers.frozen.events, 'transferNotification', ['walletRules', 'transfers', 'frozen']);
  for (const key of ['unknownAccount', 'invalidIban', 'nameMismatch', 'currencyMismatch'] as const) {
    checkOutcome(
      data.bankAccounts[key],
      ['bankAccounts', key],
      payoutFailureCodes.BANK,
      'the enum of BankTransfer.failureCode',
      'transferToBank',
    );
  }
  data.bankAccounts.accounts.forEach((account, index) => {
    const segments: Segment[] = ['bankAccounts', 'accounts', index, 'behavior'];
    checkOutcome(account.behavior, segments, payoutFailureCodes.BANK, 'the enum of BankTransfer.failureCode', 'transferToBank');
    if (account.behavior.returnFailureCode !== undefined)
      inValues(
        payoutFailureCodes.BANK,
        account.behavior.returnFailureCode,
        [...segments, 'returnFailureCode'],
        'the enum of BankTransfer.failureCode',
      );
    eventsOf(account.behavior.events, 'transferToBankNotification', segments);
  });
  const eligibilityReasons = valuesAt(doc, componentSchema(doc, 'CardPayoutEligibility'), 'reason');
  const fundsAvailability = valuesAt(doc, componentSchema(doc, 'CardPayoutEligibility'), 'fundsAvailability');
  const checkEligibility = (eligibility: SandboxData['payoutCards']['unknownCard']['eligibility'], segments: readonly Segment[]) => {
    if (eligibility.reason !== undefined)
      inValues(eligibilityReasons, eligibility.reason, [...segments, 'reason'], 'the enum of CardPayoutEligibility.reason');
    if (eligibility.fundsAvailability !== undefined)
      inValues(
        fundsAvailability,
        eligibility.fundsAvailability,
        [...segments, 'fundsAvailability'],
        'the enum of CardPayoutEligibility.fundsAvailability',
      );
  };
  checkEligibility(data.payoutCards.unknownCard.eligibility, ['payoutCards', 'unknownCard', 'eligibility']);
  checkOutcome(
    data.payoutCards.unknownCard.payout,
    ['payoutCards', 'unknownCard', 'payout'],
    payoutFailureCodes.CARD,
    'the enum of CardPayout.failureCode',
  );
  data.payoutCards.cards.forEach((card, index) => {
    inValues(cardBrands, card.brand, ['payoutCards', 'cards', index, 'brand'], 'components.schemas.CardBrand');
    checkEligibility(card.eligibility, ['payoutCards', 'cards', index, 'eligibility']);
    checkOutcome(card.payout, ['payoutCards', 'cards', index, 'payout'], payoutFailureCodes.CARD, 'the enum of CardPayout.failureCode');
    eventsOf(card.payout.events, 'bankCardTransferNotification', ['payoutCards', 'cards', index, 'payout']);
  });

  data.notifications.operations.forEach((operationId, index) => operation(operationId, ['notifications', 'operations', index]));

  // Virtual accounts, chargebacks.
  eventsOf(data.virtualAccounts.events, 'vamTopUpNotification', ['virtualAccounts']);
  const chargebackStatuses = valuesAt(doc, componentSchema(doc, 'Chargeback'), 'status');
  const reasonCodes = valuesAt(doc, componentSchema(doc, 'Chargeback'), 'reasonCode');
  data.chargebacks.reasonCodes.forEach((code, index) =>
    inValues(reasonCodes, code, ['chargebacks', 'reasonCodes', index], 'the enum of Chargeback.reasonCode'),
  );
  inValues(chargebackStatuses, data.chargebacks.opened.status, ['chargebacks', 'opened', 'status'], 'the enum of Chargeback.status');
  eventsOf(data.chargebacks.opened.events, 'chargebackNotification', ['chargebacks', 'opened']);
  checkOutcome(data.chargebacks.whileOpen, ['chargebacks', 'whileOpen'], undefined, '');
  data.chargebacks.resolutions.forEach((resolution, index) => {
    inValues(chargebackStatuses, resolution.status, ['chargebacks', 'resolutions', index, 'status'], 'the enum of Chargeback.status');
    eventsOf(resolution.events, 'chargebackNotification', ['chargebacks', 'resolutions', index]);
  });
  return problems;
}

export interface LoadedSandbox {
  readonly file: string;
  readonly data: SandboxData;
}

const cache = new Map<string, {mtimeMs: number; data: SandboxData}>();

/**
 * validateSandboxData, cached until the data or its schema changes; with a contract, also
 * checkSandboxAgainstContract, throwing when the data names anything the contract lacks.
 */
export function loadSandboxData(file: string, contract?: LoadedContract): SandboxData {
  const schemaFile = path.join(path.dirname(file), path.basename(sandboxSchemaRelativePath));
  const mtimeMs = statSync(file).mtimeMs + statSync(schemaFile).mtimeMs;
  const hit = cache.get(file);
  const data = hit && hit.mtimeMs === mtimeMs ? hit.data : validateSandboxData(file, schemaFile);
  cache.set(file, {mtimeMs, data});
  if (contract) {
    const problems = checkSandboxAgainstContract(data, contract);
    if (problems.length > 0) {
      const announced = problems.filter((problem) => problem.announced).length;
      throw new SandboxDataError(
        `The sandbox data names ${problems.length} thing${problems.length === 1 ? '' : 's'} api/openapi.yaml lacks` +
          `${announced > 0 ? ` (${announced} announced for contract 1.1.0 and not added yet)` : ''}:\n${problems.map((problem) => `  ${formatContractProblem(problem)}`).join('\n')}`,
        problems.map(formatContractProblem),
      );
    }
  }
  return data;
}
