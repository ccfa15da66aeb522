/**
 * Input of the code-sample templates: one concrete HTTP exchange built from
 * the contract (operation + example). Templates turn it into runnable code per
 * language; nothing in a template is specific to one operation.
 */
import {brand} from '../../brand';
import type {JsonValue} from '../../contract/openapiTypes';
import {sampleEnvironment} from './environment';

/**
 * Body fields holding the merchant's own number for a new object: the idempotency keys of the create calls.
 * The samples (and Try it) generate them at run time, so two developers never send the same number.
 */
export const merchantNumberFields = ['merchantOrderNo', 'merchantRefundNo', 'merchantTransferNo', 'merchantAgreementNo'] as const;

/**
 * Body fields holding a time that must lie ahead when the request is sent, with how far ahead they are put:
 * Adjust order expiry time's expiresAt (at least 60 s from now, at most 7 days after the order was
 * created), a day ahead like the contract's example.
 */
export const futureTimeFields: Readonly<Record<string, number>> = {expiresAt: 24};

/** Percent-encodes every byte outside A-Z a-z 0-9 - . _ ~ (upper-case hex, space as %20), as the request target needs. */
export function encodeTargetComponent(text: string): string {
  return encodeURIComponent(text).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
}

/**
 * A value of a request body that the sample makes at run time instead of sending the contract's example:
 * a merchant number (the idempotency key of a create call, which must be new), or a time that must lie ahead
 * of the moment the sample runs (a fixed date in an example is soon in the past).
 */
export type GeneratedValue = GeneratedNumber | GeneratedTime;

interface GeneratedBase {
  /** The body field, e.g. "merchantOrderNo"; the samples name their variable after it. */
  readonly field: string;
  /** The contract example's value: wherever it occurs in the body's strings, the generated value goes instead. */
  readonly example: string;
}

/** A merchant number: the example's leading letters, the time in milliseconds and random hex. */
export interface GeneratedNumber extends GeneratedBase {
  readonly kind: 'merchantNumber';
  /** Start of the generated number, taken from the example ("ORD" for "ORD-20250601-0001"). */
  readonly prefix: string;
}

/** An RFC 3339 UTC time, whole seconds ("2026-11-26T10:00:00Z"), a fixed number of hours after the sample runs. */
export interface GeneratedTime extends GeneratedBase {
  readonly kind: 'futureTime';
  readonly hoursAhead: number;
}

export interface RequestSampleInput {
  readonly kind: 'request';
  readonly operationId: string;
  readonly summary: string;
  readonly method: string;
  /** Path after the server URL, with the query string, e.g. "/orders?pageNo=1". */
  readonly pathWithQuery: string;
  /** The request target as sent and signed: the server URL's path, then pathWithQuery, e.g. "/v1/orders?pageNo=1". */
  readonly requestTarget: string;
  /** Names of the path parameters, filled with contract examples (they name objects that must exist). */
  readonly pathParameters: readonly string[];
  /** Parsed example body, or undefined for calls without a body. */
  readonly body: JsonValue | undefined;
  /** The body's merchant numbers and future times, which the samples generate at run time instead of sending the example's. */
  readonly generated: readonly GeneratedValue[];
}

export interface NotificationSampleInput {
  readonly kind: 'notification';
  readonly operationId: string;
  readonly summary: string;
  /** The notifyUrl the sample's handler is configured with by default. */
  readonly notifyUrl: string;
  /** Its path, which the handler serves. */
  readonly notifyPath: string;
  /** An example notification body. */
  readonly body: JsonValue;
}

export type SampleInput = RequestSampleInput | NotificationSampleInput;

export const sampleLanguages = ['curl', 'node', 'python', 'java', 'php', 'go'] as const;
export type SampleLanguage = (typeof sampleLanguages)[number];

export interface LanguageTemplate {
  readonly language: SampleLanguage;
  /** Tab label. */
  readonly label: string;
  /** Prism language name for highlighting. */
  readonly highlight: string;
  /** File name the sample is saved as when run or compiled by the tests. */
  readonly fileName: (input: SampleInput) => string;
  readonly render: (input: SampleInput) => string;
}

// In a module of its own: the API pages' CodeSamples shows these names, and importing them from here put every
// helper of this module into those pages' first load (1.5 KB Brotli).
export {sampleEnvironment} from './environment';

/** What every sample says, and exits with, when the provider keys are not configured. */
export const providerKeysMissing = `${sampleEnvironment.providerKeys.name} is not set: list the provider public keys by version, such as ${sampleEnvironment.providerKeys.sandboxValue} in the sandbox.`;

/**
 * The comment every sample puts above its provider key map. A request sample (`testDefault`) falls back to the
 * published provider test key for the shared test merchant only; a notification handler never does.
 */
export function providerKeysComment(testDefault: boolean): string[] {
  return [
    `Provider public keys by keyVersion, as version=file pairs: ${sampleEnvironment.providerKeys.name}="1=provider-test-public.pem,2=provider-2027.pem".`,
    'Add the new version when the provider announces a key; anything signed with a version not in the map is rejected.',
    testDefault
      ? `Unset, only the shared test merchant ${brand.sandboxClientId} trusts the published provider test key below; any other client ID must list its keys.`
      : 'There is no default, so a deployment that forgets it cannot fall back to the published test key.',
  ];
}

/** The X-Signature header, parsed with an anchored pattern (POSIX ERE syntax, so bash can use it too). */
export const signatureHeaderPattern = '^algorithm=RSA-SHA256, keyVersion=([1-9][0-9]*), signature=([A-Za-z0-9+/]+={0,2})$';
/** The one timestamp format of the API, YYYY-MM-DDTHH:MM:SSZ. */
export const timestampPattern = '^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}Z$';
export const windowSeconds = 300;
export const nonceSeconds = 600;

/**
 * Why a sample rejects a response or a notification, in the order the checks run. The samples print these
 * words, and the sample tests look for them to tell which check fired.
 */
export const rejection = {
  signatureHeader: 'X-Signature missing or malformed',
  keyVersion: 'unknown provider keyVersion',
  clientId: 'X-Client-Id is not our client ID',
  timestamp: `X-Timestamp malformed or more than ${windowSeconds} s from our clock`,
  signature: 'signature does not verify',
  nonce: 'X-Nonce seen before',
} as const;

/** What a request sample says before the reason when it rejects a response. */
export const responseRejected = 'Response rejected (outcome unknown: query before you retry)';
/** What a notification handler logs before the reason when it rejects a notification. */
export const notificationRejected = 'Notification rejected';
/** What a notification handler logs, inside the transaction, when it applies a notification. */
export const notificationApplied = 'Applied';

/** Compact JSON, exactly the bytes a sample sends and signs. */
export function compactJson(value: JsonValue): string {
  return JSON.stringify(value);
}

/** Upper camel case name for classes and files, from an operationId. */
export function pascalCase(operationId: string): string {
  return operationId.charAt(0).toUpperCase() + operationId.slice(1);
}

/** snake_case, for Python names. */
export function snakeCase(name: string): string {
  return name.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
}

/** A piece of an example string: literal text, or the variable holding a generated value. */
export type StringPiece = {readonly text: string} | {readonly variable: GeneratedValue};

/** Splits a string around the example values it contains. */
export function splitGenerated(text: string, generated: readonly GeneratedValue[]): StringPiece[] {
  const pieces: StringPiece[] = [];
  let rest = text;
  while (rest !== '') {
    let first: {index: number; number: GeneratedValue} | undefined;
    for (const number of generated) {
      const index = rest.indexOf(number.example);
      if (index >= 0 && (!first || index < first.index)) first = {index, number};
    }
    if (!first) {
      pieces.push({text: rest});
      break;
    }
    if (first.index > 0) pieces.push({text: rest.slice(0, first.index)});
    pieces.push({variable: first.number});
    rest = rest.slice(first.index + first.number.example.length);
  }
  return pieces;
}

/** The merchant numbers and future times of a request body, found at any depth, each once. */
export function generatedValues(body: JsonValue | undefined): GeneratedValue[] {
  const found = new Map<string, GeneratedValue>();
  const visit = (value: JsonValue | undefined): void => {
    if (Array.isArray(value)) value.forEach(visit);
    else if (value !== null && typeof value === 'object') {
      for (const [field, item] of Object.entries(value)) {
        if (typeof item === 'string' && item !== '' && !found.has(item)) {
          const hoursAhead = futureTimeFields[field];
          if ((merchantNumberFields as readonly string[]).includes(field)) {
            found.set(item, {kind: 'merchantNumber', field, example: item, prefix: /^[A-Za-z]+/.exec(item)?.[0] ?? 'NO'});
          } else if (hoursAhead !== undefined) {
            found.set(item, {kind: 'futureTime', field, example: item, hoursAhead});
          }
        }
        visit(item);
      }
    }
  };
  visit(body);
  return [...found.values()];
}

/**
 * The body with every generated value put in place of its example wherever the example occurs in the body's strings
 * (a subject "Order ORD-20250601-0001" follows its merchantOrderNo), as the samples do at run time: Try it fills its
 * form this way, so the numbers it shows agree with each other.
 */
export function withGenerated(value: JsonValue, generated: readonly GeneratedValue[], make: (value: GeneratedValue) => string): JsonValue {
  if (typeof value === 'string')
    return splitGenerated(value, generated)
      .map((piece) => ('text' in piece ? piece.text : make(piece.variable)))
      .join('');
  if (Array.isArray(value)) return value.map((item) => withGenerated(item, generated, make));
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, withGenerated(item, generated, make)]));
}

/** The comment above the line that makes a generated value, without the language's comment marker. */
export function generatedValueComment(value: GeneratedValue): string {
  return value.kind === 'merchantNumber'
    ? `Your own ${value.field}, the idempotency key: create it once, and send this same number if you retry.`
    : `${value.field}: ${value.hoursAhead} hours from now, in UTC to the second: an expiry must lie ahead when it is sent.`;
}

/** Comment lines on the request: which values are examples, and why a generated number is made only once. */
export function requestNotes(input: RequestSampleInput): string[] {
  const notes: string[] = [];
  if (input.pathParameters.length > 0) {
    notes.push(`The path's ${input.pathParameters.join(' and ')} is the contract's example: put in one of yours.`);
  }
  return notes;
}
