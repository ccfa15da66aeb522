/**
 * The sandbox engine of one MCP session, in this process: in memory, or with a store kept in the local
 * server's journal format (--data), its own clock, and an inbox instead of a network for notifications,
 * as the in-browser host keeps them. Requests are
 * signed with the published test merchant key exactly as the integration guide says, and every response
 * and notification is verified with the provider test key, so a tool answer says whether the sandbox's
 * signatures hold up as a merchant would check them.
 */
import {createClock, isoSeconds} from '../sandbox/engine/clock';
import type {SandboxEngine} from '../sandbox/engine/engine';
import type {NotificationTransport, SandboxResponse} from '../sandbox/engine/http';
import {matchOperation} from '../sandbox/engine/pipeline/route';
import type {OperationSpec} from '../sandbox/engine/spec';
import type {RecordValue, SandboxStore} from '../sandbox/engine/store';
import {createNodeEngine, sandboxFiles} from '../sandbox/server/loadEngine';
import {
  canonicalString,
  formatSignatureHeader,
  importPrivateKey,
  importPublicKey,
  parseSignatureHeader,
  responseCanonicalString,
  signCanonical,
  verifyCanonical,
} from '../lib/signing';

/** A notification the engine delivered to the session's inbox. */
export interface InboxEntry {
  /** 1, 2, 3...: the order of arrival in this session. */
  readonly seq: number;
  readonly url: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: string;
  /** When it arrived, on the sandbox clock (ISO 8601). */
  readonly receivedAt: string;
}

export interface SignedCallResult {
  readonly operationId: string;
  readonly response: SandboxResponse;
  /** The six-line string the request signature covers. */
  readonly canonicalRequest: string;
  readonly signatureHeader: string;
  /** Whether the response's X-Signature verifies with the provider test key over the eight-line response string. */
  readonly responseVerified: boolean;
  readonly responseProblem?: string;
}

/**
 * Where a session with a store (--data) keeps its inbox: records of the same journal as the engine's, so
 * one file holds the whole sandbox. The engine skips keys it does not know when it loads, so the local
 * server runs on the same file; a reset clears them with the rest.
 */
const inboxKeyPrefix = '~/mcp-inbox/';
const inboxKey = (seq: number): string => `${inboxKeyPrefix}${String(seq).padStart(10, '0')}`;

function isInboxEntry(value: RecordValue): value is RecordValue & InboxEntry {
  const entry = value as Partial<Record<keyof InboxEntry, unknown>> | null;
  return typeof entry?.seq === 'number' && typeof entry.url === 'string' && typeof entry.body === 'string' && typeof entry.receivedAt === 'string' && typeof entry.headers === 'object';
}

/** `store` with the inbox's records taken out of what the engine loads, and kept in `inbox` instead. */
function storeWithInbox(store: SandboxStore, inbox: InboxEntry[]): SandboxStore {
  return {
    async load() {
      const engineRecords: Array<readonly [string, RecordValue]> = [];
      const entries: InboxEntry[] = [];
      for (const [key, value] of await store.load()) {
        if (!key.startsWith(inboxKeyPrefix)) engineRecords.push([key, value]);
        else if (isInboxEntry(value)) entries.push(value);
      }
      inbox.splice(0, inbox.length, ...entries.sort((a, b) => a.seq - b.seq));
      return engineRecords;
    },
    commit: (changes) => store.commit(changes),
    async clear() {
      await store.clear();
      inbox.length = 0;
    },
    ...(store.replace
      ? {
          replace: async (records: ReadonlyArray<readonly [string, RecordValue]>) => {
            await store.replace?.(records);
            inbox.length = 0;
          },
        }
      : {}),
  };
}

/**
 * The contract operation a method and request target name, or undefined; a parameter that will not decode
 * still names its operation, whose engine call then answers INVALID_PARAMETER.
 */
function operationFor(operations: readonly OperationSpec[], method: string, target: string): OperationSpec | undefined {
  const match = matchOperation(operations, method, target);
  return match.found || match.reason === 'encoding' ? match.operation : undefined;
}

export interface SandboxSession {
  readonly engine: SandboxEngine;
  readonly clientId: string;
  readonly inbox: readonly InboxEntry[];
  /** Sends a signed request as the test merchant; deliveries due now land in the inbox before it returns. */
  call(method: string, target: string, body: string): Promise<SignedCallResult>;
  /** Runs the jobs due now and waits for their deliveries (after a shopper or control action). */
  settle(): Promise<void>;
  /** Verifies a notification in the inbox with the provider test key. */
  verifyNotification(entry: InboxEntry): Promise<{verified: boolean; problem?: string}>;
}

export interface SandboxSessionOptions {
  /** Keeps the sandbox and the inbox across processes (the local server's --data journal); default in memory. */
  readonly store?: SandboxStore;
}

export async function createSandboxSession(options: SandboxSessionOptions = {}): Promise<SandboxSession> {
  const files = sandboxFiles();
  const clock = createClock();
  const inbox: InboxEntry[] = [];
  const store = options.store ? storeWithInbox(options.store, inbox) : undefined;
  const transport: NotificationTransport = {
    // Never a real URL: the notification is kept here and acknowledged, as the in-browser sandbox does;
    // with a store, only once its record is durable, so an acknowledged notification is never lost.
    deliver: async (delivery) => {
      const entry: InboxEntry = {seq: (inbox.at(-1)?.seq ?? 0) + 1, url: delivery.url, headers: {...delivery.headers}, body: delivery.body, receivedAt: isoSeconds(clock.now())};
      await store?.commit([{key: inboxKey(entry.seq), value: entry as unknown as RecordValue}]);
      inbox.push(entry);
      return {status: 200, body: '{"code":"SUCCESS"}'};
    },
  };
  const engine = await createNodeEngine({clock, transport, ...(store ? {store} : {})});
  const clientId = files.spec.sandbox.merchant.clientId;
  const merchantKey = await importPrivateKey(files.merchantPrivateKeyPem);
  const providerKey = await importPublicKey(files.providerPublicKeyPem);

  const settle = async () => {
    await engine.runDue();
    await engine.settle();
  };

  return {
    engine,
    clientId,
    inbox,
    settle,
    async call(method, target, body) {
      const operation = operationFor(files.spec.operations, method, target);
      if (!operation) throw new Error(`${method} ${target} is not an operation of the contract.`);
      const timestamp = isoSeconds(clock.now());
      const nonce = crypto.randomUUID();
      const canonicalRequest = canonicalString({method, pathWithQuery: target, clientId, timestamp, nonce, body});
      const signatureHeader = formatSignatureHeader({algorithm: 'RSA-SHA256', keyVersion: files.spec.sandbox.merchant.merchantKey.keyVersion, signature: await signCanonical(canonicalRequest, merchantKey)});
      const response = await engine.handle({
        method,
        target,
        body,
        headers: {'Content-Type': 'application/json', 'X-Client-Id': clientId, 'X-Timestamp': timestamp, 'X-Nonce': nonce, 'X-Signature': signatureHeader},
      });
      await settle();
      let responseVerified = false;
      let responseProblem: string | undefined;
      try {
        const header = parseSignatureHeader(response.headers['X-Signature'] ?? '');
        const canonical = responseCanonicalString({
          request: {method, pathWithQuery: target, clientId, timestamp, nonce},
          status: response.status,
          timestamp: response.headers['X-Timestamp'] ?? '',
          nonce: response.headers['X-Nonce'] ?? '',
          body: response.body,
        });
        responseVerified = await verifyCanonical(canonical, header.signature, providerKey);
        if (!responseVerified) responseProblem = 'The response signature does not verify with the provider test key.';
      } catch (error) {
        responseProblem = `The response signature cannot be checked: ${(error as Error).message}`;
      }
      return {operationId: operation.operationId, response, canonicalRequest, signatureHeader, responseVerified, ...(responseProblem ? {responseProblem} : {})};
    },
    async verifyNotification(entry) {
      try {
        const url = new URL(entry.url);
        const header = parseSignatureHeader(entry.headers['X-Signature'] ?? '');
        const canonical = canonicalString({
          method: 'POST',
          pathWithQuery: `${url.pathname}${url.search}`,
          clientId: entry.headers['X-Client-Id'] ?? '',
          timestamp: entry.headers['X-Timestamp'] ?? '',
          nonce: entry.headers['X-Nonce'] ?? '',
          body: entry.body,
        });
        const verified = await verifyCanonical(canonical, header.signature, providerKey);
        return verified ? {verified} : {verified, problem: 'The signature does not verify with the provider test key.'};
      } catch (error) {
        return {verified: false, problem: (error as Error).message};
      }
    },
  };
}
