/**
 * The notification inbox, written once for the hosts whose sandbox cannot post to the merchant's own
 * endpoint (the in-browser sandbox, the MCP server): it receives what the engine delivers, keeps it,
 * acknowledges it, lists it, verifies it as a merchant's handler would and keeps only the newest `limit`.
 * Where the entries live is injected: IndexedDB in the browser (src/sandbox/hosts/browser/inboxStore.ts), the
 * journal or memory in MCP (src/sandbox/hosts/mcp/sandboxSession.ts). Isomorphic: no DOM, no Node.
 */
import type {NotificationTransport} from '../engine/http';
import {verifyNotification, type ProviderKey, type Verification} from './signing';

/** Notifications an inbox keeps: the newest ones, enough for a long session of trying things. */
export const inboxLimit = 500;

/** A notification as the inbox received it. */
export interface InboxEntry {
  /** 1, 2, 3...: the order of arrival; carries on after a reload, and after the oldest are dropped. */
  readonly seq: number;
  readonly url: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: string;
  /** When it arrived, on the sandbox clock (ISO 8601). */
  readonly receivedAt: string;
}

/** Where a host keeps the entries. The inbox calls it before it changes its list, so a failed write changes nothing. */
export interface InboxStorage {
  /** The kept entries, oldest first. */
  load(): Promise<readonly InboxEntry[]>;
  /** Keeps `entry` and forgets `dropped` (the oldest, past the limit), in one step. */
  add(entry: InboxEntry, dropped: readonly InboxEntry[]): Promise<void>;
  /** Replaces every entry (an import), in one step. */
  replace(entries: readonly InboxEntry[]): Promise<void>;
  clear(): Promise<void>;
}

/** Storage that keeps nothing beyond the inbox's own list: a session in memory. */
export function memoryInboxStorage(): InboxStorage {
  return {load: async () => [], add: async () => undefined, replace: async () => undefined, clear: async () => undefined};
}

export interface InboxOptions {
  readonly storage: InboxStorage;
  /** The newest entries kept (default inboxLimit); older ones are dropped as new ones arrive. */
  readonly limit?: number;
  /** The arrival time written on an entry: the sandbox clock, which the notification's X-Timestamp is on too. */
  readonly receivedAt: () => string;
  /** The provider key notifications are verified with. */
  readonly providerKey?: ProviderKey;
}

export interface NotificationInbox {
  /** The entries, oldest first: one list for the inbox's lifetime, changed in place (pages hold on to it). */
  readonly entries: readonly InboxEntry[];
  /** What the engine delivers to: keeps the notification, then acknowledges it (HTTP 200, SUCCESS). */
  readonly transport: NotificationTransport;
  /** Reads the kept entries from storage (at start, or after the storage changed underneath). */
  load(): Promise<void>;
  /** The entries that arrived after `seq`, oldest first. */
  since(seq: number): InboxEntry[];
  /** The newest delivery of a notification, by its notificationId. */
  find(notificationId: string): InboxEntry | undefined;
  /** Checks an entry's X-Signature with the provider key, as a merchant's handler would. */
  verify(entry: InboxEntry): Promise<Verification>;
  /** Replaces every entry (an import): numbered again from 1, the newest `limit` kept. */
  replace(entries: ReadonlyArray<Omit<InboxEntry, 'seq'>>): Promise<void>;
  /** Empties the inbox and its storage. */
  clear(): Promise<void>;
  /** Empties the list only: for a reset that already emptied the storage with everything else. */
  forget(): void;
}

/** The notificationId of a body, or undefined for a body that is not a notification. */
export function notificationIdOf(body: string): string | undefined {
  try {
    const id = (JSON.parse(body) as {notificationId?: unknown} | null)?.notificationId;
    return typeof id === 'string' ? id : undefined;
  } catch {
    return undefined;
  }
}

export function createInbox(options: InboxOptions): NotificationInbox {
  const limit = options.limit ?? inboxLimit;
  const entries: InboxEntry[] = [];
  const set = (list: readonly InboxEntry[]) => entries.splice(0, entries.length, ...list.slice(-limit));
  /** Deliveries one at a time, so each gets the next number and the storage sees them in order. */
  let last: Promise<unknown> = Promise.resolve();
  const serially = <T>(work: () => Promise<T>): Promise<T> => {
    const next = last.then(work, work);
    last = next.catch(() => undefined);
    return next;
  };
  return {
    entries,
    transport: {
      deliver: (delivery) =>
        serially(async () => {
          const entry: InboxEntry = {
            seq: (entries.at(-1)?.seq ?? 0) + 1,
            url: delivery.url,
            headers: {...delivery.headers},
            body: delivery.body,
            receivedAt: options.receivedAt(),
          };
          const dropped = entries.slice(0, Math.max(0, entries.length + 1 - limit));
          // Kept before it is acknowledged: a notification acknowledged and then lost would never come again.
          await options.storage.add(entry, dropped);
          entries.push(entry);
          entries.splice(0, dropped.length);
          return {status: 200, body: '{"code":"SUCCESS"}'};
        }),
    },
    async load() {
      set([...(await options.storage.load())].sort((a, b) => a.seq - b.seq));
    },
    since: (seq) => entries.filter((entry) => entry.seq > seq),
    find: (notificationId) => [...entries].reverse().find((entry) => notificationIdOf(entry.body) === notificationId),
    async verify(entry) {
      if (!options.providerKey) throw new Error('This inbox was made without the provider key it verifies with.');
      return verifyNotification(entry, options.providerKey);
    },
    async replace(list) {
      const numbered = list.slice(-limit).map((entry, index) => ({
        url: entry.url,
        headers: {...entry.headers},
        body: entry.body,
        receivedAt: entry.receivedAt,
        seq: index + 1,
      }));
      await options.storage.replace(numbered);
      set(numbered);
    },
    async clear() {
      await options.storage.clear();
      set([]);
    },
    forget: () => void set([]),
  };
}

/** An export's inbox as entries to replace the inbox with, or the first problem with it. */
export function inboxEntriesOf(list: unknown): {ok: true; entries: Array<Omit<InboxEntry, 'seq'>>} | {ok: false; message: string} {
  if (list === undefined) return {ok: true, entries: []};
  if (!Array.isArray(list)) return {ok: false, message: "The export's inbox is not a list."};
  const entries: Array<Omit<InboxEntry, 'seq'>> = [];
  for (const [index, item] of (list as unknown[]).entries()) {
    const entry = item as Partial<Record<keyof InboxEntry, unknown>> | null;
    const headers = entry?.headers;
    const valid =
      typeof entry?.url === 'string' &&
      typeof entry.body === 'string' &&
      typeof entry.receivedAt === 'string' &&
      typeof headers === 'object' &&
      headers !== null &&
      Object.values(headers).every((value) => typeof value === 'string');
    if (!valid)
      return {ok: false, message: `Notification ${index + 1} of the export's inbox needs url, headers (text values), body and receivedAt.`};
    entries.push({
      url: entry.url as string,
      headers: {...(headers as Record<string, string>)},
      body: entry.body as string,
      receivedAt: entry.receivedAt as string,
    });
  }
  return {ok: true, entries};
}
