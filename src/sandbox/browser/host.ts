/**
 * Host 1: the sandbox engine inside the reader's browser. No account, no network: requests are
 * signed here with the published test key, carried out by the same engine as the local server, and
 * kept in IndexedDB so a reload finds them. Notifications cannot be posted to the reader's own
 * endpoint from a page, so they land in an inbox here, acknowledged, and are listed there.
 *
 * Loaded only on demand (a dynamic import from the component that needs it), with the spec and the
 * validators the sandbox-engine plugin compiled at build time.
 */
import generated from '@generated/sandbox-engine/spec.json';
import {brand} from '../../brand';
import {canonicalString, formatSignatureHeader, importPrivateKey, signCanonical} from '../../lib/signing';
import {createClock, isoSeconds} from '../engine/clock';
import {SandboxEngine, type ActionResult, type RequestValidator, type SimulateNotificationInput, type SimulatedNotification} from '../engine/engine';
import type {NotificationTransport, SandboxResponse} from '../engine/http';
import {indexedDbStore} from './indexedDbStore';
import {schemaProblems} from './schemaProblems';

/** The IndexedDB database of the in-browser sandbox. */
export const databaseName = 'veloxa-sandbox';

/** A notification as the in-browser inbox received it. */
export interface InboxEntry {
  readonly url: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: string;
  readonly receivedAt: string;
}

const validator: RequestValidator = {problems: schemaProblems};

export interface BrowserSandbox {
  readonly engine: SandboxEngine;
  readonly inbox: readonly InboxEntry[];
  readonly clientId: string;
  /** Sends a request signed with the published test merchant key, as a merchant's backend would. */
  call(method: string, target: string, body?: unknown): Promise<SandboxResponse & {readonly json: {code: string; message: string; data?: unknown}}>;
  /** Raises a notification of a contract scenario as the test merchant's, and delivers it to the inbox now. */
  simulateNotification(input: SimulateNotificationInput): Promise<ActionResult<{simulated: SimulatedNotification; delivery: InboxEntry}>>;
}

let started: Promise<BrowserSandbox> | undefined;

/** The page's one sandbox, started on first use. */
export function browserSandbox(): Promise<BrowserSandbox> {
  started ??= start();
  return started;
}

async function start(): Promise<BrowserSandbox> {
  const inbox: InboxEntry[] = [];
  const transport: NotificationTransport = {
    deliver: async (delivery) => {
      inbox.push({url: delivery.url, headers: delivery.headers, body: delivery.body, receivedAt: new Date().toISOString()});
      return {status: 200, body: '{"code":"SUCCESS"}'};
    },
  };
  const engine = await SandboxEngine.create({
    spec: generated.spec,
    validator,
    providerKey: {privateKeyPem: generated.providerPrivateKeyPem, keyVersion: generated.spec.sandbox.merchant.providerKey.keyVersion},
    defaultMerchantPublicKeyPem: generated.merchantPublicKeyPem,
    hosts: {cashier: brand.hosts.sandboxCashier, files: brand.hosts.statementFiles},
    store: await indexedDbStore(databaseName),
    clock: createClock(),
    transport,
  });
  const merchantKey = await importPrivateKey(generated.merchantPrivateKeyPem);
  const clientId = generated.spec.sandbox.merchant.clientId;
  return {
    engine,
    inbox,
    clientId,
    async call(method, target, body) {
      const raw = body === undefined ? '' : JSON.stringify(body);
      const timestamp = isoSeconds(engine.clock.now());
      const nonce = crypto.randomUUID();
      const signature = await signCanonical(canonicalString({method, pathWithQuery: target, clientId, timestamp, nonce, body: raw}), merchantKey);
      const response = await engine.handle({
        method,
        target,
        body: raw,
        headers: {'X-Client-Id': clientId, 'X-Timestamp': timestamp, 'X-Nonce': nonce, 'X-Signature': formatSignatureHeader({algorithm: 'RSA-SHA256', keyVersion: 1, signature})},
      });
      // Deliveries due now go out at once in the browser: there is no timer loop to wait for.
      await engine.runDue();
      await engine.settle();
      return {...response, json: JSON.parse(response.body) as {code: string; message: string; data?: unknown}};
    },
    async simulateNotification(input) {
      const result = await engine.control.simulateNotification(clientId, input);
      if (!result.ok) return result;
      await engine.runDue();
      await engine.settle();
      const {notificationId} = result.value;
      const delivery = [...inbox].reverse().find((entry) => (JSON.parse(entry.body) as {notificationId?: string}).notificationId === notificationId);
      if (!delivery) return {ok: false, code: 'INTERNAL_ERROR', message: `The notification ${notificationId} was raised but not delivered.`};
      return {ok: true, value: {simulated: result.value, delivery}};
    },
  };
}
