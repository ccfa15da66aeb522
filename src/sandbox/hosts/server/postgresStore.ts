/**
 * The sandbox's records in a PostgreSQL database (`npm run sandbox -- --database postgres://...`): the same
 * SandboxStore as the journal file, so the engine behaves the same on either. Each batch is one transaction
 * (all or nothing, durable when COMMIT returns, in the order given); the schema is created and upgraded by
 * the versioned migrations below when the store opens.
 *
 * One sandbox process owns a database at a time, as one owns a journal file: it holds a session advisory
 * lock for as long as it runs, and a second process is refused with a sentence that says so. A database
 * that holds tables of something else is refused and left as it was.
 */
import pg from 'pg';
import type {DeliveryLogEntry} from '../../engine/api';
import type {DeliveryLogChanges, RecordChange, RecordValue, SandboxStore} from '../../engine/store';

/** The database cannot be used: one line naming the database (password left out) and the problem. */
export class SandboxDatabaseError extends Error {
  constructor(database: string, problem: string) {
    super(`database ${database}: ${problem}`);
    this.name = 'SandboxDatabaseError';
  }
}

/**
 * The schema's versions, in order. A version once released is never edited: a change is a new version.
 * Each runs in its own transaction and is recorded in sandbox_migration.
 */
export const migrations: ReadonlyArray<{readonly version: number; readonly name: string; readonly sql: string}> = [
  {
    version: 1,
    name: 'records',
    // json, not jsonb: a record comes back with its members in the order it was written.
    sql: 'CREATE TABLE sandbox_record (key text PRIMARY KEY, value json NOT NULL)',
  },
  {
    version: 2,
    name: 'instances',
    // For several instances on one database (sharedStore.ts): each record's merchant and each job's due time,
    // computed from the key and value by PostgreSQL, so every writer fills them; and each merchant's version.
    sql: `ALTER TABLE sandbox_record
      ADD COLUMN client_id text GENERATED ALWAYS AS (CASE
        WHEN starts_with(key, '~/merchant/') THEN substr(key, 12)
        WHEN starts_with(key, '~/job/') THEN value->>'clientId'
        WHEN starts_with(key, '~/') THEN NULL
        ELSE split_part(key, '/', 1) END) STORED,
      ADD COLUMN due_at double precision GENERATED ALWAYS AS (
        CASE WHEN starts_with(key, '~/job/') THEN (value->>'at')::double precision END) STORED;
    CREATE INDEX sandbox_record_client ON sandbox_record (client_id);
    CREATE INDEX sandbox_record_due ON sandbox_record (due_at) WHERE due_at IS NOT NULL;
    CREATE SEQUENCE sandbox_version;
    CREATE TABLE sandbox_merchant (client_id text PRIMARY KEY, version bigint NOT NULL);
    INSERT INTO sandbox_merchant SELECT client_id, nextval('sandbox_version') FROM sandbox_record WHERE starts_with(key, '~/merchant/')`,
  },
  {
    version: 3,
    name: 'hosted tenants',
    // The hosted sandbox on several instances (sharedSweep.ts): when each merchant last made a call (real ms;
    // its registration until then), how far its own clock runs ahead (copied from its record at each commit, so
    // due jobs are claimed on it), and the sweep of idle merchants and old events, claimed by one instance.
    sql: `ALTER TABLE sandbox_merchant
      ADD COLUMN last_used_at double precision,
      ADD COLUMN clock_offset_ms double precision NOT NULL DEFAULT 0;
    UPDATE sandbox_merchant m SET last_used_at = (r.value->>'createdAt')::double precision
      FROM sandbox_record r WHERE r.key = '~/merchant/' || m.client_id;
    CREATE INDEX sandbox_merchant_clock ON sandbox_merchant (client_id) WHERE clock_offset_ms > 0;
    CREATE TABLE sandbox_sweep (name text PRIMARY KEY, due_at double precision NOT NULL);
    INSERT INTO sandbox_sweep VALUES ('hosted', 0)`,
  },
  {
    version: 4,
    name: 'delivery log',
    // Every notification attempt (engine/deliveryLog.ts), written in the transaction that records its outcome and
    // read by every instance: a merchant's newest first by (client_id, id). `at` is the attempt's time as the
    // entry shows it, ISO seconds on the merchant's clock, so text order is time order (the sweep's retention).
    sql: `CREATE TABLE sandbox_delivery (
      client_id text NOT NULL,
      id bigserial NOT NULL,
      notification_id text NOT NULL,
      event_type text NOT NULL,
      url text NOT NULL,
      at text NOT NULL,
      acknowledged boolean NOT NULL,
      http_status integer,
      error text,
      PRIMARY KEY (client_id, id))`,
  },
];

/** The advisory lock keys: one while migrating (any process), one for the owner of the database. */
const migrationLock = 7_354_220_001;
export const ownerLock = 7_354_220_002;

export interface PostgresStore extends SandboxStore {
  /** The database, as the user gave it, without its password: for messages. */
  readonly database: string;
  /** The schema version the database is at once loaded. */
  readonly schemaVersion: () => number;
  replace(records: ReadonlyArray<readonly [string, RecordValue]>): Promise<void>;
  /** Waits for the writes under way, gives back the lock and closes the connection. */
  close(): Promise<void>;
}

/** The URL without its password, for messages and logs. */
export function describeDatabase(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password) parsed.password = '***';
    return parsed.toString();
  } catch {
    return 'postgres://(an address that is not a URL)';
  }
}

/** Applies the versions the database lacks, under a lock so that instances starting together do not race. */
export async function migrate(client: pg.ClientBase, database: string): Promise<number> {
  await client.query('SELECT pg_advisory_lock($1)', [migrationLock]);
  try {
    const tables = await client.query<{table_name: string}>(
      "SELECT table_name FROM information_schema.tables WHERE table_schema = current_schema() AND table_type = 'BASE TABLE'",
    );
    const names = tables.rows.map((row) => row.table_name);
    const foreign = names.filter((name) => !name.startsWith('sandbox_'));
    if (foreign.length > 0 && !names.includes('sandbox_migration')) {
      throw new SandboxDatabaseError(
        database,
        `holds tables that are not a sandbox's (${foreign.slice(0, 5).join(', ')}); give it an empty database`,
      );
    }
    await client.query(
      'CREATE TABLE IF NOT EXISTS sandbox_migration (version integer PRIMARY KEY, name text NOT NULL, applied_at timestamptz NOT NULL DEFAULT now())',
    );
    const applied = new Set(
      (await client.query<{version: number}>('SELECT version FROM sandbox_migration')).rows.map((row) => row.version),
    );
    const newest = Math.max(0, ...applied);
    const known = migrations.at(-1)?.version ?? 0;
    if (newest > known)
      throw new SandboxDatabaseError(
        database,
        `its schema is version ${newest}, newer than this sandbox knows (${known}); run the newer sandbox`,
      );
    for (const migration of migrations.filter((candidate) => !applied.has(candidate.version))) {
      await client.query('BEGIN');
      try {
        await client.query(migration.sql);
        await client.query('INSERT INTO sandbox_migration (version, name) VALUES ($1, $2)', [migration.version, migration.name]);
        await client.query('COMMIT');
      } catch (error) {
        await client.query('ROLLBACK');
        throw new SandboxDatabaseError(
          database,
          `schema version ${migration.version} (${migration.name}) failed: ${(error as Error).message}`,
        );
      }
    }
    return known;
  } finally {
    await client.query('SELECT pg_advisory_unlock($1)', [migrationLock]);
  }
}

/** Last write wins within a batch, as it does in the journal: one row per key. */
export function splitBatch(changes: readonly RecordChange[]): {keys: string[]; values: string[]; deleted: string[]} {
  const last = new Map<string, RecordValue | undefined>();
  for (const change of changes) last.set(change.key, change.value);
  const keys: string[] = [];
  const values: string[] = [];
  const deleted: string[] = [];
  for (const [key, value] of last) {
    if (value === undefined) deleted.push(key);
    else {
      keys.push(key);
      values.push(JSON.stringify(value));
    }
  }
  return {keys, values, deleted};
}

/** Writes a batch's delivery log changes (engine/deliveryLog.ts) in the caller's transaction: removals first, then new attempts in order. */
export async function writeDeliveries(client: pg.ClientBase, log: DeliveryLogChanges | undefined): Promise<void> {
  if (!log) return;
  if (log.removed.length > 0)
    await client.query(
      `DELETE FROM sandbox_delivery d USING unnest($1::text[], $2::text[]) AS r(client_id, before)
       WHERE d.client_id = r.client_id AND (r.before IS NULL OR d.at < r.before)`,
      [log.removed.map((entry) => entry.clientId), log.removed.map((entry) => entry.before ?? null)],
    );
  if (log.added.length === 0) return;
  const column = <K extends keyof DeliveryLogEntry>(name: K) => log.added.map((entry) => entry[name] ?? null);
  await client.query(
    `INSERT INTO sandbox_delivery (client_id, notification_id, event_type, url, at, acknowledged, http_status, error)
     SELECT c, n, e, u, a, k, h, r FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[], $6::boolean[], $7::integer[], $8::text[])
       WITH ORDINALITY AS added(c, n, e, u, a, k, h, r, position) ORDER BY position`,
    [
      column('clientId'),
      column('notificationId'),
      column('eventType'),
      column('url'),
      column('at'),
      column('acknowledged'),
      column('httpStatus'),
      column('error'),
    ],
  );
}

type DeliveryRow = {
  client_id: string;
  notification_id: string;
  event_type: string;
  url: string;
  at: string;
  acknowledged: boolean;
  http_status: number | null;
  error: string | null;
};

/** One merchant's newest `limit` attempts (every merchant's without `clientId`), oldest first, as the engine's entries. */
export async function readDeliveries(
  client: Pick<pg.ClientBase, 'query'>,
  clientId: string | undefined,
  limit: number,
): Promise<DeliveryLogEntry[]> {
  const columns = 'client_id, id, notification_id, event_type, url, at, acknowledged, http_status, error';
  const newest =
    clientId === undefined
      ? client.query<DeliveryRow>(`SELECT * FROM (SELECT ${columns} FROM sandbox_delivery ORDER BY id DESC LIMIT $1) n ORDER BY id`, [
          limit,
        ])
      : client.query<DeliveryRow>(
          `SELECT * FROM (SELECT ${columns} FROM sandbox_delivery WHERE client_id = $2 ORDER BY id DESC LIMIT $1) n ORDER BY id`,
          [limit, clientId],
        );
  return (await newest).rows.map((row) => ({
    clientId: row.client_id,
    notificationId: row.notification_id,
    eventType: row.event_type,
    url: row.url,
    at: row.at,
    acknowledged: row.acknowledged,
    ...(row.http_status !== null ? {httpStatus: row.http_status} : {}),
    ...(row.error !== null ? {error: row.error} : {}),
  }));
}

export function postgresStore(url: string): PostgresStore {
  const database = describeDatabase(url);
  const client = new pg.Client({connectionString: url, application_name: 'veloxa-sandbox'});
  let opened: Promise<void> | undefined;
  let version = 0;
  /** Every write goes through this chain: batches reach the database in the order they were made. */
  let queue: Promise<unknown> = Promise.resolve();
  // A connection lost while idle is reported on the next write; without a listener it would end the process.
  client.on('error', () => undefined);

  const open = () =>
    (opened ??= (async () => {
      try {
        await client.connect();
      } catch (error) {
        throw new SandboxDatabaseError(database, `cannot connect: ${(error as Error).message}`);
      }
      const owner = await client.query<{locked: boolean}>('SELECT pg_try_advisory_lock($1) AS locked', [ownerLock]);
      if (!owner.rows[0]?.locked)
        throw new SandboxDatabaseError(database, 'is in use by another sandbox; stop it (or them) first or give another database');
      version = await migrate(client, database);
    })());

  const inTransaction = (work: () => Promise<void>): Promise<void> => {
    const next = queue.then(async () => {
      await open();
      await client.query('BEGIN');
      try {
        await work();
        await client.query('COMMIT');
      } catch (error) {
        await client.query('ROLLBACK').catch(() => undefined);
        throw error;
      }
    });
    queue = next.catch(() => undefined);
    return next;
  };

  const write = async ({keys, values, deleted}: ReturnType<typeof splitBatch>) => {
    if (deleted.length > 0) await client.query('DELETE FROM sandbox_record WHERE key = ANY($1::text[])', [deleted]);
    if (keys.length > 0) {
      await client.query(
        'INSERT INTO sandbox_record (key, value) SELECT * FROM unnest($1::text[], $2::json[]) ON CONFLICT (key) DO UPDATE SET value = excluded.value',
        [keys, values],
      );
    }
  };

  return {
    database,
    schemaVersion: () => version,
    async load() {
      await open();
      const rows = await client.query<{key: string; value: RecordValue}>('SELECT key, value FROM sandbox_record');
      return rows.rows.map((row) => [row.key, row.value] as const);
    },
    commit: (changes, log) =>
      changes.length === 0 && !log
        ? Promise.resolve()
        : inTransaction(async () => {
            await write(splitBatch(changes));
            await writeDeliveries(client, log);
          }),
    deliveries(clientId, limit) {
      // In the write chain: a read sees every batch committed before it, and never lands inside a transaction.
      const read = queue.then(async () => {
        await open();
        return readDeliveries(client, clientId, limit);
      });
      queue = read.catch(() => undefined);
      return read;
    },
    clear: () => inTransaction(async () => void (await client.query('DELETE FROM sandbox_record; DELETE FROM sandbox_delivery'))),
    replace: (records) =>
      inTransaction(async () => {
        await client.query('DELETE FROM sandbox_record; DELETE FROM sandbox_delivery');
        await write(splitBatch(records.map(([key, value]) => ({key, value}))));
      }),
    async close() {
      await queue;
      if (opened) await client.end().catch(() => undefined);
    },
  };
}
