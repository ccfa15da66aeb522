/**
 * The sandbox engine of one MCP session, in this process: in memory, or with a store kept in the local
 * server's journal format (--data), its own clock, and an inbox instead of a network for notifications,
 * as the in-browser host keeps them. Requests are
 * signed with the published test merchant key exactly as the integration guide says, and every response
 * and notification is verified with the provider test key, so a tool answer says whether the sandbox's
 * signatures hold up as a merchant would check them.
 */
import {createClock, isoSeconds} from '../../engine/clock';
import type {SandboxEngine} from '../../engine/engine';
import type {SandboxResponse} from '../../engine/http';
import {matchOperation} from '../../engine/pipeline/route';
import type {OperationSpec} from '../../engine/spec';
import {memoryStore, type RecordValue, type SandboxStore} from '../../engine/store';
import {createNodeEngine, sandboxFiles} from '../server/loadEngine';
import {importPrivateKey, importPublicKey} from '../../../lib/signing';
import {inPageTarget, runDueAndSettle} from '../../client/inPage';
import {merchantClient} from '../../client/merchant';
import {createInbox, memoryInboxStorage, type InboxEntry, type InboxStorage, type NotificationInbox} from '../../client/inbox';
import type {Verification} from '../../client/signing';
import type {SandboxTarget} from '../../client/target';

export type {InboxEntry} from '../../client/inbox';

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
  return (
    typeof entry?.seq === 'number' &&
    typeof entry.url === 'string' &&
    typeof entry.body === 'string' &&
    typeof entry.receivedAt === 'string' &&
    typeof entry.headers === 'object'
  );
}

/**
 * The session's store split in two: the engine's records, and the inbox's as inbox storage (records of the
 * same journal). A reset or an import through the engine empties the store, the inbox's records with it,
 * so the inbox forgets its list.
 */
function splitStore(store: SandboxStore, inbox: () => NotificationInbox): {engineStore: SandboxStore; inboxStorage: InboxStorage} {
  let loaded: InboxEntry[] = [];
  const engineStore: SandboxStore = {
    async load() {
      const engineRecords: Array<readonly [string, RecordValue]> = [];
      loaded = [];
      for (const [key, value] of await store.load()) {
        if (!key.startsWith(inboxKeyPrefix)) engineRecords.push([key, value]);
        else if (isInboxEntry(value)) loaded.push(value);
      }
      return engineRecords;
    },
    commit: (changes) => store.commit(changes),
    clear: () => store.clear(),
    ...(store.replace ? {replace: store.replace.bind(store)} : {}),
  };
  const inboxStorage: InboxStorage = {
    load: async () => loaded,
    add: (entry, dropped) =>
      store.commit([
        {key: inboxKey(entry.seq), value: entry as unknown as RecordValue},
        ...dropped.map((old) => ({key: inboxKey(old.seq), value: undefined})),
      ]),
    replace: (entries) =>
      store.commit([
        ...loaded.map((old) => ({key: inboxKey(old.seq), value: undefined})),
        ...entries.map((entry) => ({key: inboxKey(entry.seq), value: entry as unknown as RecordValue})),
      ]),
    clear: () => store.commit(inbox().entries.map((old) => ({key: inboxKey(old.seq), value: undefined}))),
  };
  return {engineStore: forgetting(engineStore, inbox), inboxStorage};
}

/** A store that makes the inbox forget its list when the engine resets or imports. */
function forgetting(store: SandboxStore, inbox: () => NotificationInbox): SandboxStore {
  return {
    ...store,
    async clear() {
      await store.clear();
      inbox().forget();
    },
    ...(store.replace
      ? {
          replace: async (records: ReadonlyArray<readonly [string, RecordValue]>) => {
            await store.replace?.(records);
            inbox().forget();
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
  /** The engine as a sandbox target: declared actions run, and what falls due with them, before each answer. */
  readonly target: SandboxTarget;
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
  const providerKey = {
    key: await importPublicKey(files.providerPublicKeyPem),
    keyVersion: files.spec.sandbox.merchant.providerKey.keyVersion,
  };
  // Without --data the inbox lives in memory, over a memory store of the engine's own, so a reset forgets it too.
  const {engineStore, inboxStorage} = options.store
    ? splitStore(options.store, () => inbox)
    : {engineStore: forgetting(memoryStore(), () => inbox), inboxStorage: memoryInboxStorage()};
  // Never a real URL: the notification is kept here and acknowledged, as the in-browser sandbox does;
  // with a store, only once its record is durable, so an acknowledged notification is never lost.
  const inbox: NotificationInbox = createInbox({storage: inboxStorage, receivedAt: () => isoSeconds(clock.now()), providerKey});
  const engine = await createNodeEngine({clock, transport: inbox.transport, store: engineStore});
  await inbox.load();
  const clientId = files.spec.sandbox.merchant.clientId;
  const target = inPageTarget(engine);
  const client = merchantClient({
    target,
    signer: {
      clientId,
      keyVersion: files.spec.sandbox.merchant.merchantKey.keyVersion,
      privateKey: await importPrivateKey(files.merchantPrivateKeyPem),
    },
    providerKey,
    now: () => clock.now(),
  });

  return {
    engine,
    target,
    clientId,
    inbox: inbox.entries,
    settle: () => runDueAndSettle(engine),
    async call(method, path, body) {
      const operation = operationFor(files.spec.operations, method, path.split('?')[0] ?? '');
      if (!operation) throw new Error(`${method} ${path} is not an operation of the contract.`);
      const {request, response, verification} = await client.call({method, target: path, body});
      const responseProblem = problemOf(
        verification,
        'The response signature does not verify with the provider test key.',
        'The response signature cannot be checked: ',
      );
      return {
        operationId: operation.operationId,
        response,
        canonicalRequest: request.canonical,
        signatureHeader: request.signatureHeader,
        responseVerified: verification.outcome === 'verified',
        ...(responseProblem ? {responseProblem} : {}),
      };
    },
    async verifyNotification(entry) {
      const verification = await inbox.verify(entry);
      const problem = problemOf(verification, 'The signature does not verify with the provider test key.', '');
      return problem ? {verified: false, problem} : {verified: true};
    },
  };
}

/** The sentence for a signature that does not verify; undefined when it does. */
function problemOf(verification: Verification, mismatch: string, unreadablePrefix: string): string | undefined {
  if (verification.outcome === 'verified') return undefined;
  if (verification.outcome === 'unreadable') return `${unreadablePrefix}${verification.message}`;
  if (verification.outcome === 'otherKeyVersion')
    return `${unreadablePrefix}it names provider key version ${verification.keyVersion}, not the published test key's.`;
  return mismatch;
}
