/**
 * The sandbox server under hostile input, over real HTTP: thousands of malformed requests generated
 * with fast-check and sent by 16 keep-alive clients at once (bad JSON, wrong types, huge numbers, deep
 * nesting, missing, garbled and duplicated signing headers, stale and future timestamps, replayed nonces,
 * signatures over something else, bodies over 64 KiB, unknown paths and methods, odd Unicode in paths,
 * queries, headers and bodies, repeated and unknown query parameters, bad percent-encoding, garbage for
 * the control endpoints) and a few hundred byte-level requests on connections of their own.
 *
 * Every answer must be the contract's envelope {code, message, requestId} with a code of x-result-codes
 * and that code's HTTP status, valid against the contract's Error schema, never 5xx, signed and verifying
 * over what the request carried (well-formed or not; only bytes node:http cannot parse stay unsigned), and the code the category predicts; no connection may be
 * reset, and afterwards the server still creates and retrieves an order and answers /_sandbox/health.
 *
 * The defects this file found (eight, all fixed) are reproduced once each by the tests at the end, so a
 * regression fails the run even when the generators do not draw the case.
 *
 * Run: node --import tsx --test tests/sandbox/hostile.test.ts
 *   HOSTILE_SEED=<n>  replays a run (the seed is printed);  HOSTILE_RUNS=<n>  probes to generate (default 4,000:
 *   a new seed each run, so runs add up; 10,400 until 2026-11-27, cut for the test command's time).
 */
import {after, before, describe, test} from 'node:test';
import assert from 'node:assert/strict';
import {randomUUID} from 'node:crypto';
import http from 'node:http';
import net from 'node:net';
import fc from 'fast-check';
import {canonicalString, formatSignatureHeader, importPrivateKey, signCanonical, timestampPattern} from '../../src/lib/signing';
import {isoSeconds} from '../../src/sandbox/engine/clock';
import type {SandboxEngine} from '../../src/sandbox/engine/engine';
import {matchOperation} from '../../src/sandbox/engine/pipeline/route';
import {createNodeEngine, sandboxFiles} from '../../src/sandbox/hosts/server/loadEngine';
import {requestBodyLimitBytes, startSandboxServer, type SandboxServer} from '../../src/sandbox/hosts/server/server';
import {operationPointerFor, responseProblems} from '../support/sandboxClient';

const files = sandboxFiles();
const {spec, validator} = files;
const merchant = spec.sandbox.merchant.clientId;
/** The contract's catalogue, read from the document itself: code to HTTP status. */
const catalogue = new Map(
  (files.contract.document as unknown as {'x-result-codes': Array<{code: string; httpStatus: number}>})['x-result-codes'].map((entry) => [
    entry.code,
    entry.httpStatus,
  ]),
);
const errorSchema = '/components/responses/Error/content/application~1json/schema';

const seed = Number(process.env['HOSTILE_SEED'] ?? Math.floor(Math.random() * 2 ** 31));
const probeCount = Number(process.env['HOSTILE_RUNS'] ?? 4_000);
const concurrency = 16;

// ---- Requests and how they are sent ------------------------------------------------------------------

/** One request. `target` and header values are byte strings (one character per byte, latin1). */
interface Shot {
  readonly method: string;
  readonly target: string;
  readonly headers: Readonly<Record<string, string | readonly string[]>>;
  readonly body?: Buffer;
  /** Send the body in 16 KiB chunks without Content-Length. */
  readonly chunked?: boolean;
  /** Bytes to write on a connection of their own instead (what node:http refuses to send). */
  readonly raw?: Buffer;
  /** The codes this request may get; a code outside is a failure. */
  readonly expect: readonly string[];
}

/** What a generated probe is: a category, the generated values (printed on failure), and its requests in order. */
interface Probe {
  readonly category: string;
  readonly data: unknown;
  readonly shots: (signer: Signer) => Promise<Shot[]>;
}

type Answer =
  | {readonly status: number; readonly headers: Readonly<Record<string, string>>; readonly body: Buffer; readonly closed: boolean}
  | {readonly error: string};

function headerRecord(headers: http.IncomingHttpHeaders): Record<string, string> {
  const record: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers))
    if (value !== undefined) record[name] = Array.isArray(value) ? value.join(', ') : value;
  return record;
}

function sendWithAgent(port: number, agent: http.Agent, shot: Shot): Promise<Answer> {
  return new Promise((resolve) => {
    let settled = false;
    const finish = (answer: Answer) => {
      if (!settled) resolve(answer);
      settled = true;
    };
    const headers: Record<string, string | string[]> = {};
    for (const [name, value] of Object.entries(shot.headers)) headers[name] = typeof value === 'string' ? value : [...value];
    // Framing always stated: node:http sends a GET or DELETE body with neither header, which the server then reads as the next request.
    if (shot.chunked) headers['Transfer-Encoding'] = 'chunked';
    else if (shot.body) headers['Content-Length'] = String(shot.body.length);
    const request = http.request(
      {host: '127.0.0.1', port, method: shot.method, path: shot.target, headers, agent, timeout: 15_000},
      (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () =>
          finish({
            status: response.statusCode ?? 0,
            headers: headerRecord(response.headers),
            body: Buffer.concat(chunks),
            closed: response.headers.connection === 'close',
          }),
        );
        response.on('error', (error) => finish({error: `response: ${error.message}`}));
      },
    );
    request.on('timeout', () => {
      finish({error: 'no answer within 15 s'});
      request.destroy();
    });
    // After a complete answer the server may close the connection mid-body (a 413): nothing is lost then.
    request.on('error', (error: NodeJS.ErrnoException) => finish({error: `${error.code ?? ''} ${error.message}`}));
    if (shot.body && shot.chunked) {
      for (let at = 0; at < shot.body.length; at += 16_384) request.write(shot.body.subarray(at, at + 16_384));
      request.end();
    } else {
      request.end(shot.body);
    }
  });
}

/** Writes `bytes` on a new connection and reads one response (the server sends Content-Length, or closes). */
function sendRaw(port: number, bytes: Buffer): Promise<Answer> {
  return new Promise((resolve) => {
    const socket = net.connect(port, '127.0.0.1');
    const chunks: Buffer[] = [];
    let settled = false;
    const finish = (answer: Answer) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      socket.destroy();
      resolve(answer);
    };
    const parse = (closed: boolean): Answer | undefined => {
      let all = Buffer.concat(chunks);
      // An interim answer (100 Continue) comes before the answer.
      while (/^HTTP\/1\.[01] 1\d\d /.test(all.subarray(0, 13).toString('latin1')) && all.indexOf('\r\n\r\n') !== -1)
        all = all.subarray(all.indexOf('\r\n\r\n') + 4);
      const end = all.indexOf('\r\n\r\n');
      if (end === -1) return closed ? {error: `connection closed after ${all.length} bytes, without an HTTP answer`} : undefined;
      const [statusLine = '', ...lines] = all.subarray(0, end).toString('latin1').split('\r\n');
      const status = Number(/^HTTP\/1\.[01] (\d{3})/.exec(statusLine)?.[1] ?? 0);
      const headers: Record<string, string> = {};
      for (const line of lines) {
        const colon = line.indexOf(':');
        if (colon > 0) headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
      }
      const length = Number(headers['content-length'] ?? NaN);
      const body = all.subarray(end + 4);
      if (Number.isFinite(length) && body.length >= length) return {status, headers, body: body.subarray(0, length), closed: true};
      return closed ? {status, headers, body, closed: true} : undefined;
    };
    const timer = setTimeout(() => finish({error: 'no answer within 10 s'}), 10_000);
    socket.on('data', (chunk: Buffer) => {
      chunks.push(chunk);
      const answer = parse(false);
      if (answer) finish(answer);
    });
    socket.on('error', (error: NodeJS.ErrnoException) => finish(parse(true) ?? {error: `${error.code ?? ''} ${error.message}`}));
    socket.on('close', () => finish(parse(true) ?? {error: 'closed'}));
    socket.end(bytes);
  });
}

// ---- Signing -----------------------------------------------------------------------------------------

interface SignOptions {
  readonly method: string;
  readonly target: string;
  readonly body?: string;
  /** What goes into the canonical string, when it differs from what is sent (a signature over something else). */
  readonly signed?: {readonly method?: string; readonly target?: string; readonly body?: string; readonly clientId?: string};
  readonly clientId?: string;
  readonly timestamp?: string;
  readonly nonce?: string;
  readonly keyVersion?: number;
  readonly foreignKey?: boolean;
}

interface Signer {
  /** X-Client-Id, X-Timestamp, X-Nonce and X-Signature for a request, by the rules of the contract (or not, as asked). */
  headers(options: SignOptions): Promise<Record<string, string>>;
  now(): number;
}

function makeSigner(engine: SandboxEngine, merchantKey: CryptoKey, foreignKey: CryptoKey): Signer {
  return {
    now: () => engine.clock.now(),
    async headers(options) {
      const clientId = options.clientId ?? merchant;
      const timestamp = options.timestamp ?? isoSeconds(engine.clock.now());
      const nonce = options.nonce ?? randomUUID();
      const line = {
        method: options.signed?.method ?? options.method,
        pathWithQuery: options.signed?.target ?? options.target,
        clientId: options.signed?.clientId ?? clientId,
        timestamp,
        nonce,
        body: options.signed?.body ?? options.body ?? '',
      };
      let canonical: string;
      try {
        canonical = canonicalString(line);
      } catch {
        // Headers the library refuses to sign with (the server refuses them before the signature anyway).
        canonical = [line.method, line.pathWithQuery, line.clientId, line.timestamp, line.nonce, line.body].join('\n');
      }
      const signature = await signCanonical(canonical, options.foreignKey ? foreignKey : merchantKey);
      return {
        'X-Client-Id': clientId,
        'X-Timestamp': timestamp,
        'X-Nonce': nonce,
        'X-Signature': formatSignatureHeader({algorithm: 'RSA-SHA256', keyVersion: options.keyVersion ?? 1, signature}),
      };
    },
  };
}

// ---- Bytes -------------------------------------------------------------------------------------------

/** UTF-8, except that a lone surrogate is written as its three bytes (WTF-8): bytes no UTF-8 decoder accepts. */
function wtf8(text: string): Buffer {
  const bytes: number[] = [];
  for (let index = 0; index < text.length; index += 1) {
    const unit = text.charCodeAt(index);
    const next = text.charCodeAt(index + 1);
    if (unit >= 0xd800 && unit <= 0xdbff && next >= 0xdc00 && next <= 0xdfff) {
      bytes.push(...Buffer.from(text.slice(index, index + 2), 'utf8'));
      index += 1;
    } else if (unit >= 0xd800 && unit <= 0xdfff) {
      bytes.push(0xe0 | (unit >> 12), 0x80 | ((unit >> 6) & 0x3f), 0x80 | (unit & 0x3f));
    } else {
      bytes.push(...Buffer.from(text[index] ?? '', 'utf8'));
    }
  }
  return Buffer.from(bytes);
}

/** Every byte as %XX. */
const percentEncodeAll = (bytes: Buffer) => [...bytes].map((byte) => `%${byte.toString(16).toUpperCase().padStart(2, '0')}`).join('');
/** Bytes as a byte string, which node:http writes one byte per character. */
const byteString = (bytes: Buffer) => bytes.toString('latin1');
/** The body as the server decodes it: what a client signs when it signs what it sends. */
const asSent = (bytes: Buffer) => bytes.toString('utf8');

// ---- What the generators draw from -------------------------------------------------------------------

/** Characters that break parsers, validators and logs: bidi controls, NUL, lone surrogates, emoji, BOM, line separators. */
const oddCharacter = fc.constantFrom(
  '\u200f',
  '\u202e',
  '\u2066',
  '\u0000',
  '\ud800',
  '\udfff',
  '\udbff',
  '🙂',
  '👩‍👩‍👧',
  '\ufeff',
  '\u2028',
  'e\u0301',
  '\uffff',
  '\u00a0',
  '\u0085',
  '\u001b[31m',
  '\\',
  '"',
  '%',
  '\ufffd',
);
/** A short string holding at least one odd character. */
const oddText = fc
  .tuple(fc.string({maxLength: 6}), fc.array(oddCharacter, {minLength: 1, maxLength: 4}), fc.string({maxLength: 6}))
  .map(([head, odd, tail]) => `${head}${odd.join('')}${tail}`);
/** The same outside ASCII only, as a header carries them (bytes 0x80 to 0xFF; node:http refuses control bytes). */
const oddHeaderText = fc
  .tuple(
    fc.string({maxLength: 6}),
    fc.array(
      fc.constantFrom('\u200f', '\u202e', '\ud800', '\udfff', '🙂', '\ufeff', '\u2028', '\u0301', '\uffff', '\u00a0', '\u0085', '\u00ff'),
      {minLength: 1, maxLength: 4},
    ),
    fc.string({maxLength: 6}),
  )
  .map(([head, odd, tail]) => `${head}${odd.join('')}${tail}`);
/** Byte sequences no UTF-8 decoder accepts. */
const invalidUtf8 = fc
  .constantFrom(
    [0xed, 0xa0, 0x80],
    [0xed, 0xbf, 0xbf],
    [0xc0, 0xaf],
    [0xe0, 0x80, 0xaf],
    [0xf0, 0x9f, 0x99],
    [0xff],
    [0xfe, 0xff],
    [0x80],
    [0xf4, 0x90, 0x80, 0x80],
    [0xc3],
  )
  .map((bytes) => Buffer.from(bytes));
/** Numbers as JSON text that no field of the contract accepts where a small integer is due. */
const hugeNumberText = fc.constantFrom(
  '1e400',
  '-1e400',
  `1${'0'.repeat(400)}`,
  '9007199254740993',
  '1e21',
  '123456789012345678901234567890',
  '0.000000000000000000000001',
  '-0',
  '1.5',
  '100000000001',
  '4.9e-324',
  '-9007199254740993',
);

const unknownNumber = fc.stringMatching(/^[A-Za-z0-9_-]{6,24}$/).map((text) => `HX-${text}`);
const futureIso = '2030-01-01T00:00:00Z';

/** A valid body for each operation that takes one: what the mutations start from. */
function validBody(operationId: string, number: string): Record<string, unknown> {
  switch (operationId) {
    case 'createOrder':
      return {
        merchantOrderNo: number,
        amount: {value: 1059, currency: 'USD'},
        scene: 'HOSTED_PAYPAGE',
        subject: 'Hostile test',
        returnUrl: 'https://shop.example.com/return',
      };
    case 'cancelOrder':
    case 'revokeOrder':
    case 'cancelAgreement':
      return {reason: 'Hostile test'};
    case 'refundOrder':
      return {merchantRefundNo: number, amount: {value: 100, currency: 'USD'}, reason: 'Hostile test'};
    case 'adjustOrderExpiryTime':
      return {expiresAt: futureIso};
    case 'getCashierUrl':
      return {locale: 'de-DE'};
    case 'transfer':
      return {
        merchantTransferNo: number,
        amount: {value: 1051, currency: 'USD'},
        payee: {payeeType: 'WALLET_ID', walletId: '880000000001'},
      };
    case 'getIbanHolderName':
      return {iban: 'DE89370400440532013001'};
    case 'calculateRate':
      return {sourceCurrency: 'USD', destinationCountry: 'DE', destinationCurrency: 'EUR', sourceAmount: {value: 100000, currency: 'USD'}};
    case 'transferToBank':
      return {
        merchantTransferNo: number,
        destinationCurrency: 'GBP',
        amount: {value: 180051, currency: 'GBP'},
        beneficiary: {
          name: 'Oliver Pembridge',
          country: 'GB',
          account: {accountType: 'ACCOUNT_NUMBER', accountNumber: '31926819', routingCode: '601613'},
        },
        purpose: 'SALARY',
      };
    case 'verifyCardPayoutEligibility':
      return {cardNumber: '4000000000000002', currency: 'EUR'};
    case 'transferToBankCard':
      return {
        merchantTransferNo: number,
        amount: {value: 15051, currency: 'EUR'},
        card: {cardNumber: '4000000000000002', expiryMonth: 12, expiryYear: 2028, holderName: 'Jonas Becker'},
      };
    case 'createAgreement':
      return {merchantAgreementNo: number, description: 'Hostile test', returnUrl: 'https://shop.example.com/account'};
    case 'exchangeWalletAuthCode':
      return {authCode: 'wac_Sandbox0001AuthCode0'};
    default:
      throw new Error(`no body template for ${operationId}`);
  }
}

const bodyOperations = spec.operations.filter((operation) => operation.bodySchemaPointer !== undefined);
const pathOperations = spec.operations.filter((operation) =>
  operation.parameters.some((parameter) => parameter.in === 'path' && parameter.name !== 'statementDate'),
);

/** A target for `operation` with `pathValue` for its path parameter (an unknown number: a lookup that finds nothing), and a query. */
function targetOf(operation: (typeof spec.operations)[number], pathValue: string, query = ''): string {
  const path = operation.path.replace(/\{[^}]+\}/g, (match) => (match === '{statementDate}' ? '2020-01-01' : pathValue));
  return query === '' ? path : `${path}?${query}`;
}

const rangeQuery = 'createdFrom=2026-01-01T00%3A00%3A00Z&createdTo=2026-01-02T00%3A00%3A00Z';

/** The codes a schema-invalid body may get from an operation: Create order names missing scene fields on their own. */
const bodyRefusals = (operationId: string) =>
  operationId === 'createOrder' ? ['INVALID_PARAMETER', 'SCENE_PARAMETERS_MISSING'] : ['INVALID_PARAMETER'];

/** JSON leaves of a body as paths: ['amount', 'value'], ['subject']... */
function leaves(value: unknown, path: string[] = []): string[][] {
  if (typeof value !== 'object' || value === null) return [path];
  return Object.entries(value).flatMap(([key, inner]) => leaves(inner, [...path, key]));
}

function setAt(body: Record<string, unknown>, path: readonly string[], value: unknown): Record<string, unknown> {
  const copy = structuredClone(body);
  let node: Record<string, unknown> = copy;
  for (const key of path.slice(0, -1)) node = node[key] as Record<string, unknown>;
  const last = path[path.length - 1] ?? '';
  if (value === undefined) Reflect.deleteProperty(node, last);
  else node[last] = value;
  return copy;
}

/** A stand-in that JSON.stringify keeps as a string, replaced by raw number text afterwards. */
const rawMarker = '@@RAW@@';

/** Is this body text, parsed, refused by the contract's schema for the operation? */
function contractRefuses(pointer: string, text: string): boolean {
  try {
    return validator.problems(pointer, JSON.parse(text)).length > 0;
  } catch {
    return true;
  }
}

// ---- The probes --------------------------------------------------------------------------------------

/** A signed request carrying `body` (a string, sent as UTF-8) to `operation`. */
function signedShot(operation: (typeof spec.operations)[number], target: string, body: string | undefined, expect: readonly string[]) {
  return async (signer: Signer): Promise<Shot[]> => {
    const headers = await signer.headers({method: operation.method, target, ...(body !== undefined ? {body} : {})});
    return [
      {
        method: operation.method,
        target,
        headers: {...headers, 'Content-Type': 'application/json'},
        ...(body !== undefined ? {body: Buffer.from(body, 'utf8')} : {}),
        expect,
      },
    ];
  };
}

/** Bodies that are not a JSON object: broken JSON, scalars, arrays, a BOM, trailing garbage. */
const notAnObject = fc
  .oneof(
    fc.string({unit: 'binary', maxLength: 60}),
    fc.json({maxDepth: 2}).filter((text) => !text.startsWith('{')),
    fc
      .json({maxDepth: 2})
      .filter((text) => text.startsWith('{') && text.length > 2)
      .map((text) => text.slice(0, -1)),
    fc.constantFrom(
      '{',
      '}',
      '{"a":}',
      "{'a':1}",
      '{"a":1,}',
      '{a:1}',
      'null',
      'true',
      '[]',
      '""',
      '\ufeff{}',
      '{}garbage',
      '{"a":1}{"b":2}',
      '{"a":NaN}',
      '{"a":Infinity}',
      '{"a":0x10}',
      '{"a":"\\u12"}',
      '{"a":"\\ud800"}x',
      '{"a" 1}',
      '/* */{}',
    ),
  )
  .filter((text) => {
    try {
      const parsed: unknown = JSON.parse(text);
      return typeof parsed !== 'object' || parsed === null || Array.isArray(parsed);
    } catch {
      return true;
    }
  });

const badJson: fc.Arbitrary<Probe> = fc
  .record({operation: fc.constantFrom(...bodyOperations), number: unknownNumber, body: notAnObject})
  // No body at all is `{}` where every field is optional (I-7): not bad JSON there.
  .filter(({operation, body}) => !(operation.bodyOptional && body === ''))
  .map(({operation, number, body}) => ({
    category: 'bad JSON',
    data: {operationId: operation.operationId, body},
    shots: signedShot(operation, targetOf(operation, number), asSent(Buffer.from(body, 'utf8')), ['INVALID_PARAMETER']),
  }));

/** A value of any JSON type, for a field that wants another. */
const anyJson = fc.oneof(
  fc.integer(),
  fc.double({noNaN: true, noDefaultInfinity: true}),
  fc.boolean(),
  fc.constant(null),
  fc.string({maxLength: 12}),
  oddText,
  fc.array(fc.integer(), {maxLength: 3}),
  fc.dictionary(fc.string({maxLength: 5}), fc.integer(), {maxKeys: 3}),
  hugeNumberText.map((text) => `${rawMarker}${text}`),
);

const wrongTypes: fc.Arbitrary<Probe> = fc
  .record({
    operation: fc.constantFrom(...bodyOperations),
    number: unknownNumber,
    leaf: fc.nat(),
    change: fc.oneof(
      {arbitrary: anyJson.map((value) => ({kind: 'replace' as const, value})), weight: 6},
      {arbitrary: fc.constant({kind: 'delete' as const, value: undefined}), weight: 1},
      {
        arbitrary: fc
          .tuple(fc.string({minLength: 1, maxLength: 12}), anyJson)
          .map(([name, value]) => ({kind: 'add' as const, name, value})),
        weight: 1,
      },
    ),
  })
  .map(({operation, number, leaf, change}) => {
    const template = validBody(operation.operationId, number);
    const paths = leaves(template);
    const path = paths[leaf % paths.length] ?? [];
    const mutated = change.kind === 'add' ? setAt(template, [`x_${change.name}`], change.value) : setAt(template, path, change.value);
    const text = JSON.stringify(mutated).replace(new RegExp(`"${rawMarker}([^"]*)"`, 'g'), '$1');
    return {operation, number, text, change: change.kind, path};
  })
  .filter(({operation, text}) => contractRefuses(operation.bodySchemaPointer ?? '', text))
  .map(({operation, number, text, change, path}) => ({
    category: 'wrong types and huge numbers',
    data: {operationId: operation.operationId, change, path, body: text},
    shots: signedShot(operation, targetOf(operation, number), text, bodyRefusals(operation.operationId)),
  }));

/** Nesting deep enough for any recursive reader, in a field, an unknown member, or as the whole body; under 64 KiB. */
const deepNesting: fc.Arbitrary<Probe> = fc
  .record({
    operation: fc.constantFrom(...bodyOperations),
    number: unknownNumber,
    depth: fc.integer({min: 200, max: 10_000}),
    shape: fc.constantFrom('array', 'object', 'mixed'),
    where: fc.constantFrom('field', 'unknown', 'root'),
  })
  .map(({operation, number, depth, shape, where}) => {
    const open = shape === 'array' ? '[' : shape === 'object' ? '{"a":' : '[{"a":';
    const close = shape === 'array' ? ']' : shape === 'object' ? '}' : '}]';
    const levels = Math.min(depth, Math.floor(60_000 / (open.length + close.length)));
    const nested = `${open.repeat(levels)}1${close.repeat(levels)}`;
    const template = validBody(operation.operationId, number);
    const field = leaves(template)[0]?.[0] ?? 'x';
    const text =
      where === 'root'
        ? nested
        : where === 'unknown'
          ? `${JSON.stringify(template).slice(0, -1)},"deep":${nested}}`
          : JSON.stringify({...template, [field]: rawMarker}).replace(`"${rawMarker}"`, nested);
    return {operation, number, text, data: {operationId: operation.operationId, levels, shape, where}};
  })
  .filter(({operation, text}) => contractRefuses(operation.bodySchemaPointer ?? '', text))
  .map(({operation, number, text, data}) => ({
    category: 'deep nesting',
    data,
    shots: signedShot(operation, targetOf(operation, number), text, bodyRefusals(operation.operationId)),
  }));

/** A lookup that finds nothing, correctly signed: the request the header probes spoil. */
const lookup = fc.record({
  operation: fc.constantFrom(...pathOperations.filter((operation) => operation.method === 'GET')),
  number: unknownNumber,
});
const notFound = (operationId: string) => [
  spec.operations.find((operation) => operation.operationId === operationId)?.resultCodes.find((code) => code.endsWith('_NOT_FOUND')) ??
    'ORDER_NOT_FOUND',
];

const garbledSignature = fc.oneof(
  fc.constant({value: undefined as string | undefined, expect: 'INVALID_SIGNATURE'}),
  fc.string({maxLength: 80}).map((value) => ({value, expect: 'INVALID_SIGNATURE'})),
  fc
    .constantFrom(
      'algorithm=RSA-SHA1, keyVersion=1, signature=AAAA',
      'algorithm=RSA-SHA256, keyVersion=0, signature=AAAA',
      'algorithm=RSA-SHA256, keyVersion=-1, signature=AAAA',
      'algorithm=RSA-SHA256, keyVersion=1.5, signature=AAAA',
      'algorithm=RSA-SHA256, keyVersion=NaN, signature=AAAA',
      'algorithm=RSA-SHA256, keyVersion=1, signature=not base64!',
      'algorithm=RSA-SHA256, keyVersion=1, signature=',
      'algorithm=RSA-SHA256, keyVersion=1',
      'keyVersion=1, signature=AAAA',
      'algorithm=RSA-SHA256 keyVersion=1 signature=AAAA',
      '=',
      ',,,',
      'algorithm=RSA-SHA256, keyVersion=1, signature=AAAA, signature=BBBB',
    )
    .map((value) => ({value, expect: 'INVALID_SIGNATURE'})),
  fc
    .base64String({minLength: 4, maxLength: 344})
    .map((signature) => ({value: `algorithm=RSA-SHA256, keyVersion=1, signature=${signature}`, expect: 'INVALID_SIGNATURE'})),
  fc
    .integer({min: 2, max: 2 ** 31})
    .map((version) => ({value: `algorithm=RSA-SHA256, keyVersion=${version}, signature=AAAA`, expect: 'UNKNOWN_CLIENT'})),
);

const signatureHeaders: fc.Arbitrary<Probe> = fc
  .record({
    lookup,
    spoil: fc.oneof(
      garbledSignature.map((garble) => ({kind: 'signature' as const, ...garble})),
      fc.constantFrom('X-Signature', 'X-Client-Id', 'X-Timestamp', 'X-Nonce').map((header) => ({kind: 'duplicate' as const, header})),
      fc.constantFrom('X-Client-Id', 'X-Timestamp', 'X-Nonce').map((header) => ({kind: 'missing' as const, header})),
    ),
  })
  .map(({lookup: {operation, number}, spoil}) => ({
    category: 'signing headers missing, garbled or duplicated',
    data: {operationId: operation.operationId, spoil},
    shots: async (signer: Signer) => {
      const target = targetOf(operation, number);
      const headers: Record<string, string | string[]> = await signer.headers({method: 'GET', target});
      let expect: string;
      if (spoil.kind === 'signature') {
        if (spoil.value === undefined) Reflect.deleteProperty(headers, 'X-Signature');
        else headers['X-Signature'] = spoil.value;
        expect = spoil.expect;
      } else if (spoil.kind === 'missing') {
        Reflect.deleteProperty(headers, spoil.header);
        expect = 'INVALID_PARAMETER';
      } else {
        const second =
          spoil.header === 'X-Signature'
            ? (await signer.headers({method: 'GET', target}))['X-Signature']
            : spoil.header === 'X-Nonce'
              ? randomUUID()
              : spoil.header === 'X-Client-Id'
                ? 'another-merchant'
                : isoSeconds(signer.now());
        headers[spoil.header] = [String(headers[spoil.header]), second ?? ''];
        // Node joins repeated headers with ", ": a client ID that exists nowhere, a timestamp and a nonce that are malformed.
        expect = {
          'X-Signature': 'INVALID_SIGNATURE',
          'X-Client-Id': 'UNKNOWN_CLIENT',
          'X-Timestamp': 'INVALID_PARAMETER',
          'X-Nonce': 'INVALID_PARAMETER',
        }[spoil.header];
      }
      return [{method: 'GET', target, headers, expect: [expect]}];
    },
  }));

const timestamps: fc.Arbitrary<Probe> = fc
  .record({
    lookup,
    skew: fc.oneof(
      fc
        .integer({min: 310, max: 400 * 86_400 * 365})
        .chain((seconds) => fc.constantFrom(seconds, -seconds))
        .map((seconds) => ({kind: 'skewed' as const, seconds})),
      fc
        .constantFrom('0000-01-01T00:00:00Z', '9999-12-31T23:59:59Z', '1970-01-01T00:00:00Z')
        .map((timestamp) => ({kind: 'skewed' as const, timestamp})),
      fc
        .constantFrom(
          '2026-13-01T10:00:00Z',
          '2026-00-10T10:00:00Z',
          '2026-02-32T10:00:00Z',
          '2026-01-01T24:00:01Z',
          '2026-01-01T10:60:00Z',
          '2026-01-01 10:00:00Z',
          '2026-01-01T10:00:00',
          '2026-01-01T10:00:00.000Z',
          '2026-01-01T10:00:00+00:00',
          '+012026-01-01T10:00:00Z',
          '1767225600',
          '',
          'yesterday',
          '2026-01-01T10:00:00z',
        )
        .map((timestamp) => ({kind: 'malformed' as const, timestamp})),
    ),
  })
  .map(({lookup: {operation, number}, skew}) => ({
    category: 'stale, future and malformed timestamps',
    data: {operationId: operation.operationId, skew},
    shots: async (signer: Signer) => {
      const target = targetOf(operation, number);
      const timestamp = 'timestamp' in skew ? (skew.timestamp ?? '') : isoSeconds(signer.now() + (skew.seconds ?? 0) * 1000);
      // A timestamp of year 10000 or later is not YYYY-MM-DD...: malformed, not stale.
      const wellFormed = skew.kind === 'skewed' && timestampPattern.test(timestamp);
      return [
        {
          method: 'GET',
          target,
          headers: await signer.headers({method: 'GET', target, timestamp}),
          expect: [wellFormed ? 'TIMESTAMP_OUT_OF_WINDOW' : 'INVALID_PARAMETER'],
        },
      ];
    },
  }));

/** A request that leaves no state behind (a lookup, or an order risk control refuses), then the same nonce again. */
const replays: fc.Arbitrary<Probe> = fc
  .record({
    lookup,
    number: unknownNumber,
    first: fc.constantFrom('lookup', 'rejected order'),
    again: fc.constantFrom('identical', 'other body', 'other target'),
  })
  .map(({lookup: {operation, number: lookupNumber}, number, first, again}) => ({
    category: 'replayed nonces',
    data: {first, again},
    shots: async (signer: Signer) => {
      const nonce = randomUUID();
      const createOrder = spec.operations.find((candidate) => candidate.operationId === 'createOrder');
      const original =
        first === 'lookup' || !createOrder
          ? {method: 'GET', target: targetOf(operation, lookupNumber), body: undefined, expect: notFound(operation.operationId)}
          : {method: 'POST', target: createOrder.path, body: JSON.stringify(validBody('createOrder', number)), expect: ['RISK_REJECTED']};
      const replay =
        again === 'identical'
          ? original
          : again === 'other target'
            ? {...original, target: original.method === 'GET' ? targetOf(operation, `${lookupNumber}X`) : original.target}
            : {
                ...original,
                body: original.body === undefined ? undefined : JSON.stringify({...validBody('createOrder', number), subject: 'Replayed'}),
              };
      const shot = async (request: typeof original, expect: readonly string[]): Promise<Shot> => ({
        method: request.method,
        target: request.target,
        headers: await signer.headers({
          method: request.method,
          target: request.target,
          ...(request.body !== undefined ? {body: request.body} : {}),
          nonce,
        }),
        ...(request.body !== undefined ? {body: Buffer.from(request.body)} : {}),
        expect,
      });
      return [await shot(original, original.expect), await shot(replay, ['NONCE_REUSED'])];
    },
  }));

const signedOverOther: fc.Arbitrary<Probe> = fc
  .record({
    operation: fc.constantFrom(...bodyOperations),
    number: unknownNumber,
    other: fc.constantFrom('body', 'whitespace', 'target', 'query', 'method', 'client', 'key', 'timestamp'),
    extra: fc.string({minLength: 1, maxLength: 8}),
  })
  .map(({operation, number, other, extra}) => ({
    category: 'valid signatures over something else',
    data: {operationId: operation.operationId, other, extra},
    shots: async (signer: Signer) => {
      const target = targetOf(operation, number);
      const body = JSON.stringify(validBody(operation.operationId, number));
      const sent = other === 'whitespace' ? ` ${body}` : body;
      const signed =
        other === 'body'
          ? {body: JSON.stringify({...validBody(operation.operationId, number), [`x${extra}`]: 1})}
          : other === 'whitespace'
            ? {body}
            : other === 'target'
              ? {target: targetOf(operation, `${number}Z`) === target ? `${target}/` : targetOf(operation, `${number}Z`)}
              : other === 'query'
                ? {target: `${target}?q=${encodeURIComponent(extra)}`}
                : other === 'method'
                  ? {method: operation.method === 'POST' ? 'PUT' : 'POST'}
                  : other === 'client'
                    ? {clientId: 'another-merchant'}
                    : {};
      const headers = await signer.headers({
        method: operation.method,
        target,
        body: sent,
        signed,
        ...(other === 'key' ? {foreignKey: true} : {}),
      });
      if (other === 'timestamp') headers['X-Timestamp'] = isoSeconds(signer.now() - 60_000);
      return [
        {
          method: operation.method,
          target,
          headers: {...headers, 'Content-Type': 'application/json'},
          body: Buffer.from(sent),
          expect: ['INVALID_SIGNATURE'],
        },
      ];
    },
  }));

/** Anywhere: an API call, a control endpoint, a path that does not exist. */
const anyTarget = fc.oneof(
  fc.constantFrom(...spec.operations).map((operation) => targetOf(operation, 'HX-oversized')),
  fc.constantFrom('/_sandbox/faults', '/_sandbox/reset', '/_sandbox/merchants', '/_sandbox/clock/advance', '/_sandbox/shopper/pay'),
  fc.webPath().map((path) => `/${path.replace(/^\/+/, '')}`),
);

const oversized: fc.Arbitrary<Probe> = fc
  .record({
    target: anyTarget,
    method: fc.constantFrom('POST', 'PUT', 'PATCH', 'GET', 'DELETE'),
    size: fc.integer({min: requestBodyLimitBytes + 1, max: 4 * requestBodyLimitBytes}),
    chunked: fc.boolean(),
    fill: fc.constantFrom('x', '{', ' ', '"\u00e9', '\u0000'),
  })
  .map(({target, method, size, chunked, fill}) => ({
    category: 'bodies over 64 KiB',
    data: {target, method, size, chunked, fill: JSON.stringify(fill)},
    shots: async () => [
      {
        method,
        target,
        headers: {'Content-Type': 'application/json'},
        body: Buffer.alloc(size, fill),
        chunked,
        expect: ['REQUEST_TOO_LARGE'],
      },
    ],
  }));

/** Whether the API has an operation for this method and path. */
const routed = (method: string, target: string) => {
  const match = matchOperation(spec.operations, method, target);
  return match.found || match.reason === 'encoding';
};

/** Control endpoints, for the wrong-method probes: [method, path] pairs the server routes. */
const controlRoutes = [
  ['GET', '/_sandbox/health'],
  ['POST', '/_sandbox/reset'],
  ['GET', '/_sandbox/clock'],
  ['POST', '/_sandbox/clock/advance'],
  ['POST', '/_sandbox/merchants'],
  ['PATCH', '/_sandbox/merchants/sandbox-merchant-0001'],
  ['POST', '/_sandbox/merchants/sandbox-merchant-0001/keys'],
  ['POST', '/_sandbox/shopper/pay'],
  ['POST', '/_sandbox/faults'],
  ['GET', '/_sandbox/notifications'],
  ['GET', '/_sandbox/ledger'],
  ['GET', '/_sandbox/balances'],
  ['GET', '/_sandbox/statements/2026-01-01'],
] as const;
/** Methods node:http parses (CONNECT has a test of its own at the end), and tokens it does not. */
const methods = fc.constantFrom(
  'GET',
  'POST',
  'PUT',
  'PATCH',
  'DELETE',
  'OPTIONS',
  'HEAD',
  'TRACE',
  'PROPFIND',
  'MKCOL',
  'LOCK',
  'PURGE',
  'SEARCH',
  'QUERY',
  'FOO',
  'get',
  'X-HOSTILE',
);

const unknownRoutes: fc.Arbitrary<Probe> = fc
  .oneof(
    // A known path with a method it does not take (GET /v1/bank-transfers/quotes is Query transfer to bank of a number "quotes").
    fc
      .tuple(fc.constantFrom(...spec.operations), methods)
      .filter(([operation, method]) => !routed(method.toUpperCase(), targetOf(operation, 'HX-method')))
      .map(([operation, method]) => ({method, target: targetOf(operation, 'HX-method'), signed: true})),
    fc
      .tuple(fc.constantFrom(...controlRoutes), methods)
      .filter(([[, path], method]) => !controlRoutes.some(([other, otherPath]) => other === method.toUpperCase() && otherPath === path))
      .map(([[, path], method]) => ({method, target: path, signed: false})),
    // Paths that exist nowhere.
    fc
      .tuple(
        methods,
        fc.constantFrom(
          '/',
          '/v1',
          '/v1/',
          '/v2/orders',
          '/V1/ORDERS',
          '//v1/orders',
          '/v1//orders',
          '/v1/orders/',
          '/v1/orders/a/b/c',
          '/v1/../v1/orders',
          '/v1/orders/%2F..%2F',
          '/v1/orders;a=b',
          '/_sandbox',
          '/_sandbox/',
          '/_sandboxes',
          '/_sandbox/zz-nothing',
          '/_sandbox/clock/advance/again',
          '/favicon.ico',
          '/*',
          '/v1/orders#x',
        ),
        fc.boolean(),
      )
      .map(([method, target, signed]) => ({method, target, signed})),
    fc
      .tuple(methods, fc.webPath({size: 'medium'}), fc.boolean())
      .map(([method, path, signed]) => ({method, target: `/zz/${path.replace(/^\/+/, '')}`, signed})),
  )
  .map(({method, target, signed}) => ({
    category: 'unknown paths and methods',
    data: {method, target, signed},
    shots: async (signer: Signer) => [
      {
        method,
        target,
        headers: signed && /^[A-Z]+$/.test(method) ? await signer.headers({method, target}) : {},
        expect: ['INVALID_PARAMETER'],
      },
    ],
  }));

/** Odd Unicode in a path segment: percent-encoded (signed, so the path decides), or as raw bytes (node:http's parser refuses them). */
const oddPaths: fc.Arbitrary<Probe> = fc
  .record({operation: fc.constantFrom(...pathOperations), text: oddText, raw: fc.boolean()})
  .map(({operation, text, raw}) => ({
    category: 'odd Unicode in paths',
    data: {operationId: operation.operationId, text, raw},
    shots: async (signer: Signer) => {
      // Raw: every byte as it is, but NUL to space, which end the request line for any parser (the byte-level probes send those).
      const segment = raw
        ? [...byteString(wtf8(text))]
            .map((character) => (character.charCodeAt(0) <= 0x20 ? percentEncodeAll(Buffer.from(character, 'latin1')) : character))
            .join('')
        : percentEncodeAll(wtf8(text));
      const target = targetOf(operation, segment);
      const body = operation.bodySchemaPointer ? JSON.stringify(validBody(operation.operationId, 'HX-odd-path')) : undefined;
      const headers = await signer.headers({method: operation.method, target, ...(body !== undefined ? {body} : {})});
      return [
        {
          method: operation.method,
          target,
          headers,
          ...(body !== undefined ? {body: Buffer.from(body)} : {}),
          expect: ['INVALID_PARAMETER'],
        },
      ];
    },
  }));

/** Query strings: repeated, unknown and odd parameters, malformed numbers and dates, broken percent-encoding. */
const queries: fc.Arbitrary<Probe> = fc
  .record({
    operation: fc.constantFrom(...spec.operations.filter((operation) => operation.method === 'GET')),
    flaw: fc.oneof(
      fc.constantFrom('repeat-from', 'repeat-to', 'repeat-page').map((kind) => ({kind, text: ''})),
      fc.string({minLength: 1, maxLength: 10}).map((name) => ({kind: 'unknown', text: name})),
      oddText.map((text) => ({kind: 'odd-value', text})),
      oddText.map((text) => ({kind: 'odd-name', text})),
      fc
        .constantFrom(
          '0',
          '-1',
          '101',
          '1.5',
          'abc',
          '',
          '1e3',
          '0x10',
          '+1',
          ' 1',
          '\u0663',
          `1${'0'.repeat(400)}`,
          '-9007199254740993',
          'NaN',
          'Infinity',
        )
        .map((text) => ({kind: 'page-size', text})),
      fc.constantFrom('0', '-1', '1.5', 'abc', '', '1e3', 'NaN', '-0.5').map((text) => ({kind: 'page-no', text})),
      fc
        .constantFrom('%', '%G0', '%E0%A4%A', '%ED%A0%80', '%C0%AF', '%FF', '2026-01-01T00:00:00Z%', '%2', '2026-01-01T00%3A00%3A00Z%00')
        .map((text) => ({kind: 'bad-date', text})),
      fc
        .constantFrom(
          '2026-02-30T00%3A00%3A00Z',
          '2026-01-01',
          '2026-01-01T00%3A00%3A00%2B01%3A00',
          '2026-01-01T00%3A00%3A00.5Z',
          '10000-01-01T00%3A00%3A00Z',
          '2025-01-01T00%3A00%3A00Z',
        )
        .map((text) => ({kind: 'range', text})),
    ),
  })
  .map(({operation, flaw}) => {
    const takes = (name: string) => operation.parameters.some((parameter) => parameter.in === 'query' && parameter.name === name);
    const list = takes('pageSize');
    const base = list ? rangeQuery : '';
    const join = (...parts: string[]) => parts.filter(Boolean).join('&');
    let query: string;
    switch (flaw.kind) {
      case 'repeat-from':
        query = list ? join(base, 'createdFrom=2026-01-01T00%3A00%3A00Z') : join('currency=USD', 'currency=USD');
        break;
      case 'repeat-to':
        query = list ? join(base, 'createdTo=2026-01-02T00%3A00%3A00Z') : 'country=DE&country=DE';
        break;
      case 'repeat-page':
        query = list ? join(base, 'pageNo=1', 'pageNo=1') : 'x=1&x=1';
        break;
      case 'unknown':
        query = join(base, `zz${encodeURIComponent(flaw.text)}=1`);
        break;
      case 'odd-value':
        query = join(
          base,
          `${takes('currency') ? 'currency' : takes('country') ? 'country' : 'status'}=${percentEncodeAll(wtf8(flaw.text))}`,
        );
        break;
      case 'odd-name':
        query = join(base, `${percentEncodeAll(wtf8(flaw.text))}=1`);
        break;
      case 'page-size':
        query = join(base, `pageSize=${encodeURIComponent(flaw.text)}`);
        break;
      case 'page-no':
        query = join(base, `pageNo=${encodeURIComponent(flaw.text)}`);
        break;
      case 'bad-date':
        query = `createdFrom=${flaw.text}&createdTo=2026-01-02T00%3A00%3A00Z`;
        break;
      default:
        // A range the contract's format or the 31-day rule refuses.
        query = `createdFrom=${flaw.text}&createdTo=2026-01-02T00%3A00%3A00Z`;
    }
    return {operation, flaw, target: targetOf(operation, 'HX-query', query)};
  })
  .map(({operation, flaw, target}) => ({
    category: 'query parameters: repeated, unknown, odd, malformed',
    data: {target, flaw},
    shots: signedShot(operation, target, operation.bodySchemaPointer ? '{}' : undefined, ['INVALID_PARAMETER']),
  }));

/** Odd Unicode in the signing headers and beside them, as the bytes of its UTF-8 (WTF-8 for lone surrogates). */
const oddHeaders: fc.Arbitrary<Probe> = fc
  .record({
    lookup,
    text: oddHeaderText,
    header: fc.constantFrom(
      'X-Client-Id',
      'X-Nonce',
      'X-Timestamp',
      'X-Signature',
      'X-Hostile',
      'Content-Type',
      'Accept-Language',
      'User-Agent',
    ),
  })
  .map(({lookup: {operation, number}, text, header}) => ({
    category: 'odd Unicode in headers',
    data: {operationId: operation.operationId, header, text},
    shots: async (signer: Signer) => {
      const target = targetOf(operation, number);
      const value = byteString(wtf8(text));
      const headers: Record<string, string> = await signer.headers({
        method: 'GET',
        target,
        ...(header === 'X-Client-Id' ? {clientId: value} : {}),
      });
      if (header !== 'X-Client-Id') headers[header] = value;
      const bySigningHeader: Record<string, string> = {
        'X-Client-Id': 'UNKNOWN_CLIENT',
        'X-Nonce': 'INVALID_PARAMETER',
        'X-Timestamp': 'INVALID_PARAMETER',
        'X-Signature': 'INVALID_SIGNATURE',
      };
      const expect = bySigningHeader[header] ?? notFound(operation.operationId)[0] ?? '';
      return [{method: 'GET', target, headers, expect: [expect]}];
    },
  }));

/** Bodies that are not UTF-8 (lone surrogates as bytes, overlong forms), anywhere, or odd but valid UTF-8 in a body the contract refuses. */
const oddBodies: fc.Arbitrary<Probe> = fc
  .record({
    operation: fc.constantFrom(...bodyOperations),
    number: unknownNumber,
    bad: invalidUtf8,
    at: fc.nat(),
    text: oddText,
    control: fc.boolean(),
    utf8: fc.boolean(),
  })
  .map(({operation, number, bad, at, text, control, utf8}) => {
    const template = JSON.stringify(validBody(operation.operationId, number));
    if (utf8) {
      // merchant numbers, currencies, IBANs and the like have patterns: odd text in one is refused.
      const patterned = leaves(validBody(operation.operationId, number)).filter((path) =>
        /No$|[cC]urrency|iban|cardNumber|locale|expiresAt|authCode|[cC]ountry|payeeType|walletId|accountType|purpose|scene/.test(
          path.join('.'),
        ),
      );
      const path = patterned[at % Math.max(1, patterned.length)];
      const inField = path ? JSON.stringify(setAt(validBody(operation.operationId, number), path, text)) : undefined;
      // Where no field has a pattern (a free-text reason), the odd text names a member the closed schema refuses.
      const body =
        inField !== undefined && contractRefuses(operation.bodySchemaPointer ?? '', inField)
          ? inField
          : `${template.slice(0, -1)},${JSON.stringify(`x${text}`)}:1}`;
      return {
        category: 'odd Unicode in bodies',
        data: {operationId: operation.operationId, path, text},
        shots: signedShot(operation, targetOf(operation, number), body, bodyRefusals(operation.operationId)),
      };
    }
    const bytes = Buffer.from(template, 'utf8');
    const cut = at % bytes.length;
    const body = Buffer.concat([bytes.subarray(0, cut), bad, bytes.subarray(cut)]);
    const target = control ? '/_sandbox/faults' : targetOf(operation, number);
    return {
      category: 'bodies that are not UTF-8',
      data: {target, bad: [...bad], cut},
      // The server decodes before anything else: signed or not, the answer is the same.
      shots: async (signer: Signer) => [
        {
          method: control ? 'POST' : operation.method,
          target,
          headers: control ? {} : await signer.headers({method: operation.method, target, body: asSent(body)}),
          body,
          expect: ['INVALID_PARAMETER'],
        },
      ],
    };
  });

/** Broken percent-encoding in path parameters, signed (API) or not (control endpoints). */
const badPercent: fc.Arbitrary<Probe> = fc
  .record({
    operation: fc.constantFrom(...pathOperations),
    escape: fc.constantFrom('%', '%G1', '%E0%A4%A', '%ED%A0%80', '%C0%AF', '%FF', '%F0%9F%99', '%%', '%u00e9', '%2', '%DF%BF%BF'),
    prefix: fc.stringMatching(/^[A-Za-z0-9]{0,6}$/),
    control: fc.constantFrom(
      '',
      '/_sandbox/merchants/{}/keys',
      '/_sandbox/merchants/{}',
      '/_sandbox/chargebacks/{}/resolve',
      '/_sandbox/notifications/{}/redeliver',
      '/_sandbox/statements/{}',
    ),
  })
  .map(({operation, escape, prefix, control}) => ({
    category: 'percent-encoding errors',
    data: {operationId: operation.operationId, escape, control},
    shots: async (signer: Signer) => {
      const segment = `${prefix}${escape}`;
      if (control !== '') {
        const method = control.endsWith('{}') && control.includes('merchants') ? 'PATCH' : control.includes('statements') ? 'GET' : 'POST';
        return [
          {
            method,
            target: control.replace('{}', segment),
            headers: {},
            ...(method === 'GET' ? {} : {body: Buffer.from('{"zz":1}')}),
            expect: ['INVALID_PARAMETER'],
          },
        ];
      }
      const target = targetOf(operation, segment);
      const body = operation.bodySchemaPointer ? JSON.stringify(validBody(operation.operationId, 'HX-percent')) : undefined;
      return [
        {
          method: operation.method,
          target,
          headers: await signer.headers({method: operation.method, target, ...(body !== undefined ? {body} : {})}),
          ...(body !== undefined ? {body: Buffer.from(body)} : {}),
          expect: ['INVALID_PARAMETER'],
        },
      ];
    },
  }));

/** The control endpoints with what they cannot take; never a body or query they would act on. */
const controlGarbage: fc.Arbitrary<Probe> = fc
  .oneof(
    fc
      .tuple(
        fc.constantFrom(...controlRoutes.filter(([method]) => method !== 'GET')),
        fc.oneof(
          notAnObject,
          fc
            .dictionary(
              fc.string({minLength: 1, maxLength: 8}).map((name) => `zz${name}`),
              fc.jsonValue({maxDepth: 2}),
              {minKeys: 1, maxKeys: 3},
            )
            .map((value) => JSON.stringify(value)),
        ),
      )
      .map(([[method, target], body]) => ({method, target, body, expect: ['INVALID_PARAMETER']})),
    fc
      .tuple(
        fc.constantFrom('/_sandbox/ledger', '/_sandbox/balances', '/_sandbox/notifications', '/_sandbox/statements/2026-01-01'),
        fc.constantFrom(
          '',
          '?clientId=',
          '?clientId=a&clientId=b',
          '?zz=1',
          '?clientId=sandbox-merchant-0001&zz=1',
          '?clientId=%ED%A0%80',
          '?clientId=nobody-here',
          '?clientId=sandbox-merchant-0001&currency=usd',
          '?clientId=%00',
        ),
      )
      .map(([path, query]) => ({
        method: 'GET',
        target: `${path}${query}`,
        body: undefined,
        expect: ['INVALID_PARAMETER', 'UNKNOWN_CLIENT'],
      })),
    fc.constantFrom('2026-02-30', '2026-1-1', '20260101', '0000-00-00', 'today', '2026-01-01%00', '..%2F..%2Fetc').map((day) => ({
      method: 'GET',
      target: `/_sandbox/statements/${day}?clientId=sandbox-merchant-0001`,
      body: undefined,
      expect: ['INVALID_PARAMETER'],
    })),
  )
  // An empty body is {} to a control endpoint, and GET /_sandbox/notifications without a query lists every delivery: both would be obeyed.
  .filter(({method, target, body}) => (body === undefined || body !== '') && !(method === 'GET' && target === '/_sandbox/notifications'))
  .map(({method, target, body, expect}) => ({
    category: 'control endpoints with garbage',
    data: {method, target, body},
    shots: async () => [{method, target, headers: {}, ...(body !== undefined ? {body: Buffer.from(body, 'utf8')} : {}), expect}],
  }));

/** Bytes node:http will not send: NUL and control characters, broken framing, oversized heads, odd versions. */
const rawRequests: fc.Arbitrary<Probe> = fc
  .oneof(
    fc
      .tuple(
        fc.constantFrom('/v1/orders/', '/_sandbox/'),
        oddText,
        fc.constantFrom('\u0000', '\u0001', '\u007f', ' ', '\t', '\u00a0', '\u00ff'),
      )
      .map(([prefix, text, control]) => ({
        name: 'odd bytes in the request line',
        bytes: Buffer.concat([
          Buffer.from(`GET ${prefix}`),
          wtf8(text),
          Buffer.from(control, 'latin1'),
          Buffer.from(' HTTP/1.1\r\nHost: sandbox\r\n\r\n'),
        ]),
        expect: ['INVALID_PARAMETER'],
      })),
    fc
      .tuple(
        fc.constantFrom('X-Client-Id', 'X-Nonce', 'X-Signature', 'Content-Type'),
        fc.constantFrom('\u0000', '\u0001', '\u000b', '\u007f', '\r'),
      )
      .map(([name, control]) => ({
        name: 'control bytes in a header',
        bytes: Buffer.from(`GET /v1/balances HTTP/1.1\r\nHost: sandbox\r\n${name}: a${control}b\r\n\r\n`, 'latin1'),
        expect: ['INVALID_PARAMETER'],
      })),
    fc
      .constantFrom(
        'GET /v1/balances HTTP/1.1\nHost: sandbox\n\n',
        'GET /v1/balances HTTP/9.9\r\nHost: sandbox\r\n\r\n',
        'GET /v1/balances HTTP/1.1\r\nHost: sandbox\r\nX-Folded: a\r\n b\r\n\r\n',
        'GET /v1/balances HTTP/1.1\r\nHost: sandbox\r\nBad Header: x\r\n\r\n',
        'GET /v1/balances HTTP/1.1\r\nHost: sandbox\r\n: empty\r\n\r\n',
        'POST /v1/orders HTTP/1.1\r\nHost: sandbox\r\nContent-Length: 5\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n',
        'POST /v1/orders HTTP/1.1\r\nHost: sandbox\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n{}\r\n0\r\n\r\n',
        'POST /v1/orders HTTP/1.1\r\nHost: sandbox\r\nContent-Length: -1\r\n\r\n',
        'POST /v1/orders HTTP/1.1\r\nHost: sandbox\r\nContent-Length: 1, 2\r\n\r\n{}',
        'POST /v1/orders HTTP/1.1\r\nHost: sandbox\r\nContent-Length: abc\r\n\r\n',
        'POST /v1/orders HTTP/1.1\r\nHost: sandbox\r\nTransfer-Encoding: gzip, chunked, identity\r\n\r\n0\r\n\r\n',
        'GET http://sandbox/v1/balances HTTP/1.1\r\nHost: sandbox\r\n\r\n',
        'GET /v1/balances HTTP/1.0\r\n\r\n',
        'OPTIONS * HTTP/1.1\r\nHost: sandbox\r\n\r\n',
        '\r\n\r\nGET /v1/balances HTTP/1.1\r\nHost: sandbox\r\n\r\n',
        'GET  /v1/balances  HTTP/1.1\r\nHost: sandbox\r\n\r\n',
        'G\u00c9T /v1/balances HTTP/1.1\r\nHost: sandbox\r\n\r\n',
        'POST /_sandbox/faults HTTP/1.1\r\nHost: sandbox\r\nContent-Length: 99999999999999999999\r\n\r\n{}',
        `POST /_sandbox/faults HTTP/1.1\r\nHost: sandbox\r\nContent-Length: ${requestBodyLimitBytes + 1}\r\n\r\n{}`,
        'GET /v1/balances HTTP/1.1\r\nHost: sandbox\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n\r\n',
        'POST /v1/orders HTTP/1.1\r\nHost: sandbox\r\nExpect: 100-continue\r\nContent-Length: 2\r\n\r\n{}',
      )
      .map((text) => ({
        name: text.split('\r\n')[0] ?? text,
        bytes: Buffer.from(text, 'latin1'),
        expect: ['INVALID_PARAMETER', 'REQUEST_TOO_LARGE'],
      })),
    fc.integer({min: 17, max: 64}).map((kib) => ({
      name: `a ${kib} KiB header`,
      bytes: Buffer.from(`GET /v1/balances HTTP/1.1\r\nHost: sandbox\r\nX-Pad: ${'a'.repeat(kib * 1024)}\r\n\r\n`),
      expect: ['INVALID_PARAMETER'],
    })),
  )
  .map(({name, bytes, expect}) => ({
    category: 'byte-level HTTP',
    data: {name, bytes: bytes.subarray(0, 200).toString('latin1')},
    shots: async () => [{method: '', target: '', headers: {}, raw: bytes, expect}],
  }));

const hostileProbe: fc.Arbitrary<Probe> = fc.oneof(
  {arbitrary: badJson, weight: 8},
  {arbitrary: wrongTypes, weight: 14},
  {arbitrary: deepNesting, weight: 3},
  {arbitrary: signatureHeaders, weight: 10},
  {arbitrary: timestamps, weight: 8},
  {arbitrary: replays, weight: 6},
  {arbitrary: signedOverOther, weight: 8},
  {arbitrary: oversized, weight: 4},
  {arbitrary: unknownRoutes, weight: 8},
  {arbitrary: oddPaths, weight: 6},
  {arbitrary: queries, weight: 10},
  {arbitrary: oddHeaders, weight: 6},
  {arbitrary: oddBodies, weight: 6},
  {arbitrary: badPercent, weight: 5},
  {arbitrary: controlGarbage, weight: 6},
  {arbitrary: rawRequests, weight: 2},
);

// ---- Checking an answer ------------------------------------------------------------------------------

/**
 * The request line and signing headers as the server reads them (repeated headers joined, a missing one
 * empty), which every API answer is bound to, valid or not. Undefined for the control endpoints (unsigned
 * by design) and for raw bytes, whose request line this side cannot reproduce as node:http read it.
 */
function signedAs(shot: Shot): {method: string; target: string; clientId: string; timestamp: string; nonce: string} | undefined {
  if (shot.raw || shot.target.startsWith('/_sandbox')) return undefined;
  const header = (name: string) => {
    const value = Object.entries(shot.headers).find(([key]) => key.toLowerCase() === name)?.[1];
    // node:http trims spaces and tabs around a header value, and joins a repeated header with ", ".
    const trim = (part: string) => part.replace(/^[ \t]+|[ \t]+$/g, '');
    return value === undefined ? '' : typeof value === 'string' ? trim(value) : value.map(trim).join(', ');
  };
  // node:http's client sends the method in upper case, whatever case it was given.
  return {
    method: shot.method.toUpperCase(),
    target: shot.target,
    clientId: header('x-client-id'),
    timestamp: header('x-timestamp'),
    nonce: header('x-nonce'),
  };
}

/** How the server's answer to a request node:http could not parse begins. */
const unparsedMessage = 'The request is not HTTP this server can read';

/** What is wrong with an answer, by the rules every answer of the server must follow. */
async function problemsOf(shot: Shot, answer: Answer): Promise<string[]> {
  if ('error' in answer) return [`no answer: ${answer.error}`];
  const problems: string[] = [];
  if (answer.status >= 500) problems.push(`status ${answer.status}`);
  if (!/^application\/json/.test(answer.headers['content-type'] ?? ''))
    problems.push(`Content-Type ${answer.headers['content-type'] ?? '(none)'}`);
  // A HEAD answer has no body by HTTP's rules; its status and headers are checked.
  if (shot.method === 'HEAD') return answer.status === 400 ? problems : [...problems, `HEAD answered ${answer.status}`];
  const text = answer.body.toString('utf8');
  let envelope: {code?: unknown; message?: unknown; requestId?: unknown};
  try {
    envelope = JSON.parse(text) as typeof envelope;
  } catch {
    return [...problems, `not JSON: ${text.slice(0, 120)}`];
  }
  const code = String(envelope.code);
  const httpStatus = catalogue.get(code);
  if (httpStatus === undefined) problems.push(`code ${code} is not in x-result-codes`);
  else if (httpStatus !== answer.status) problems.push(`${code} answered with HTTP ${answer.status}, the contract says ${httpStatus}`);
  if (!shot.expect.includes(code))
    problems.push(`${code} (${String(envelope.message).slice(0, 160)}), expected ${shot.expect.join(' or ')}`);
  const pointer = answer.status === 200 ? operationPointerFor(shot.method, shot.target) : undefined;
  problems.push(
    ...validator
      .problems(pointer ? `${pointer}/responses/200/content/application~1json/schema` : errorSchema, envelope)
      .map((problem) => `envelope ${problem}`),
  );
  // Every answer carries X-Request-Id, the body's requestId.
  const requestIdHeader = answer.headers['x-request-id'];
  if (requestIdHeader !== envelope.requestId)
    problems.push(`X-Request-Id ${requestIdHeader ?? '(none)'} for requestId ${String(envelope.requestId)}`);
  // Every API answer is signed, pre-authentication refusals included (I-2, D9). Only what node:http cannot
  // parse never reaches the engine, so nothing binds its answer to a request: unsigned.
  const unparsed = String(envelope.message).startsWith(unparsedMessage);
  const signed = unparsed ? undefined : signedAs(shot);
  if (signed) {
    const response = {
      status: answer.status,
      headers: {
        'X-Signature': answer.headers['x-signature'] ?? '',
        'X-Timestamp': answer.headers['x-timestamp'] ?? '',
        'X-Nonce': answer.headers['x-nonce'] ?? '',
      },
      body: text,
    };
    problems.push(...(await responseProblems(signed, response, undefined)));
  } else if (
    !unparsed &&
    !(shot.raw ? (shot.raw.toString('latin1').split(' ')[1] ?? '') : shot.target).startsWith('/_sandbox') &&
    !answer.headers['x-signature']
  ) {
    problems.push('an API answer without X-Signature');
  }
  return problems;
}

// ---- The run -----------------------------------------------------------------------------------------

interface Tally {
  requests: number;
  byCategory: Map<string, number>;
  byCode: Map<string, number>;
  byStatus: Map<number, number>;
  failures: string[];
  failureCount: number;
  noAnswer: number;
}

async function runProbes(port: number, signer: Signer, probes: readonly Probe[]): Promise<Tally> {
  const agent = new http.Agent({keepAlive: true, maxSockets: concurrency});
  const tally: Tally = {
    requests: 0,
    byCategory: new Map(),
    byCode: new Map(),
    byStatus: new Map(),
    failures: [],
    failureCount: 0,
    noAnswer: 0,
  };
  let next = 0;
  const worker = async () => {
    for (let index = next++; index < probes.length; index = next++) {
      const probe = probes[index] as Probe;
      for (const shot of await probe.shots(signer)) {
        const answer = shot.raw ? await sendRaw(port, shot.raw) : await sendWithAgent(port, agent, shot);
        tally.requests += 1;
        tally.byCategory.set(probe.category, (tally.byCategory.get(probe.category) ?? 0) + 1);
        if ('error' in answer) tally.noAnswer += 1;
        else {
          const code =
            shot.method === 'HEAD'
              ? 'HEAD (no body)'
              : String((/"code":"([A-Z_]+)"/.exec(answer.body.toString('utf8')) ?? [])[1] ?? `HTTP ${answer.status}`);
          tally.byCode.set(code, (tally.byCode.get(code) ?? 0) + 1);
          tally.byStatus.set(answer.status, (tally.byStatus.get(answer.status) ?? 0) + 1);
        }
        const problems = await problemsOf(shot, answer);
        if (problems.length > 0) {
          tally.failureCount += 1;
          if (tally.failures.length < 25)
            tally.failures.push(
              `${probe.category}: ${shot.raw ? JSON.stringify(shot.raw.subarray(0, 160).toString('latin1')) : `${shot.method} ${JSON.stringify(shot.target)}`}\n    ${problems.join('\n    ')}\n    probe: ${JSON.stringify(probe.data).slice(0, 400)}`,
            );
        }
      }
    }
  };
  await Promise.all(Array.from({length: concurrency}, worker));
  agent.destroy();
  return tally;
}

describe('the sandbox server under hostile input', () => {
  let engine: SandboxEngine;
  let server: SandboxServer;
  let signer: Signer;
  const serverLog: string[] = [];

  before(async () => {
    engine = await createNodeEngine({rateLimits: false});
    server = await startSandboxServer({engine, port: 0, log: (line) => (line.startsWith('sandbox: ') ? serverLog.push(line) : undefined)});
    // The foreign key: the provider's test key, a real 2048-bit key the merchant never registered (a fixture, not
    // a key generated per run: generating one cost more CPU than the rest of this setup).
    signer = makeSigner(engine, await importPrivateKey(files.merchantPrivateKeyPem), await importPrivateKey(files.providerPrivateKeyPem));
  });
  after(() => server.close());

  test(`answers ${probeCount.toLocaleString('en')} generated hostile probes with documented errors only (seed from HOSTILE_SEED or random)`, async (t) => {
    const probes = fc.sample(hostileProbe, {numRuns: probeCount, seed});
    const started = Date.now();
    const tally = await runProbes(server.port, signer, probes);
    const seconds = (Date.now() - started) / 1000;
    t.diagnostic(
      `seed ${seed}: ${tally.requests} requests in ${seconds.toFixed(1)} s (${Math.round(tally.requests / seconds)}/s), ${concurrency} keep-alive clients`,
    );
    t.diagnostic(`by category: ${[...tally.byCategory].map(([category, count]) => `${category} ${count}`).join('; ')}`);
    t.diagnostic(
      `by status: ${[...tally.byStatus]
        .sort((a, b) => a[0] - b[0])
        .map(([status, count]) => `${status} ${count}`)
        .join(', ')}`,
    );
    t.diagnostic(
      `by code: ${[...tally.byCode]
        .sort((a, b) => b[1] - a[1])
        .map(([code, count]) => `${code} ${count}`)
        .join(', ')}`,
    );
    assert.ok(tally.requests >= probeCount, `only ${tally.requests} requests were sent for ${probeCount} probes`);
    assert.deepEqual(
      tally.failures,
      [],
      `${tally.failureCount} of ${tally.requests} answers broke the rules (${tally.noAnswer} without an answer); replay with HOSTILE_SEED=${seed}:\n${tally.failures.join('\n')}`,
    );
    assert.deepEqual(serverLog, [], 'nothing failed inside the server');
    assert.deepEqual(
      [...tally.byStatus.keys()].filter((status) => status >= 500),
      [],
      'no 5xx at all',
    );
    assert.equal(tally.noAnswer, 0, 'every request was answered: no reset, no timeout');
  });

  test('still creates and retrieves an order, signed both ways, and answers /_sandbox/health', async () => {
    const agent = new http.Agent({keepAlive: true});
    try {
      const merchantOrderNo = `ORD-${randomUUID().slice(0, 18)}`;
      const body = JSON.stringify({
        merchantOrderNo,
        amount: {value: 1000, currency: 'USD'},
        scene: 'HOSTED_PAYPAGE',
        subject: 'After the storm \u200f🙂',
        returnUrl: 'https://shop.example.com/return',
      });
      for (const [method, target, sent, operation] of [
        ['POST', '/v1/orders', body, 'createOrder'],
        ['GET', `/v1/orders/${merchantOrderNo}`, undefined, 'retrieveOrderDetail'],
      ] as const) {
        const headers = await signer.headers({method, target, ...(sent !== undefined ? {body: sent} : {})});
        const shot: Shot = {
          method,
          target,
          headers: {...headers, 'Content-Type': 'application/json'},
          ...(sent !== undefined ? {body: Buffer.from(sent)} : {}),
          expect: ['SUCCESS'],
        };
        const answer = await sendWithAgent(server.port, agent, shot);
        assert.ok(!('error' in answer), `${operation}: ${'error' in answer ? answer.error : ''}`);
        assert.deepEqual(await problemsOf(shot, answer), [], operation);
        const text = answer.body.toString('utf8');
        const response = {
          status: answer.status,
          headers: {
            'X-Signature': answer.headers['x-signature'] ?? '',
            'X-Timestamp': answer.headers['x-timestamp'] ?? '',
            'X-Nonce': answer.headers['x-nonce'] ?? '',
          },
          body: text,
        };
        const signed = {method, target, clientId: merchant, timestamp: headers['X-Timestamp'] ?? '', nonce: headers['X-Nonce'] ?? ''};
        assert.deepEqual(
          await responseProblems(signed, response, operationPointerFor(method, target)),
          [],
          `${operation}: the response is signed and valid against the contract`,
        );
        const order = (JSON.parse(text) as {data: {order?: {subject: string}; subject?: string}}).data;
        assert.equal(
          order.order?.subject ?? order.subject,
          'After the storm \u200f🙂',
          'odd Unicode in a field the contract allows round-trips',
        );
      }
      const health = await sendWithAgent(server.port, agent, {method: 'GET', target: '/_sandbox/health', headers: {}, expect: []});
      assert.ok(!('error' in health) && health.status === 200, 'health answers');
      assert.equal((JSON.parse(health.body.toString('utf8')) as {ok: boolean}).ok, true);
    } finally {
      agent.destroy();
    }
  });
});

describe('rate limits, when on', () => {
  test('answer 429 RATE_LIMITED with Retry-After once a class is over its limit in a second', async () => {
    const engine = await createNodeEngine({rateLimits: true});
    const server = await startSandboxServer({engine, port: 0});
    const agent = new http.Agent({keepAlive: true, maxSockets: 16});
    try {
      const signer = makeSigner(
        engine,
        await importPrivateKey(files.merchantPrivateKeyPem),
        await importPrivateKey(files.merchantPrivateKeyPem),
      );
      const lists = spec.rateLimits.find((entry) => entry.name === 'lists');
      assert.ok(lists, 'the contract has a lists class');
      // Twice the limit plus one, at once: whichever second they fall in, one second gets more than the limit.
      const target = `/v1/orders?${rangeQuery}`;
      const answers = await Promise.all(
        Array.from({length: 2 * lists.perSecond + 2}, async () => {
          const shot: Shot = {
            method: 'GET',
            target,
            headers: await signer.headers({method: 'GET', target}),
            expect: ['SUCCESS', 'RATE_LIMITED'],
          };
          const answer = await sendWithAgent(server.port, agent, shot);
          assert.deepEqual(await problemsOf(shot, answer), []);
          return answer;
        }),
      );
      const limited = answers.filter((answer) => !('error' in answer) && answer.status === 429);
      assert.ok(limited.length > 0, 'some calls were refused');
      for (const answer of limited) {
        assert.ok(!('error' in answer));
        assert.equal((JSON.parse(answer.body.toString('utf8')) as {code: string}).code, 'RATE_LIMITED');
        assert.match(answer.headers['retry-after'] ?? '', /^[1-9]\d*$/, 'Retry-After in whole seconds');
        assert.equal(answer.headers['ratelimit-limit'], String(lists.perSecond));
        assert.equal(answer.headers['ratelimit-remaining'], '0');
      }
      assert.ok(
        answers.some((answer) => !('error' in answer) && answer.status === 200),
        'the calls within the limit were answered',
      );
    } finally {
      agent.destroy();
      await server.close();
    }
  });
});

/**
 * Defects this file found, each reproduced once, each fixed: these hold the fixes.
 */
describe('defects this file found, each fixed and held by a test', () => {
  let server: SandboxServer;
  let signer: Signer;
  before(async () => {
    const engine = await createNodeEngine({rateLimits: false});
    server = await startSandboxServer({engine, port: 0});
    signer = makeSigner(engine, await importPrivateKey(files.merchantPrivateKeyPem), await importPrivateKey(files.merchantPrivateKeyPem));
  });
  after(() => server.close());

  const envelopeOf = async (shot: Shot) => {
    const answer = shot.raw ? await sendRaw(server.port, shot.raw) : await sendWithAgent(server.port, new http.Agent(), shot);
    return {answer, problems: await problemsOf(shot, answer)};
  };

  test('CONNECT gets the envelope, not a closed connection (server: no "connect" listener)', async () => {
    const {problems} = await envelopeOf({
      method: '',
      target: '',
      headers: {},
      raw: Buffer.from('CONNECT sandbox:443 HTTP/1.1\r\nHost: sandbox:443\r\n\r\n'),
      expect: ['INVALID_PARAMETER'],
    });
    assert.deepEqual(problems, []);
  });

  test('an HTTP/1.1 request without Host gets the envelope, not a bare 400 with an empty body', async () => {
    const {problems} = await envelopeOf({
      method: '',
      target: '',
      headers: {},
      raw: Buffer.from('GET /v1/balances HTTP/1.1\r\n\r\n'),
      expect: ['INVALID_PARAMETER'],
    });
    assert.deepEqual(problems, []);
  });

  test('an Expect header other than 100-continue gets the envelope, not a bare 417 (not a status of the contract)', async () => {
    const {problems} = await envelopeOf({
      method: '',
      target: '',
      headers: {},
      raw: Buffer.from('POST /v1/orders HTTP/1.1\r\nHost: sandbox\r\nExpect: bogus\r\nContent-Length: 2\r\n\r\n{}'),
      expect: ['INVALID_PARAMETER'],
    });
    assert.deepEqual(problems, []);
  });

  test('a pageNo too large for a number is refused, not answered with pagination.pageNo null', async () => {
    const target = `/v1/refunds?${rangeQuery}&pageNo=${'9'.repeat(400)}`;
    const shot: Shot = {method: 'GET', target, headers: await signer.headers({method: 'GET', target}), expect: ['INVALID_PARAMETER']};
    const {problems} = await envelopeOf(shot);
    assert.deepEqual(problems, []);
  });

  test('an impossible calendar date in X-Timestamp is INVALID_PARAMETER, as the contract says of a malformed one', async () => {
    const target = '/v1/balances';
    const shot: Shot = {
      method: 'GET',
      target,
      headers: await signer.headers({method: 'GET', target, timestamp: '2026-02-30T10:00:00Z'}),
      expect: ['INVALID_PARAMETER'],
    };
    const {problems} = await envelopeOf(shot);
    assert.deepEqual(problems, []);
  });

  test('the answer to a request node:http cannot parse carries X-Request-Id like every other answer', async () => {
    const answer = await sendRaw(server.port, Buffer.from('GET /v1/balances HTTP/9.9\r\nHost: sandbox\r\n\r\n'));
    assert.ok(!('error' in answer));
    assert.equal(answer.headers['x-request-id'], (JSON.parse(answer.body.toString('utf8')) as {requestId: string}).requestId);
  });

  test("the server's own answers to a signed API call (413, a body that is not UTF-8) are signed like the engine's", async () => {
    for (const body of [Buffer.alloc(requestBodyLimitBytes + 1, ' '), Buffer.from([0x7b, 0xed, 0xa0, 0x80, 0x7d])]) {
      const target = '/v1/orders';
      const headers = await signer.headers({method: 'POST', target, body: asSent(body)});
      const answer = await sendWithAgent(server.port, new http.Agent(), {method: 'POST', target, headers, body, expect: []});
      assert.ok(!('error' in answer));
      const response = {
        status: answer.status,
        headers: {
          'X-Signature': answer.headers['x-signature'] ?? '',
          'X-Timestamp': answer.headers['x-timestamp'] ?? '',
          'X-Nonce': answer.headers['x-nonce'] ?? '',
        },
        body: answer.body.toString('utf8'),
      };
      assert.deepEqual(
        await responseProblems(
          {method: 'POST', target, clientId: merchant, timestamp: headers['X-Timestamp'] ?? '', nonce: headers['X-Nonce'] ?? ''},
          response,
          undefined,
        ),
        [],
        `HTTP ${answer.status}`,
      );
    }
  });

  test('a "__proto__" member is refused like any unknown member of a closed request schema', async () => {
    const target = '/v1/orders';
    const body = `${JSON.stringify({merchantOrderNo: `ORD-${randomUUID().slice(0, 18)}`, amount: {value: 1000, currency: 'USD'}, scene: 'HOSTED_PAYPAGE', subject: 'Proto', returnUrl: 'https://shop.example.com/return'}).slice(0, -1)},"__proto__":{"admin":true}}`;
    const shot: Shot = {
      method: 'POST',
      target,
      headers: await signer.headers({method: 'POST', target, body}),
      body: Buffer.from(body),
      expect: ['INVALID_PARAMETER'],
    };
    const {problems} = await envelopeOf(shot);
    assert.deepEqual(problems, []);
  });
});
