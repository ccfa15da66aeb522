/**
 * The sandbox's local HTTP server (npm run sandbox, or the downloaded veloxa-sandbox.mjs): the API at /v1/... as the engine answers it, the
 * control endpoints under /_sandbox/ (listed in `controlEndpoints`, printed by --help), and a timer that
 * runs the engine's jobs on the sandbox clock, so delays, expiry and notification retries happen while
 * you watch.
 *
 * Control endpoints take and give JSON and are not signed: they are the sandbox's test tools, for
 * localhost. Their errors use the API's envelope {code, message, requestId}, with the HTTP status the
 * contract gives the code, so a client handles both the same way.
 *
 * Nothing a client sends makes this server fail: a body over the limit is 413 REQUEST_TOO_LARGE, a body
 * that is not UTF-8 or not the JSON an endpoint takes is 400 INVALID_PARAMETER, and anything unexpected
 * is caught and answered with INTERNAL_ERROR instead of ending the process.
 */
import http, {type IncomingMessage, type ServerResponse} from 'node:http';
import https from 'node:https';
import type {AddressInfo, Socket} from 'node:net';
import {dayStart, isoSeconds, utcDay} from '../engine/clock';
import type {ActionResult, PaymentMethodChoice, SandboxEngine} from '../engine/engine';
import type {DeliveryResult, NotificationTransport} from '../engine/http';
import {randomId} from '../engine/ids';
import {matchOperation, pathOf} from '../engine/pipeline/route';
import {brand} from '../../brand';
import {sandboxFiles} from './loadEngine';

/** The contract's limit on a request body (REQUEST_TOO_LARGE): 64 KiB. */
export const requestBodyLimitBytes = 65_536;
/** The limit for POST /_sandbox/import alone: an exported state holds every record, far more than one request. */
export const importBodyLimitBytes = 64 * 1024 * 1024;
/** How often the job timer looks at the clock when no job is due sooner. */
const jobPollMs = 200;
/** One step of /_sandbox/clock/advance at most: a year; far larger steps would run the clock past what Date can show. */
const maxAdvanceSeconds = 366 * 86_400;
/** How much of a notification receiver's answer is read: an acknowledgement is a few bytes. */
const maxAcknowledgementBytes = 64 * 1024;

export interface SandboxServerOptions {
  readonly engine: SandboxEngine;
  /** 0 picks a free port; SandboxServer.port tells which. */
  readonly port: number;
  readonly host?: string;
  readonly bodyLimitBytes?: number;
  /** One line per request, and what goes wrong inside the server. */
  readonly log?: (line: string) => void;
}

export interface SandboxServer {
  readonly port: number;
  /** http://host:port, without a trailing slash. */
  readonly url: string;
  /** Stops accepting requests, answers those under way, and waits for the job timer and pending commits. */
  close(): Promise<void>;
}

/** The control endpoints: what --help prints and what the server routes. */
export const controlEndpoints = [
  {method: 'GET', path: '/_sandbox/health', input: '', does: 'answers {ok, contractVersion, now}'},
  {method: 'POST', path: '/_sandbox/reset', input: '', does: 'forgets everything; the test merchant starts again'},
  {method: 'GET', path: '/_sandbox/clock', input: '', does: 'answers {now}, the sandbox clock'},
  {method: 'POST', path: '/_sandbox/clock/advance', input: '{seconds}', does: 'moves the clock on, running what falls due; answers {now, jobsRun}'},
  {method: 'POST', path: '/_sandbox/merchants', input: '{clientId?, publicKeyPem, keyVersion?, defaultNotifyUrl?}', does: 'registers a merchant with your key'},
  {method: 'PATCH', path: '/_sandbox/merchants/{clientId}', input: '{defaultNotifyUrl?, compressedRetries?}', does: 'default notification URL (http allowed), 300-second retries'},
  {method: 'POST', path: '/_sandbox/merchants/{clientId}/keys', input: '{keyVersion, publicKeyPem}', does: 'adds a key version'},
  {method: 'POST', path: '/_sandbox/shopper/pay', input: '{clientId, merchantOrderNo, method, phone?, pin?, cardNumber?}', does: 'the customer pays (WALLET, CARD, BANK_TRANSFER, CASH)'},
  {method: 'POST', path: '/_sandbox/shopper/cash', input: '{clientId, paymentReference}', does: 'a store takes cash for a CASH_TOP_UP order'},
  {method: 'POST', path: '/_sandbox/shopper/scan', input: '{clientId, qrContent, phone, pin}', does: 'the customer scans a DYNAMIC_QR code'},
  {method: 'POST', path: '/_sandbox/shopper/abandon', input: '{clientId, merchantOrderNo}', does: 'the customer leaves the cashier'},
  {method: 'POST', path: '/_sandbox/shopper/agreements/authorize', input: '{clientId, merchantAgreementNo, wallet, approve?}', does: 'the customer approves (or declines) an agreement'},
  {method: 'POST', path: '/_sandbox/shopper/agreements/cancel', input: '{clientId, merchantAgreementNo}', does: 'the customer ends an agreement in the wallet'},
  {method: 'POST', path: '/_sandbox/shopper/auth-code', input: '{clientId, wallet}', does: 'a one-time wallet auth code; answers {authCode}'},
  {method: 'POST', path: '/_sandbox/chargebacks', input: '{clientId, merchantOrderNo, reasonCode?, amount?}', does: 'opens a chargeback'},
  {method: 'POST', path: '/_sandbox/chargebacks/{chargebackId}/resolve', input: '{clientId, resolution}', does: 'decides a chargeback: WON or LOST'},
  {method: 'POST', path: '/_sandbox/vam-top-ups', input: '{clientId, iban, amount, payerName?}', does: 'a bank transfer arrives on a virtual account'},
  {method: 'POST', path: '/_sandbox/faults', input: '{resultCode, operationId?, count?}', does: 'answers the next calls with SYSTEM_BUSY or INTERNAL_ERROR'},
  {method: 'GET', path: '/_sandbox/notifications', input: '?clientId=', does: 'every notification delivery attempt; answers {deliveries}'},
  {method: 'POST', path: '/_sandbox/notifications/simulate', input: '{clientId, operationId, scenario, data?, notifyUrl?}', does: 'a signed notification of a contract example, delivered now; answers {notificationId, ..., delivery}'},
  {method: 'POST', path: '/_sandbox/notifications/{notificationId}/redeliver', input: '{clientId}', does: 'delivers an event again now'},
  {method: 'GET', path: '/_sandbox/statements/{date}', input: '?clientId=&currency=', does: 'the statement file (gzip, X-Sha256 header)'},
  {method: 'GET', path: '/_sandbox/ledger', input: '?clientId=', does: 'the ledger; answers {clientId, entries}'},
  {method: 'GET', path: '/_sandbox/balances', input: '?clientId=', does: 'balances by currency; answers {clientId, balances}'},
  {method: 'GET', path: '/_sandbox/export', input: '', does: 'the whole state as one JSON document (format veloxa-sandbox-state)'},
  {method: 'POST', path: '/_sandbox/import', input: '<an export>', does: 'replaces the whole state with an export; answers {ok, merchants, records}'},
] as const;

/** "POST /_sandbox/reset" and so on: one key per endpoint (distributed over the list, not a cross product). */
type EndpointKey<E = (typeof controlEndpoints)[number]> = E extends {method: infer M extends string; path: infer P extends string} ? `${M} ${P}` : never;

interface Reply {
  readonly status: number;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: string | Uint8Array;
  readonly holdSeconds?: number;
}

interface ControlCall {
  readonly params: Readonly<Record<string, string>>;
  readonly query: URLSearchParams;
  readonly body: string;
}

/** A request the server refuses itself, with a documented code. */
class Refusal extends Error {
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

const invalid = (message: string) => new Refusal('INVALID_PARAMETER', message);

function statusOf(code: string): number {
  return sandboxFiles().spec.resultCodes[code]?.httpStatus ?? 500;
}

function errorReply(code: string, message: string): Reply {
  const requestId = randomId('req_', 20);
  return {status: statusOf(code), headers: {'Content-Type': 'application/json', 'X-Request-Id': requestId}, body: JSON.stringify({code, message, requestId})};
}

function jsonReply(value: unknown): Reply {
  return {status: 200, headers: {'Content-Type': 'application/json'}, body: JSON.stringify(value)};
}

function actionReply<T>(result: ActionResult<T>, view: (value: T) => unknown = (value) => value): Reply {
  return result.ok ? jsonReply(view(result.value)) : errorReply(result.code, result.message);
}

/** The members of a control request (a JSON body or a query string), read by name with the field named in every refusal. */
class Fields {
  private constructor(private readonly values: Readonly<Record<string, unknown>>) {}

  static body(raw: string, allowed: readonly string[]): Fields {
    let parsed: unknown;
    try {
      parsed = JSON.parse(raw === '' ? '{}' : raw);
    } catch {
      throw invalid('The body is not valid JSON.');
    }
    if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) throw invalid('The body must be a JSON object.');
    return new Fields(parsed as Record<string, unknown>).only(allowed, 'member');
  }

  static query(query: URLSearchParams, allowed: readonly string[]): Fields {
    const values: Record<string, string> = {};
    for (const [name, value] of query) {
      if (Object.hasOwn(values, name)) throw invalid(`The query parameter ${name.slice(0, 40)} is given more than once.`);
      values[name] = value;
    }
    return new Fields(values).only(allowed, 'query parameter');
  }

  private only(allowed: readonly string[], kind: string): this {
    const unknown = Object.keys(this.values).find((name) => !allowed.includes(name));
    if (unknown !== undefined) throw invalid(`Unknown ${kind} "${unknown.slice(0, 40)}"; this endpoint takes ${allowed.join(', ') || 'none'}.`);
    return this;
  }

  string(name: string): string {
    const value = this.values[name];
    if (typeof value !== 'string' || value === '') throw invalid(`${name} is required: a non-empty string.`);
    return value;
  }

  optionalString(name: string): string | undefined {
    return this.values[name] === undefined ? undefined : this.string(name);
  }

  /** A string, null (to remove a setting), or absent. */
  nullableString(name: string): string | null | undefined {
    return this.values[name] === null ? null : this.optionalString(name);
  }

  integer(name: string): number {
    const value = this.values[name];
    if (typeof value !== 'number' || !Number.isSafeInteger(value)) throw invalid(`${name} is required: an integer.`);
    return value;
  }

  optionalInteger(name: string): number | undefined {
    return this.values[name] === undefined ? undefined : this.integer(name);
  }

  number(name: string, min: number, max: number): number {
    const value = this.values[name];
    if (typeof value !== 'number' || !(value >= min && value <= max)) throw invalid(`${name} is required: a number from ${min} to ${max}.`);
    return value;
  }

  /** A JSON object, or absent. */
  optionalObject(name: string): Record<string, unknown> | undefined {
    const value = this.values[name];
    if (value === undefined) return undefined;
    if (typeof value !== 'object' || value === null || Array.isArray(value)) throw invalid(`${name} must be a JSON object.`);
    return value as Record<string, unknown>;
  }

  optionalBoolean(name: string): boolean | undefined {
    const value = this.values[name];
    if (value !== undefined && typeof value !== 'boolean') throw invalid(`${name} must be true or false.`);
    return value as boolean | undefined;
  }

  choice<const T extends string>(name: string, options: readonly T[]): T {
    const value = this.values[name];
    if (!options.includes(value as T)) throw invalid(`${name} must be one of ${options.join(', ')}.`);
    return value as T;
  }
}

function paymentChoice(fields: Fields): PaymentMethodChoice {
  const method = fields.choice('method', ['WALLET', 'CARD', 'BANK_TRANSFER', 'CASH']);
  if (method === 'WALLET') return {method, phone: fields.string('phone'), pin: fields.string('pin')};
  if (method === 'CARD') return {method, cardNumber: fields.string('cardNumber')};
  return {method};
}

/** The control endpoints' handlers, over one engine. `exclusive` keeps clock moves and resets apart from the job timer. */
function controlHandlers(engine: SandboxEngine, exclusive: <T>(work: () => Promise<T>) => Promise<T>): Record<EndpointKey, (call: ControlCall) => Reply | Promise<Reply>> {
  const {spec} = sandboxFiles();
  const knownClient = (clientId: string): string => {
    if (!engine.merchantIds().includes(clientId)) throw new Refusal('UNKNOWN_CLIENT', `No sandbox merchant ${clientId.slice(0, 64)}.`);
    return clientId;
  };
  return {
    'GET /_sandbox/health': () => jsonReply({ok: true, contractVersion: spec.contractVersion, now: isoSeconds(engine.clock.now())}),

    'POST /_sandbox/reset': async ({body}) => {
      Fields.body(body, []);
      await exclusive(() => engine.control.reset());
      return jsonReply({ok: true});
    },

    'GET /_sandbox/clock': () => jsonReply({now: isoSeconds(engine.clock.now())}),

    'POST /_sandbox/clock/advance': async ({body}) => {
      const seconds = Fields.body(body, ['seconds']).number('seconds', 0, maxAdvanceSeconds);
      const jobsRun = await exclusive(() => engine.advance(seconds));
      return jsonReply({now: isoSeconds(engine.clock.now()), jobsRun});
    },

    'POST /_sandbox/merchants': async ({body}) => {
      const fields = Fields.body(body, ['clientId', 'publicKeyPem', 'keyVersion', 'defaultNotifyUrl']);
      const clientId = fields.optionalString('clientId');
      const keyVersion = fields.optionalInteger('keyVersion');
      const defaultNotifyUrl = fields.nullableString('defaultNotifyUrl');
      return actionReply(
        await engine.control.registerMerchant({
          publicKeyPem: fields.string('publicKeyPem'),
          ...(clientId !== undefined ? {clientId} : {}),
          ...(keyVersion !== undefined ? {keyVersion} : {}),
          ...(defaultNotifyUrl !== undefined ? {defaultNotifyUrl} : {}),
        }),
      );
    },

    'PATCH /_sandbox/merchants/{clientId}': async ({params, body}) => {
      const fields = Fields.body(body, ['defaultNotifyUrl', 'compressedRetries']);
      const defaultNotifyUrl = fields.nullableString('defaultNotifyUrl');
      const compressedRetries = fields.optionalBoolean('compressedRetries');
      return actionReply(
        await engine.control.configure(params['clientId'] ?? '', {
          ...(defaultNotifyUrl !== undefined ? {defaultNotifyUrl} : {}),
          ...(compressedRetries !== undefined ? {compressedRetries} : {}),
        }),
      );
    },

    'POST /_sandbox/merchants/{clientId}/keys': async ({params, body}) => {
      const fields = Fields.body(body, ['keyVersion', 'publicKeyPem']);
      return actionReply(await engine.control.addKey(params['clientId'] ?? '', fields.integer('keyVersion'), fields.string('publicKeyPem')));
    },

    'POST /_sandbox/shopper/pay': async ({body}) => {
      const fields = Fields.body(body, ['clientId', 'merchantOrderNo', 'method', 'phone', 'pin', 'cardNumber']);
      return actionReply(await engine.shopper.pay(fields.string('clientId'), fields.string('merchantOrderNo'), paymentChoice(fields)));
    },

    'POST /_sandbox/shopper/cash': async ({body}) => {
      const fields = Fields.body(body, ['clientId', 'paymentReference']);
      return actionReply(await engine.shopper.payCash(fields.string('clientId'), fields.string('paymentReference')));
    },

    'POST /_sandbox/shopper/scan': async ({body}) => {
      const fields = Fields.body(body, ['clientId', 'qrContent', 'phone', 'pin']);
      return actionReply(await engine.shopper.scan(fields.string('clientId'), fields.string('qrContent'), {phone: fields.string('phone'), pin: fields.string('pin')}));
    },

    'POST /_sandbox/shopper/abandon': async ({body}) => {
      const fields = Fields.body(body, ['clientId', 'merchantOrderNo']);
      return actionReply(await engine.shopper.abandon(fields.string('clientId'), fields.string('merchantOrderNo')));
    },

    'POST /_sandbox/shopper/agreements/authorize': async ({body}) => {
      const fields = Fields.body(body, ['clientId', 'merchantAgreementNo', 'wallet', 'approve']);
      return actionReply(await engine.shopper.authorizeAgreement(fields.string('clientId'), fields.string('merchantAgreementNo'), fields.string('wallet'), fields.optionalBoolean('approve')));
    },

    'POST /_sandbox/shopper/agreements/cancel': async ({body}) => {
      const fields = Fields.body(body, ['clientId', 'merchantAgreementNo']);
      return actionReply(await engine.shopper.cancelAgreementInWallet(fields.string('clientId'), fields.string('merchantAgreementNo')));
    },

    'POST /_sandbox/shopper/auth-code': async ({body}) => {
      const fields = Fields.body(body, ['clientId', 'wallet']);
      return actionReply(await engine.shopper.getAuthCode(fields.string('clientId'), fields.string('wallet')), (authCode) => ({authCode}));
    },

    'POST /_sandbox/chargebacks': async ({body}) => {
      const fields = Fields.body(body, ['clientId', 'merchantOrderNo', 'reasonCode', 'amount']);
      return actionReply(await engine.control.openChargeback(fields.string('clientId'), fields.string('merchantOrderNo'), fields.optionalString('reasonCode'), fields.optionalInteger('amount')));
    },

    'POST /_sandbox/chargebacks/{chargebackId}/resolve': async ({params, body}) => {
      const fields = Fields.body(body, ['clientId', 'resolution']);
      return actionReply(await engine.control.resolveChargeback(fields.string('clientId'), params['chargebackId'] ?? '', fields.choice('resolution', ['WON', 'LOST'])));
    },

    'POST /_sandbox/vam-top-ups': async ({body}) => {
      const fields = Fields.body(body, ['clientId', 'iban', 'amount', 'payerName']);
      return actionReply(await engine.control.topUpVirtualAccount(fields.string('clientId'), fields.string('iban'), fields.integer('amount'), fields.optionalString('payerName')));
    },

    'POST /_sandbox/faults': ({body}) => {
      const fields = Fields.body(body, ['resultCode', 'operationId', 'count']);
      const operationId = fields.optionalString('operationId');
      const count = fields.optionalInteger('count');
      return actionReply(engine.control.setFault({resultCode: fields.string('resultCode'), ...(operationId !== undefined ? {operationId} : {}), ...(count !== undefined ? {count} : {})}));
    },

    'GET /_sandbox/notifications': ({query}) => {
      const clientId = Fields.query(query, ['clientId']).optionalString('clientId');
      return jsonReply({deliveries: engine.control.deliveries(clientId === undefined ? undefined : knownClient(clientId))});
    },

    'POST /_sandbox/notifications/simulate': async ({body}) => {
      const fields = Fields.body(body, ['clientId', 'operationId', 'scenario', 'data', 'notifyUrl']);
      const clientId = knownClient(fields.string('clientId'));
      const notifyUrl = fields.optionalString('notifyUrl');
      const data = fields.optionalObject('data');
      const result = await engine.control.simulateNotification(clientId, {
        operationId: fields.string('operationId'),
        scenario: fields.string('scenario'),
        ...(data !== undefined ? {data} : {}),
        ...(notifyUrl !== undefined ? {notifyUrl} : {}),
      });
      if (!result.ok) return errorReply(result.code, result.message);
      // The first attempt is due now: run it here rather than on the timer, so the answer can say how it went.
      await exclusive(() => engine.runDue());
      // Only this notification's attempt: a slow receiver of another one must not hold up the answer.
      await engine.settleDelivery(result.value.notificationId);
      const delivery = engine.control.deliveries(clientId).find((entry) => entry.notificationId === result.value.notificationId);
      return jsonReply({...result.value, delivery: delivery ?? null});
    },

    'POST /_sandbox/notifications/{notificationId}/redeliver': async ({params, body}) => {
      const fields = Fields.body(body, ['clientId']);
      return actionReply(await engine.control.redeliver(fields.string('clientId'), params['notificationId'] ?? ''));
    },

    'GET /_sandbox/statements/{date}': async ({params, query}) => {
      const fields = Fields.query(query, ['clientId', 'currency']);
      const clientId = fields.string('clientId');
      const day = params['date'] ?? '';
      if (!/^\d{4}-\d{2}-\d{2}$/.test(day) || Number.isNaN(dayStart(day)) || utcDay(dayStart(day)) !== day) throw invalid(`The statement date must be a day YYYY-MM-DD, got "${day.slice(0, 20)}".`);
      const currency = fields.optionalString('currency');
      if (currency !== undefined && !/^[A-Z]{3}$/.test(currency)) throw invalid('currency must be a three-letter ISO 4217 code such as USD.');
      const file = await engine.statementFile(clientId, day, currency);
      if (!file) throw new Refusal('UNKNOWN_CLIENT', `No sandbox merchant ${clientId.slice(0, 64)}.`);
      return {
        status: 200,
        headers: {'Content-Type': 'application/gzip', 'Content-Disposition': `attachment; filename="${file.fileName}"`, 'X-Sha256': file.sha256},
        body: file.bytes,
      };
    },

    'GET /_sandbox/ledger': ({query}) => {
      const clientId = knownClient(Fields.query(query, ['clientId']).string('clientId'));
      return jsonReply({clientId, entries: engine.ledger(clientId)});
    },

    'GET /_sandbox/balances': ({query}) => {
      const clientId = knownClient(Fields.query(query, ['clientId']).string('clientId'));
      return jsonReply({clientId, balances: [...engine.balances(clientId)].map(([currency, balance]) => ({currency, ...balance}))});
    },

    'GET /_sandbox/export': ({query}) => {
      Fields.query(query, []);
      const document = engine.exportState();
      return {...jsonReply(document), headers: {'Content-Type': 'application/json', 'Content-Disposition': `attachment; filename="sandbox-state-${document.exportedAt.slice(0, 10)}.json"`}};
    },

    'POST /_sandbox/import': async ({body}) => {
      let document: unknown;
      try {
        document = JSON.parse(body);
      } catch {
        throw invalid('The body is not valid JSON: send the document GET /_sandbox/export answered.');
      }
      // Apart from the job timer, as a reset is: no job runs against a half-replaced state.
      return actionReply(await exclusive(() => engine.importState(document)), (value) => ({ok: true, ...value}));
    },
  };
}

/** Headers as the engine takes them: one string per name (Node joins repeated ones, except Set-Cookie). */
function requestHeaders(request: IncomingMessage): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(request.headers)) {
    if (value !== undefined) headers[name] = Array.isArray(value) ? value.join(', ') : value;
  }
  return headers;
}

/**
 * The body, or undefined when it is over `limit`: refused from Content-Length before a byte is read,
 * or as soon as the bytes received pass the limit; the rest is left unread.
 */
function readBody(request: IncomingMessage, limit: number): Promise<Buffer | undefined> {
  if (Number(request.headers['content-length']) > limit) return Promise.resolve(undefined);
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let length = 0;
    const onData = (chunk: Buffer) => {
      length += chunk.length;
      if (length <= limit) {
        chunks.push(chunk);
        return;
      }
      request.off('data', onData);
      request.pause();
      resolve(undefined);
    };
    request.on('data', onData);
    request.on('end', () => resolve(Buffer.concat(chunks)));
    // The client went away before the end of its body (after 'end', or after a refusal, this changes nothing).
    request.on('close', () => reject(new Error('the client closed the connection before the end of the body')));
    request.on('error', reject);
  });
}

const utf8 = new TextDecoder('utf-8', {fatal: true, ignoreBOM: true});

function send(response: ServerResponse, reply: Reply, closeAfter: boolean): void {
  if (response.headersSent || response.destroyed) return;
  response.writeHead(reply.status, {...reply.headers, 'Content-Length': String(Buffer.byteLength(reply.body)), ...(closeAfter ? {Connection: 'close'} : {})});
  response.end(reply.body);
}

/** A notifyUrl's host, for error texts. */
function hostOf(url: URL): string {
  return url.host || url.href;
}

function deliveryError(error: unknown, url: URL, signal: AbortSignal): string {
  if (signal.aborted) return 'timeout';
  const code = (error as NodeJS.ErrnoException).code;
  if (code === 'ECONNREFUSED') return `connection refused by ${hostOf(url)}`;
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN') return `host not found: ${url.hostname}`;
  if (code === 'ECONNRESET') return `connection reset by ${hostOf(url)}`;
  return `connection failed: ${code ?? (error as Error).message}`;
}

/**
 * Notifications over HTTP: a POST to the URL with the engine's headers and body, within the contract's
 * timeout. Every attempt gets a connection of its own (no keep-alive): a receiver sees each delivery
 * as a new request, as it would from the provider. The engine records the result and schedules retries.
 */
export function createHttpTransport(): NotificationTransport {
  return {
    deliver: ({url, headers, body, timeoutSeconds}) =>
      new Promise<DeliveryResult>((resolve) => {
        let target: URL;
        try {
          target = new URL(url);
        } catch {
          resolve({error: `not a URL: ${url.slice(0, 200)}`});
          return;
        }
        const signal = AbortSignal.timeout(timeoutSeconds * 1000);
        const client = target.protocol === 'https:' ? https : http;
        const request = client.request(target, {method: 'POST', headers: {...headers, 'Content-Length': String(Buffer.byteLength(body))}, signal, agent: false}, (response) => {
          const chunks: Buffer[] = [];
          let length = 0;
          response.on('data', (chunk: Buffer) => {
            if (length >= maxAcknowledgementBytes) return;
            chunks.push(chunk);
            length += chunk.length;
          });
          response.on('end', () => resolve({status: response.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8')}));
          // Closed before its end: the timeout, or the receiver hung up mid-answer.
          response.on('close', () => resolve({error: signal.aborted ? 'timeout' : `connection closed by ${hostOf(target)} during the answer`}));
          response.on('error', () => undefined);
        });
        request.on('error', (error) => resolve({error: deliveryError(error, target, signal)}));
        request.end(body);
      }),
  };
}

/**
 * Pages that may call this server from a browser (the portal's Try it panel and console): the portal, and
 * any page served from this machine. Any other site the developer has open gets no CORS headers, so its
 * scripts cannot read this server's answers or send it signed JSON.
 */
export function isAllowedOrigin(origin: string): boolean {
  return origin === `https://${brand.hosts.portal}` || /^https?:\/\/(localhost|127\.0\.0\.1|\[::1\])(:\d{1,5})?$/.test(origin);
}

/** The headers a page reads from an answer: the signature and its inputs, rate limits, replays. */
const exposedHeaders = 'X-Request-Id, X-Timestamp, X-Nonce, X-Signature, Idempotent-Replayed, Retry-After, RateLimit-Limit, RateLimit-Remaining, RateLimit-Reset';

/** CORS for allowed origins; answers a preflight itself and returns true, so the request goes no further. */
function allowCrossOrigin(request: IncomingMessage, response: ServerResponse): boolean {
  const origin = request.headers.origin;
  if (typeof origin !== 'string' || !isAllowedOrigin(origin)) return false;
  response.setHeader('Access-Control-Allow-Origin', origin);
  response.setHeader('Vary', 'Origin');
  response.setHeader('Access-Control-Expose-Headers', exposedHeaders);
  if (request.method !== 'OPTIONS' || request.headers['access-control-request-method'] === undefined) return false;
  response
    .writeHead(204, {
      'Access-Control-Allow-Methods': 'GET, POST, PATCH',
      'Access-Control-Allow-Headers': 'Content-Type, X-Client-Id, X-Timestamp, X-Nonce, X-Signature',
      'Access-Control-Max-Age': '600',
    })
    .end();
  return true;
}

export async function startSandboxServer(options: SandboxServerOptions): Promise<SandboxServer> {
  const {engine} = options;
  const limit = options.bodyLimitBytes ?? requestBodyLimitBytes;
  const log = options.log ?? (() => undefined);

  let lock: Promise<unknown> = Promise.resolve();
  const exclusive = <T>(work: () => Promise<T>): Promise<T> => {
    const result = lock.then(work);
    lock = result.catch(() => undefined);
    return result;
  };

  const handlers = controlHandlers(engine, exclusive);

  let closing = false;
  const inFlight = new Set<Promise<void>>();
  const holds = new Set<() => void>();
  /** Requests whose body is still arriving: close() does not wait for a client that stalls mid-body. */
  const reading = new Set<IncomingMessage>();

  // ---- The job timer: runDue() whenever a job is due, never two runs at once -------------------------

  let timer: NodeJS.Timeout | undefined;
  let running = false;
  let lastLoopError = '';

  function planJobs(): void {
    if (closing || running) return;
    clearTimeout(timer);
    const next = engine.nextJobAt();
    const wait = next === undefined ? jobPollMs : Math.min(jobPollMs, Math.max(0, next - engine.clock.now()));
    timer = setTimeout(runJobs, wait);
  }

  function runJobs(): void {
    running = true;
    exclusive(() => engine.runDue())
      .then(
        () => {
          lastLoopError = '';
        },
        (error: unknown) => {
          // Logged once per distinct failure: the timer retries every 200 ms.
          const message = `sandbox: running due jobs failed: ${(error as Error).message}`;
          if (message !== lastLoopError) log(message);
          lastLoopError = message;
        },
      )
      .finally(() => {
        running = false;
        planJobs();
      });
  }

  // ---- Requests --------------------------------------------------------------------------------------

  async function control(method: string, target: string, body: string): Promise<Reply> {
    const pathOnly = pathOf(target);
    const match = matchOperation(controlEndpoints, method, pathOnly);
    if (!match.found && match.reason === 'path') throw invalid(`No sandbox control endpoint at ${pathOnly.slice(0, 120)}; --help lists them.`);
    if (!match.found && match.reason === 'method') throw invalid(`${pathOnly.slice(0, 120)} takes ${match.methods.join(' or ')}, not ${method.slice(0, 10)}.`);
    if (!match.found) throw invalid(`The path parameter ${match.parameter} is not valid percent-encoding.`);
    const endpoint = match.operation;
    return handlers[`${endpoint.method} ${endpoint.path}` as EndpointKey]({params: {...match.pathParams}, query: new URLSearchParams(target.slice(pathOnly.length + 1)), body});
  }

  async function answer(request: IncomingMessage): Promise<{reply: Reply; closeAfter: boolean}> {
    const method = request.method ?? 'GET';
    const target = request.url ?? '/';
    const bodyLimit = method === 'POST' && target === '/_sandbox/import' ? Math.max(limit, importBodyLimitBytes) : limit;
    reading.add(request);
    const bytes = await readBody(request, bodyLimit).finally(() => reading.delete(request));
    // API calls are answered as the engine answers: signed, whatever the signing headers hold.
    const refuse = async (code: string, message: string): Promise<Reply> =>
      target.startsWith('/_sandbox') ? errorReply(code, message) : engine.refuse({method, target, headers: requestHeaders(request)}, code, message);
    if (!bytes) return {reply: await refuse('REQUEST_TOO_LARGE', `The body is larger than ${bodyLimit} bytes, so it was not read.`), closeAfter: true};
    let body: string;
    try {
      body = utf8.decode(bytes);
    } catch {
      return {reply: await refuse('INVALID_PARAMETER', 'The body is not valid UTF-8.'), closeAfter: false};
    }
    if (target === '/_sandbox' || target.startsWith('/_sandbox/') || target.startsWith('/_sandbox?')) {
      try {
        return {reply: await control(method, target, body), closeAfter: false};
      } catch (error) {
        if (error instanceof Refusal) return {reply: errorReply(error.code, error.message), closeAfter: false};
        throw error;
      }
    }
    return {reply: await engine.handle({method, target, headers: requestHeaders(request), body}), closeAfter: false};
  }

  function hold(seconds: number): Promise<void> {
    if (closing) return Promise.resolve();
    return new Promise((resolve) => {
      const release = () => {
        clearTimeout(timeout);
        holds.delete(release);
        resolve();
      };
      const timeout = setTimeout(release, seconds * 1000);
      holds.add(release);
    });
  }

  async function serve(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const started = Date.now();
    let outcome: {reply: Reply; closeAfter: boolean};
    try {
      outcome = await answer(request);
    } catch (error) {
      // The client went away mid-body: there is no one to answer.
      if (request.destroyed && !request.complete) return;
      log(`sandbox: ${request.method} ${request.url?.slice(0, 200)} failed inside the server: ${(error as Error).stack ?? String(error)}`);
      const message = 'The sandbox server failed on this request; the error is in its log.';
      const target = request.url ?? '/';
      // An API call is answered signed even here; only the control endpoints answer unsigned.
      const reply = target.startsWith('/_sandbox') ? errorReply('INTERNAL_ERROR', message) : await engine.refuse({method: request.method ?? 'GET', target, headers: requestHeaders(request)}, 'INTERNAL_ERROR', message);
      outcome = {reply, closeAfter: false};
    }
    // The call is carried out already; only the answer waits (Create order, amount ending 92).
    if (outcome.reply.holdSeconds) await hold(outcome.reply.holdSeconds);
    send(response, outcome.reply, outcome.closeAfter);
    log(`${request.method} ${request.url?.slice(0, 200)} ${outcome.reply.status} ${Date.now() - started} ms`);
    planJobs();
  }

  // requireHostHeader off: a request without Host is answered by the handler with the envelope, not a bare 400.
  const server = http.createServer({requireHostHeader: false}, (request, response) => {
    response.on('error', () => undefined);
    if (allowCrossOrigin(request, response)) return;
    const work = serve(request, response).catch((error: unknown) => log(`sandbox: ${(error as Error).message}`));
    inFlight.add(work);
    void work.finally(() => inFlight.delete(work));
  });

  // A client that half-closes after its request (`nc -N`, a raw socket's end()) still gets the answer, which
  // now takes a signature's time: node:http would otherwise drop a pending answer on the client's FIN.
  (server as http.Server & {httpAllowHalfOpen: boolean}).httpAllowHalfOpen = true;

  // An Expect other than 100-continue, and CONNECT, would otherwise be answered by node:http (417) or not at all.
  // Both are answered as the engine answers an API call: signed over what the request carried.
  const refuseParsed = (request: IncomingMessage, message: string): Promise<Reply> =>
    engine.refuse({method: request.method ?? 'GET', target: request.url ?? '/', headers: requestHeaders(request)}, 'INVALID_PARAMETER', message);
  server.on('checkExpectation', (request: IncomingMessage, response: ServerResponse) => {
    void refuseParsed(request, 'The Expect header is not supported: send the request without it.').then((reply) => send(response, reply, true));
  });
  server.on('connect', (request: IncomingMessage, socket: Socket) => {
    void refuseParsed(request, 'CONNECT is not a method of this API.').then((reply) => {
      const headers = Object.entries({...reply.headers, 'Content-Length': String(Buffer.byteLength(reply.body)), Connection: 'close'}).map(([name, value]) => `${name}: ${value}\r\n`).join('');
      socket.end(`HTTP/1.1 ${reply.status} Bad Request\r\n${headers}\r\n${reply.body}`);
    });
  });

  // Requests Node cannot parse (a bad request line, headers too large) get the envelope too, not a bare 400.
  server.on('clientError', (error: NodeJS.ErrnoException, socket: Socket) => {
    if (!socket.writable || error.code === 'ECONNRESET') {
      socket.destroy();
      return;
    }
    const reply = errorReply('INVALID_PARAMETER', `The request is not HTTP this server can read (${error.code ?? error.message}).`);
    socket.end(`HTTP/1.1 ${reply.status} Bad Request\r\nContent-Type: application/json\r\nX-Request-Id: ${reply.headers['X-Request-Id'] ?? ''}\r\nContent-Length: ${Buffer.byteLength(reply.body)}\r\nConnection: close\r\n\r\n${String(reply.body)}`);
  });

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host ?? '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
  // Once listening, a server error (out of file descriptors, say) is logged; unheard, it would end the process.
  server.on('error', (error) => log(`sandbox: ${error.message}`));
  planJobs();

  const address = server.address() as AddressInfo;
  const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  return {
    port: address.port,
    url: `http://${host}:${address.port}`,
    async close() {
      closing = true;
      clearTimeout(timer);
      const stopped = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeIdleConnections();
      for (const release of [...holds]) release();
      for (const request of reading) request.destroy();
      await Promise.all(inFlight);
      // The job run under way, if any, finishes with its commit.
      await exclusive(async () => undefined);
      // Deliveries under way are recorded before the store is closed (each has its timeout).
      await engine.settle();
      server.closeAllConnections();
      await stopped;
    },
  };
}
