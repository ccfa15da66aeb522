/**
 * Host 1: the sandbox engine inside the reader's browser. No account, no network: requests are
 * signed here with the published test key, carried out by the same engine as the local server, and
 * kept in IndexedDB so a reload finds them. Notifications cannot be posted to the reader's own
 * endpoint from a page, so they land in an inbox here, acknowledged, and are listed there; the inbox is
 * kept in IndexedDB too (the newest src/sandbox/client/inbox.ts keeps), cleared by a reset and carried by an export.
 *
 * Loaded only on demand (a dynamic import from the component that needs it), with the spec and the
 * validators the sandbox-engine plugin compiled at build time.
 */
import generated from '@generated/sandbox-engine/spec.json';
import {brand} from '../../../brand';
import {importPrivateKey} from '../../../lib/signing';
import {shopperFixtures, type ShopperFixtures} from '../../actions';
import {createInbox, inboxEntriesOf, type InboxEntry, type InboxStorage} from '../../client/inbox';
import {inPageTarget, runDueAndSettle} from '../../client/inPage';
import {signRequest, type SignedRequest} from '../../client/signing';
import type {SandboxTarget} from '../../client/target';
import {createClock} from '../../engine/clock';
import {
  SandboxEngine,
  type ActionResult,
  type RequestValidator,
  type SimulateNotificationInput,
  type SimulatedNotification,
} from '../../engine/engine';
import type {SandboxResponse} from '../../engine/http';
import type {SandboxStateDocument} from '../../engine/stateDocument';
import {memoryStore, type RecordValue, type SandboxStore} from '../../engine/store';
import {indexedDbInbox} from './inboxStore';
import {indexedDbStore} from './indexedDbStore';
import {schemaProblems} from './schemaProblems';

/** The IndexedDB database of the in-browser sandbox. */
export const databaseName = 'veloxa-sandbox';
/** The IndexedDB database of its notification inbox. */
export const inboxDatabaseName = 'veloxa-sandbox-inbox';

export type {InboxEntry} from '../../client/inbox';
export type {SignedRequest} from '../../client/signing';

const validator: RequestValidator = {problems: schemaProblems};

export interface BrowserSandbox {
  readonly engine: SandboxEngine;
  /** The engine as a sandbox target: calls and declared actions, with what falls due run before each answer. */
  readonly target: SandboxTarget;
  /** The test wallet and cards of the sandbox data, for a shopper who names none. */
  readonly fixtures: ShopperFixtures;
  /** The notifications received, oldest first (the same list for the page's lifetime, updated in place). */
  readonly inbox: readonly InboxEntry[];
  readonly clientId: string;
  /** Sends a request signed with the published test merchant key, as a merchant's backend would. */
  call(
    method: string,
    target: string,
    body?: unknown,
  ): Promise<SandboxResponse & {readonly json: {code: string; message: string; data?: unknown}; readonly request: SignedRequest}>;
  /** Raises a notification of a contract scenario as the test merchant's, and delivers it to the inbox now. */
  simulateNotification(input: SimulateNotificationInput): Promise<ActionResult<{simulated: SimulatedNotification; delivery: InboxEntry}>>;
  /** Empties the inbox (here and in IndexedDB). */
  clearInbox(): Promise<void>;
  /** The engine's reset, and an empty inbox. */
  reset(): Promise<void>;
  /** The engine's export, with the inbox. */
  exportState(): SandboxStateDocument;
  /** Replaces the state and the inbox with an export's; a malformed document changes neither. */
  importState(document: unknown): Promise<ActionResult<{merchants: number; records: number; notifications: number}>>;
}

let started: Promise<BrowserSandbox> | undefined;

/** The page's one sandbox, started on first use, and again after another tab changed it. */
export function browserSandbox(): Promise<BrowserSandbox> {
  started ??= start();
  return started;
}

/**
 * Every tab of the site runs its own engine over the same IndexedDB. A tab that changes the sandbox says so
 * on this channel; the others drop their engine, so their next call starts one from what is stored instead
 * of working on (and writing back) a stale copy.
 */
const channel = typeof BroadcastChannel === 'function' ? new BroadcastChannel('veloxa-sandbox') : undefined;
const changedElsewhere = new Set<() => void>();
channel?.addEventListener('message', () => {
  started = undefined;
  for (const listener of changedElsewhere) listener();
});
const announce = () => channel?.postMessage('changed');

/** Calls `listener` when another tab changed the sandbox (browserSandbox() then reads it afresh); answers how to stop. */
export function onChangedElsewhere(listener: () => void): () => void {
  changedElsewhere.add(listener);
  return () => changedElsewhere.delete(listener);
}

/** The engine's store, announcing each write to the other tabs. */
function announcingStore(store: SandboxStore): SandboxStore {
  return {
    load: () => store.load(),
    commit: async (changes) => {
      await store.commit(changes);
      if (changes.length > 0) announce();
    },
    clear: async () => {
      await store.clear();
      announce();
    },
    ...(store.replace
      ? {
          replace: async (records: Parameters<NonNullable<SandboxStore['replace']>>[0]) => {
            await store.replace?.(records);
            announce();
          },
        }
      : {}),
  };
}

/**
 * The inbox's storage, announcing each write to the other tabs. A failed write of one arriving notification
 * loses only its copy for the next page load: it is in this page's inbox and acknowledged all the same.
 */
function announcingInbox(store: InboxStorage): InboxStorage {
  const after =
    <A extends unknown[]>(write: (...args: A) => Promise<void>) =>
    async (...args: A) => {
      await write(...args);
      announce();
    };
  return {
    load: () => store.load(),
    add: async (entry, dropped) => after(store.add.bind(store))(entry, dropped).catch(() => undefined),
    replace: after(store.replace.bind(store)),
    clear: after(store.clear.bind(store)),
  };
}

/** What both engines of this file are made with: the build's spec, validators and keys. */
const engineBasis = {
  spec: generated.spec,
  validator,
  providerKey: {privateKeyPem: generated.providerPrivateKeyPem, keyVersion: generated.spec.sandbox.merchant.providerKey.keyVersion},
  defaultMerchantPublicKeyPem: generated.merchantPublicKeyPem,
  hosts: {cashier: brand.hosts.sandboxCashier, files: brand.hosts.statementFiles},
};

/**
 * An engine over a state export, in memory and for reading: the console shows a hosted merchant's export
 * (GET /_sandbox/export) through it as it shows this browser's sandbox. It stores nothing, sends no
 * notification and leaves this browser's own sandbox as it was. A malformed export is a refusal, not a throw.
 */
export async function engineOfExport(document: unknown): Promise<ActionResult<SandboxEngine>> {
  const engine = await SandboxEngine.create({...engineBasis, store: memoryStore()});
  const imported = await engine.importState(document);
  return imported.ok ? {ok: true, value: engine} : imported;
}

async function start(): Promise<BrowserSandbox> {
  const clock = createClock();
  // Stamped on the sandbox clock, which the notification's X-Timestamp is on too: after the reader advances it,
  // real time would put every notification outside the timestamp window.
  const inbox = createInbox({
    storage: announcingInbox(await indexedDbInbox(inboxDatabaseName)),
    receivedAt: () => new Date(clock.now()).toISOString(),
  });
  await inbox.load();
  const engine = await SandboxEngine.create({
    ...engineBasis,
    store: announcingStore(await indexedDbStore(databaseName)),
    clock,
    transport: inbox.transport,
  });
  const clientId = generated.spec.sandbox.merchant.clientId;
  const signer = {
    clientId,
    keyVersion: generated.spec.sandbox.merchant.merchantKey.keyVersion,
    privateKey: await importPrivateKey(generated.merchantPrivateKeyPem),
  };
  const target = inPageTarget(engine);
  return {
    engine,
    target,
    fixtures: shopperFixtures(generated.spec.sandbox),
    inbox: inbox.entries,
    clientId,
    clearInbox: () => inbox.clear(),
    async reset() {
      await engine.control.reset();
      await inbox.clear();
    },
    exportState() {
      return {...engine.exportState(), inbox: inbox.entries.map((entry) => ({...entry}) as unknown as RecordValue)};
    },
    async importState(document) {
      // The inbox is checked before the engine replaces anything, so a bad one changes nothing either.
      const checked = inboxEntriesOf(typeof document === 'object' && document !== null ? (document as {inbox?: unknown}).inbox : undefined);
      if (!checked.ok) return {ok: false, code: 'INVALID_PARAMETER', message: checked.message};
      const imported = await engine.importState(document);
      if (!imported.ok) return imported;
      await inbox.replace(checked.entries);
      return {ok: true, value: {...imported.value, notifications: inbox.entries.length}};
    },
    async call(method, path, body) {
      const request = await signRequest(
        signer,
        {method, target: path, body: body === undefined ? '' : JSON.stringify(body)},
        engine.clock.now(),
      );
      // Deliveries due now go out at once in the browser: there is no timer loop to wait for (the target runs them).
      const response = await target.call(request);
      return {...response, json: JSON.parse(response.body) as {code: string; message: string; data?: unknown}, request};
    },
    async simulateNotification(input) {
      const result = await engine.control.simulateNotification(clientId, input);
      if (!result.ok) return result;
      await runDueAndSettle(engine);
      const {notificationId} = result.value;
      const delivery = inbox.find(notificationId);
      if (!delivery)
        return {ok: false, code: 'INTERNAL_ERROR', message: `The notification ${notificationId} was raised but not delivered.`};
      return {ok: true, value: {simulated: result.value, delivery}};
    },
  };
}
