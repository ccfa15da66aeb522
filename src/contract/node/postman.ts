/**
 * A Postman collection (v2.1) generated from the contract: a request per operation with its first
 * example, in folders that follow a merchant's journey (postman/journey.ts) with the local sandbox's
 * control steps between them, published as /veloxa-pay.postman_collection.json. Each request
 * declares the HTTP status and `code` the contract gives its success; the collection's tests check
 * them, the response signature and its timestamp.
 *
 * Requests are signed by the collection's pre-request script on every Send (postman/sandboxScripts.ts says
 * how, with the RSA-SHA256 the collection carries), and the collection's test script verifies every response signature.
 * URLs are `{{baseUrl}}/v1/...` with `baseUrl` the API origin, so the path Postman sends, and the
 * script signs, carries the `/v1` of the contract's server URL.
 *
 * Merchant numbers: a create request's body holds `{{newMerchantOrderNo}}` (and the like), a fresh
 * number the script makes on each Send and then stores in `merchantOrderNo`, which the requests
 * that read the object use. Transfers get one variable per kind (`walletTransferNo`,
 * `bankTransferNo`, `cardPayoutNo`): the kinds share one namespace, and a number queried under the
 * wrong kind is `TRANSFER_NOT_FOUND`.
 *
 * tests/unit/postman.test.ts runs both scripts against the published signing vectors.
 */
import {readFileSync} from 'node:fs';
import path from 'node:path';
import {brand} from '../../brand';
import {deref, listOperations, type JsonValue, type OpenApiDocument, type OperationLocation} from '../openapiTypes';
import {sampleInputFor} from '../../lib/samples';
import {chainedFields, journey, sandboxControlsVariable, type Capture, type JourneyStep} from './postman/journey';
import {
  preRequestScript,
  requestTargetPrefix,
  responseTestScript,
  stepPreRequestScript,
  type ChainedValue,
  type GeneratedNumber,
  type GeneratedTime,
} from './postman/sandboxScripts';

export {requestTargetPrefix, signedRequestVariable, type GeneratedNumber} from './postman/sandboxScripts';

/** The parts of the Postman collection format (v2.1) this generator writes. */
export interface PostmanQueryParam {
  key: string;
  value: string;
}

export interface PostmanUrl {
  raw: string;
  host: string[];
  path: string[];
  query?: PostmanQueryParam[];
}

export interface PostmanItem {
  name: string;
  /** The step's own pre-request script: declares the HTTP status and `code` the journey expects, and what it stores for later steps. */
  event?: PostmanEvent[];
  request: {
    method: string;
    description: string;
    header: Array<{key: string; value: string}>;
    url: PostmanUrl;
    body?: {mode: 'raw'; raw: string; options: {raw: {language: 'json'}}};
  };
}

export interface PostmanEvent {
  listen: 'prerequest' | 'test';
  script: {type: 'text/javascript'; exec: string[]};
}

export interface PostmanVariable {
  key: string;
  value: string;
  description: string;
}

export interface PostmanCollection {
  info: {name: string; description: string; schema: string};
  event: PostmanEvent[];
  variable: PostmanVariable[];
  item: Array<{name: string; description: string; item: PostmanItem[]}>;
}

/** Published next to the collection (the openapi-contract plugin copies api/test-vectors/ to /test-vectors/). */
export const merchantTestKeyUrl = '/test-vectors/merchant-test-private.pem';
const providerTestKeyUrl = '/test-vectors/provider-test-public.pem';
const providerTestKeyFile = path.resolve(__dirname, '..', '..', '..', 'api', 'test-vectors', 'provider-test-public.pem');

/** Headers the pre-request script sets on every Send; the requests do not carry them. */
export const signingHeaders = ['X-Client-Id', 'X-Timestamp', 'X-Nonce', 'X-Signature'] as const;

/** merchantOrderNo, merchantRefundNo, merchantTransferNo, merchantAgreementNo: the idempotency numbers. */
const merchantNumberField = /^merchant[A-Z][A-Za-z]*No$/;

/** merchantTransferNo is one namespace for three kinds of payout, so each kind gets its own variable. */
const transferVariables: Readonly<Record<string, string>> = {
  transfers: 'walletTransferNo',
  'bank-transfers': 'bankTransferNo',
  'card-payouts': 'cardPayoutNo',
};

function camelCase(segment: string): string {
  return segment.replace(/[-_]+([a-z0-9])/gi, (_, letter: string) => letter.toUpperCase());
}

/** The variable holding a number of `field` for the resource collection `collection` (a path segment such as "bank-transfers"). */
function numberVariable(field: string, collection: string | undefined): string {
  if (field !== 'merchantTransferNo' || collection === undefined) return field;
  return transferVariables[collection] ?? `${camelCase(collection)}TransferNo`;
}

/** createdFrom, createdTo, updatedFrom, updatedTo: the time range of a list. */
const listRangeField = /^(created|updated)(From|To)$/;

const isParameter = (segment: string | undefined): boolean => segment !== undefined && /^\{.+\}$/.test(segment);

/** Replaces `example` by `placeholder` in every string of a JSON value (numbers also appear in subjects and return URLs). */
function replaceInStrings(value: JsonValue, example: string, placeholder: string): JsonValue {
  if (typeof value === 'string') return value.split(example).join(placeholder);
  if (Array.isArray(value)) return value.map((entry) => replaceInStrings(entry, example, placeholder));
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([key, entry]) => [key, replaceInStrings(entry, example, placeholder)]));
  }
  return value;
}

export interface PostmanOptions {
  /** The sandbox provider public key (PEM) the collection verifies responses with; api/test-vectors/provider-test-public.pem by default. */
  readonly providerPublicKeyPem?: string;
}

export function buildPostmanCollection(doc: OpenApiDocument, options: PostmanOptions = {}): PostmanCollection {
  const server = new URL(doc.servers?.[0]?.url ?? `https://${brand.hosts.sandboxApi}`);
  const basePath = server.pathname.split('/').filter(Boolean);
  const generated = new Map<string, GeneratedNumber>();
  const times = new Map<string, GeneratedTime>();
  const read = new Set<string>();
  const operationItems = new Map<string, {item: PostmanItem; location: OperationLocation}>();

  const reads = new Map<PostmanItem, Set<string>>();
  for (const location of listOperations(doc)) {
    if (location.kind !== 'operation') continue;
    const itemReads = new Set<string>();
    const item = buildItem(doc, location, basePath, {numbers: generated, times}, itemReads);
    for (const variable of itemReads) read.add(variable);
    reads.set(item, itemReads);
    operationItems.set(location.operationId, {item, location});
  }

  const numbers = [...generated.values()];
  const chained = chainedValues(operationItems);
  // Now that every create is known, tell each reader which request sets what it reads.
  for (const [item, itemReads] of reads) {
    const notes = [...itemReads].map((variable) => {
      const creator = numbers.find((number) => number.variable === variable);
      const producer = chained.find((value) => value.variable === variable);
      if (producer)
        return `Uses \`{{${variable}}}\`, which "${producer.createdBy}" stores from its response: send that first, or set \`${variable}\` yourself.`;
      return creator
        ? `Uses \`{{${variable}}}\`, the number the last Send of "${creator.createdBy}" created: send that first, or set \`${variable}\` to a number you created.`
        : `Uses \`{{${variable}}}\`: set it to a number you created.`;
    });
    const signed = `Signed by the collection's pre-request script on every Send, which sets ${signingHeaders.join(', ')}.`;
    item.request.description = [item.request.description, ...notes, signed].filter(Boolean).join('\n\n');
  }
  const numberVariables = [...new Set([...numbers.map((number) => number.variable), ...read])];
  const origin = server.origin;
  const scriptConfig = {numbers, chained, times: [...times.values()], merchantKeyFile: merchantTestKeyUrl, baseUrlExample: origin};
  const folders = journey.map((folder) => ({
    name: folder.name,
    description: folder.description,
    item: folder.steps.map((step) => journeyItem(doc, step, operationItems)),
  }));
  const inJourney = new Set(journey.flatMap((folder) => folder.steps.flatMap((step) => ('operationId' in step ? [step.operationId] : []))));
  const missing = [...operationItems.keys()].filter((operationId) => !inJourney.has(operationId));
  if (missing.length > 0)
    throw new Error(`Postman collection: put ${missing.join(', ')} in the journey (src/contract/node/postman/journey.ts).`);
  const providerPublicKeyPem = options.providerPublicKeyPem ?? readFileSync(providerTestKeyFile, 'utf8');

  return {
    info: {
      name: doc.info.title,
      description: [
        `Generated from the ${brand.name} API contract. Every request is signed when you select Send: the collection's pre-request script builds the canonical string from the request as it will be sent (method, the \`/v1/...\` request target, \`X-Client-Id\`, a new \`X-Timestamp\` and \`X-Nonce\`, the raw body), signs its UTF-8 bytes with RSA-SHA256 and sets the four signature headers on the request. Nothing is reused between Sends, so there is no signature to paste and none can go stale.`,
        `Set up: create an environment and add \`privateKeyPem\` as a secret variable whose current value is your merchant private key (PEM). For the shared sandbox merchant \`${brand.sandboxClientId}\`, use the published test key ${merchantTestKeyUrl}. The collection never stores a key; until you set one, every request stops before it is sent, with a failed test that names \`privateKeyPem\` (so a Newman run without it fails). \`clientId\` and \`keyVersion\` are preset for the sandbox merchant; \`baseUrl\` is the API origin (${origin}, a local sandbox such as http://127.0.0.1:4010, or https://${brand.hosts.productionApi} in production) without \`/v1\`.`,
        `Signing is carried inside the collection: its scripts hold a small RSA-SHA256 implementation (RSASSA-PKCS1-v1_5 over SHA-256), so the Postman app, the Postman CLI and Newman sign the same way, offline and without a Postman account. Nothing is downloaded, \`eval\`-ed or loaded with \`pm.require\`.`,
        `Run it from top to bottom (Collection Runner, \`postman collection run\` or \`newman run\`): the folders follow a merchant's journey, so each object is created before it is read, changed or refunded, and each ID a later request needs (merchant numbers, \`quoteId\`, \`notificationId\`, \`authCode\`) is stored from an earlier response. Each request's tests check the HTTP status and \`code\` the contract gives for that step. Steps named "Sandbox: ..." are unsigned control calls of the local sandbox (/docs/local-sandbox), such as the customer paying; \`${sandboxControlsVariable}\` decides when they run: \`auto\` (only when \`baseUrl\` is localhost, 127.0.0.1 or [::1]), \`on\` or \`off\`. Skipped, the steps that need them (Exchange wallet auth code, the refund of a paid order) report what the API answers.`,
        `Responses: the collection's tests verify each response signature with \`providerPublicKeyPem\` (preset to the sandbox provider key, version 1, ${providerTestKeyUrl}) and check that the response timestamp is within 300 seconds of your clock. A failed check means: do not act on the response; treat the outcome as unknown.`,
        `Merchant numbers: create requests use \`{{newMerchantOrderNo}}\` and the like, a new number on each Send, and store it in \`merchantOrderNo\` (\`merchantRefundNo\`, \`walletTransferNo\`, \`bankTransferNo\`, \`cardPayoutNo\`...) for the requests that read the object. To resend the same number, an idempotent replay, put the number itself in the body. List requests cover the last 24 hours (\`{{listFrom}}\` to \`{{listTo}}\`, set on each Send).`,
      ].join('\n\n'),
      schema: 'https://schema.getpostman.com/json/collection/v2.1.0/collection.json',
    },
    event: [
      {listen: 'prerequest', script: {type: 'text/javascript', exec: preRequestScript(scriptConfig).split('\n')}},
      {listen: 'test', script: {type: 'text/javascript', exec: responseTestScript().split('\n')}},
    ],
    variable: [
      {
        key: 'baseUrl',
        value: origin,
        description: `API origin without a path: every request path starts with /v1/. Production: https://${brand.hosts.productionApi}.`,
      },
      {key: 'clientId', value: brand.sandboxClientId, description: 'Your client ID (X-Client-Id). Preset to the shared sandbox merchant.'},
      {key: 'keyVersion', value: '1', description: 'Version of your merchant key pair, sent in X-Signature. The sandbox merchant uses 1.'},
      {
        key: 'privateKeyPem',
        value: '',
        description: `Your merchant private key (PEM) signs every request. Never store it here: set it as the current value of a secret variable in your environment. For the shared sandbox merchant, use the published test key ${merchantTestKeyUrl}. Empty, every Send stops with an error naming this variable.`,
      },
      {
        key: sandboxControlsVariable,
        value: 'auto',
        description:
          'When the "Sandbox: ..." steps (unsigned control calls of the local sandbox) run: auto, only when baseUrl is localhost, 127.0.0.1 or [::1]; on, always (a local sandbox under another host name, such as a CI service); off, never.',
      },
      {
        key: 'providerPublicKeyPem',
        value: providerPublicKeyPem,
        description: `The provider public key (PEM) the collection's tests verify response signatures with. Preset to the sandbox provider key, version 1 (${providerTestKeyUrl}); for production, download the provider key in the merchant dashboard.`,
      },
      {
        key: 'providerKeyVersion',
        value: '1',
        description:
          'Version of the provider key in providerPublicKeyPem. When the provider announces a new key, add it as a variable named providerPublicKeyPemV<version> (providerPublicKeyPemV2, say): during the overlap responses signed with either version verify, and a version with no key fails the signature test, naming the variable to set.',
      },
      ...numberVariables.map((variable) => {
        const creator = numbers.find((number) => number.variable === variable);
        const producer = chained.find((value) => value.variable === variable);
        if (producer)
          return {
            key: variable,
            value: '',
            description: `Stored from the response of "${producer.createdBy}"; read by the requests after it. Set it yourself to use another value.`,
          };
        return {
          key: variable,
          value: '',
          description: creator
            ? `Set by each Send of "${creator.createdBy}" to the number it creates ({{${creator.newVariable}}}); read by the requests that use that object. Set it yourself to use another number you created.`
            : 'Set it to a number you created.',
        };
      }),
    ],
    item: folders,
  };
}

type OperationItems = ReadonlyMap<string, {item: PostmanItem; location: OperationLocation}>;

function stepName(step: JourneyStep, operationItems: OperationItems): string {
  if ('sandbox' in step) return step.sandbox.name;
  const found = operationItems.get(step.operationId);
  if (!found) throw new Error(`Postman journey: the contract has no operation ${step.operationId}.`);
  return step.name ?? found.item.name;
}

/** The variables later requests read from earlier responses, with the step that stores each. */
function chainedValues(operationItems: OperationItems): ChainedValue[] {
  return journey.flatMap((folder) =>
    folder.steps.flatMap((step) => {
      const capture = 'sandbox' in step ? step.sandbox.capture : step.capture;
      return capture ? [{variable: capture.variable, createdBy: stepName(step, operationItems)}] : [];
    }),
  );
}

/** The HTTP status and envelope `code` of an operation's success response in the contract. */
export function successOutcome(doc: OpenApiDocument, location: OperationLocation): {status: number; code: string} {
  const responses = location.operation.responses ?? {};
  const status = Object.keys(responses).find((key) => /^2\d\d$/.test(key));
  const declared = status === undefined ? undefined : responses[status];
  const media = declared === undefined ? undefined : deref(doc, declared).content?.['application/json'];
  const example: JsonValue | undefined = Object.values(media?.examples ?? {})[0]?.value;
  const code = example !== null && typeof example === 'object' && !Array.isArray(example) ? example['code'] : undefined;
  if (status === undefined || typeof code !== 'string')
    throw new Error(`${location.operationId}: the contract gives no 2xx response with an example code.`);
  return {status: Number(status), code};
}

function journeyItem(doc: OpenApiDocument, step: JourneyStep, operationItems: OperationItems): PostmanItem {
  const name = stepName(step, operationItems);
  if ('sandbox' in step) {
    const {sandbox} = step;
    const body = JSON.stringify(sandbox.body, null, 2);
    const event: PostmanEvent = {
      listen: 'prerequest',
      script: {
        type: 'text/javascript',
        exec: stepPreRequestScript({name, status: 200, ...(sandbox.capture ? {capture: sandbox.capture} : {})}).split('\n'),
      },
    };
    return {
      name,
      event: [event],
      request: {
        method: sandbox.method,
        description: `${sandbox.description}\n\nA control call of the local sandbox (/docs/local-sandbox), not part of the API: not signed, and run only as \`${sandboxControlsVariable}\` says (by default, when baseUrl is a loopback origin).`,
        header: [{key: 'Content-Type', value: 'application/json'}],
        url: {raw: `{{baseUrl}}${sandbox.path}`, host: ['{{baseUrl}}'], path: sandbox.path.split('/').filter(Boolean)},
        body: {mode: 'raw', raw: body, options: {raw: {language: 'json'}}},
      },
    };
  }
  const found = operationItems.get(step.operationId);
  if (!found) throw new Error(`Postman journey: the contract has no operation ${step.operationId}.`);
  const item = structuredClone(found.item);
  const outcome = successOutcome(doc, found.location);
  const capture: Capture | undefined = step.capture;
  return {
    ...item,
    name,
    event: [
      {
        listen: 'prerequest',
        script: {type: 'text/javascript', exec: stepPreRequestScript({name, ...outcome, ...(capture ? {capture} : {})}).split('\n')},
      },
    ],
  };
}

function buildItem(
  doc: OpenApiDocument,
  location: OperationLocation,
  basePath: readonly string[],
  {numbers: generated, times}: {numbers: Map<string, GeneratedNumber>; times: Map<string, GeneratedTime>},
  read: Set<string>,
): PostmanItem {
  const input = sampleInputFor(doc, location);
  if (input.kind !== 'request') throw new Error(`${location.operationId}: not a request.`);
  const name = location.operation.summary ?? location.operationId;
  const notes: string[] = [];

  // Path: the sample's segments, with merchant numbers replaced by the variable of their kind.
  const [samplePath = '', sampleQuery] = input.pathWithQuery.split('?');
  const template = location.key.split('/').filter(Boolean);
  const sampleSegments = samplePath.split('/').filter(Boolean);
  if (template.length !== sampleSegments.length)
    throw new Error(`${location.operationId}: sample path ${samplePath} does not match ${location.key}.`);
  const staticSegments = template.filter((segment) => !isParameter(segment));
  const readVariable = (variable: string): string => {
    read.add(variable);
    return `{{${variable}}}`;
  };
  const segments = template.map((segment, index) => {
    const parameter = /^\{(.+)\}$/.exec(segment)?.[1];
    if (parameter && (chainedFields as readonly string[]).includes(parameter)) return readVariable(parameter);
    return parameter && merchantNumberField.test(parameter)
      ? readVariable(numberVariable(parameter, template[index - 1]))
      : (sampleSegments[index] ?? '');
  });
  const query = sampleQuery?.split('&').map((pair) => {
    // Kept percent-encoded, as the samples send them: Postman sends an encoded value as it is, so
    // the query string the script signs is the one on the wire.
    const [key = '', value = ''] = pair.split('=');
    // A list's time range: the last 24 hours of each Send, so a run finds what it just created.
    if (listRangeField.test(key)) return {key, value: key.endsWith('From') ? '{{listFrom}}' : '{{listTo}}'};
    return {key, value: merchantNumberField.test(key) ? readVariable(numberVariable(key, staticSegments.at(-1))) : value};
  });
  const pathSegments = [...basePath, ...segments];
  if (!`/${pathSegments.join('/')}/`.startsWith(requestTargetPrefix)) {
    throw new Error(
      `${location.operationId}: its request path /${pathSegments.join('/')} does not start with ${requestTargetPrefix}; the signed request target always does.`,
    );
  }

  // Body: a create gets a new number on each Send; a number of another object reads its variable.
  let body = input.body;
  if (body !== undefined && body !== null && typeof body === 'object' && !Array.isArray(body)) {
    const last = template.at(-1);
    for (const [field, example] of Object.entries(body)) {
      const time = input.generated.find((value) => value.kind === 'futureTime' && value.field === field);
      if (time?.kind === 'futureTime') {
        const variable = `new${field.charAt(0).toUpperCase()}${field.slice(1)}`;
        times.set(variable, {variable, hoursAhead: time.hoursAhead});
        body = replaceInStrings(body, time.example, `{{${variable}}}`);
        notes.push(
          `Each Send puts \`${field}\` ${time.hoursAhead} hours ahead of now: the collection's pre-request script sets \`{{${variable}}}\`.`,
        );
        continue;
      }
      if ((chainedFields as readonly string[]).includes(field) && typeof example === 'string') {
        body = replaceInStrings(body, example, readVariable(field));
        continue;
      }
      if (!merchantNumberField.test(field) || typeof example !== 'string') continue;
      const creates = location.method === 'post' && last !== undefined && !isParameter(last) && !template.includes(`{${field}}`);
      if (creates) {
        const variable = numberVariable(field, last);
        const newVariable = `new${variable.charAt(0).toUpperCase()}${variable.slice(1)}`;
        const earlier = generated.get(variable);
        generated.set(variable, {
          variable,
          newVariable,
          prefix: /^[A-Za-z]+/.exec(example)?.[0] ?? 'N',
          createdBy: earlier ? `${earlier.createdBy}" or "${name}` : name,
        });
        body = replaceInStrings(body, example, `{{${newVariable}}}`);
        notes.push(
          `Each Send uses a new \`${field}\`: the collection's pre-request script makes \`{{${newVariable}}}\` and stores it in \`${variable}\` for the requests that read this object. To resend a request with the same number (an idempotent replay), put the number itself in the body.`,
        );
      } else {
        body = replaceInStrings(body, example, readVariable(numberVariable(field, staticSegments.at(-1))));
      }
    }
  }

  const parameters = (location.operation.parameters ?? []).map((parameter) => deref(doc, parameter));
  const raw = `{{baseUrl}}/${pathSegments.join('/')}${query ? `?${query.map(({key, value}) => `${key}=${value}`).join('&')}` : ''}`;
  return {
    name,
    request: {
      method: input.method,
      description: [location.operation.description?.trim() ?? '', ...notes].filter(Boolean).join('\n\n'),
      header: [
        ...(body === undefined ? [] : [{key: 'Content-Type', value: 'application/json'}]),
        ...parameters
          .filter((parameter) => parameter.in === 'header' && !(signingHeaders as readonly string[]).includes(parameter.name))
          .map((parameter) => ({key: parameter.name, value: typeof parameter.example === 'string' ? parameter.example : ''})),
      ],
      url: {raw, host: ['{{baseUrl}}'], path: pathSegments, ...(query ? {query} : {})},
      ...(body === undefined
        ? {}
        : {body: {mode: 'raw' as const, raw: JSON.stringify(body, null, 2), options: {raw: {language: 'json' as const}}}}),
    },
  };
}
