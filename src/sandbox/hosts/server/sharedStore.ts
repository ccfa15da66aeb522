/**
 * Several sandbox instances on one PostgreSQL database (`npm run sandbox -- --database URL --shared`): the SQL
 * side. sharedInstance.ts joins it to an engine and the HTTP server. The design, a transaction per call that
 * locks the merchant:
 *
 * - Every API call, shopper or control action and job run belongs to one merchant. The instance opens a
 *   transaction, takes that merchant's lock (pg_advisory_xact_lock on a hash of the client ID, which also
 *   covers a merchant that has no row yet, one being registered) and reads the merchant's version
 *   (sandbox_merchant) and the shared clock offset.
 * - When the version is not the one the instance last loaded, it loads that merchant's records only
 *   (sandbox_record.client_id) in place of its copy; other merchants stay as they are.
 * - The engine runs the unit of work; its batch is written in the same transaction, the merchant's version
 *   takes the next value of one sequence (versions never repeat, even across databases reset by hand), and the
 *   transaction COMMITs before the instance answers. A call is three round trips: BEGIN with the lock and the
 *   reads, the batch, the version bump with COMMIT (a test counts them). No answer is sent for a write the database does not
 *   have: a failed transaction is answered 503 SYSTEM_BUSY with Retry-After, and the instance's copy of the
 *   merchant is dropped, to be loaded again.
 * - Idempotency records and nonces are the merchant's records, so a replay through another instance finds
 *   them after its reload and answers as the contract says.
 * - Due jobs are the rows with a due_at. An instance's poll first asks, in no transaction and outside its
 *   turn, whether any job it may claim is due (most polls find none); then it claims the earliest due one with
 *   FOR UPDATE SKIP LOCKED in a transaction that then locks its merchant and runs it, so each job runs once
 *   however many instances poll. It claims jobs of merchants whose current version it holds (it made their last write), and others' only
 *   once `claimGraceMs` overdue (claim affinity). A notification attempt is recorded before it is sent: its claim
 *   moves the job's due time on by a lease and commits; the attempt is sent with no lock held; its result is
 *   recorded in a transaction of its own, which deletes the job and schedules the contract's retry. An instance killed after sending leaves
 *   the leased job, which another instance sends again when the lease ends: at least once.
 * - The clock offset is one record, read by every transaction and written only by a clock advance, under a
 *   lock of its own (the engine's own batches leave it out).
 * - The delivery log is one table (sandbox_delivery): an attempt's entry is written in the transaction that
 *   records its outcome, whichever instance sent it, and every instance lists a merchant's log from there. It
 *   is not part of a merchant's version: no instance holds a copy of it.
 *
 * One instance runs one such transaction at a time (its engine's units run one at a time anyway); instances
 * run in parallel, and contend only on a merchant they both serve.
 */
import pg from 'pg';
import type {RecordChange, RecordValue, SandboxStore} from '../../engine/store';
import {describeDatabase, migrate, ownerLock, readDeliveries, SandboxDatabaseError, splitBatch, writeDeliveries} from './postgresStore';

/** The database failed or is unreachable during a call: answered 503 with Retry-After, nothing half-written. */
export class DatabaseUnavailable extends Error {
  constructor(cause: unknown) {
    super(`the database is unavailable: ${(cause as Error).message}`);
    this.name = 'DatabaseUnavailable';
  }
}

/** What a transaction found when it took a merchant's lock. */
export interface LockedMerchant {
  readonly clientId: string;
  /** The merchant's version in the database; null when the database has no record of it. */
  readonly version: string | null;
  /** The shared clock's offset (ms). */
  readonly clockOffsetMs: number;
  /** Every record of this merchant (its own record, collections and jobs). */
  records(): Promise<Array<readonly [string, RecordValue]>>;
}

/** A due job claimed in the database. */
export interface ClaimedJob {
  readonly id: string;
  readonly clientId: string;
  readonly kind: string;
  /** Moves the job's due time to `at` (sandbox clock ms) in this transaction: the lease of a delivery attempt. */
  lease(at: number): Promise<void>;
}

export interface SharedStore extends SandboxStore {
  readonly database: string;
  /**
   * Runs `work` in a transaction holding `clientId`'s lock, after `locked` has seen the version and clock;
   * COMMITs what the engine committed meanwhile, with the merchant's next version. Resolves with the work's
   * value and the version the instance now holds.
   */
  withMerchant<T>(
    clientId: string,
    locked: (merchant: LockedMerchant) => Promise<void>,
    work: () => Promise<T>,
  ): Promise<{value: T; version: string | null}>;
  /**
   * Claims the earliest job due by `realNow` on the shared clock, locks its merchant and runs `work` in the
   * same transaction; undefined when no job is due (or every due one is claimed by another instance). Jobs of
   * merchants whose current version is not the one in `held` wait `claimGraceMs` for the instance holding it (claim affinity).
   */
  claimDueJob(
    realNow: number,
    held: ReadonlyMap<string, string>,
    locked: (merchant: LockedMerchant) => Promise<void>,
    work: (job: ClaimedJob) => Promise<void>,
  ): Promise<{job: ClaimedJob; version: string | null} | undefined>;
  /** Moves the shared clock on by `byMs` from the later of its value and `atLeastMs`; the new offset. */
  advanceClock(byMs: number, atLeastMs: number): Promise<number>;
  /** Runs `work` in a transaction of its own, in this instance's turn (the hosted sweep, sharedSweep.ts). */
  inTransaction<T>(work: (client: pg.ClientBase) => Promise<T>): Promise<T>;
  /** Checks the database answers (the health endpoint). */
  ping(): Promise<void>;
  /** Runs `work` while no other instance runs its own (start-up: the test merchant is created once). */
  exclusive<T>(work: () => Promise<T>): Promise<T>;
  close(): Promise<void>;
}

const clockKey = '~/clock/offset';
/** Session advisory lock keys: start-up (one instance creates the test merchant), and the clock. */
const startLock = 7_354_220_003;
const clockLock = 7_354_220_004;
/** A lock wait longer than this ends the transaction (answered 503), so a stuck instance never stalls others for long. */
const lockTimeout = '10s';

/** A transaction's first statements (sent in one round trip with what follows them, lockMerchant). */
const beginStatements = ['BEGIN', `SET LOCAL lock_timeout = '${lockTimeout}'`];

const literal = (text: string) => pg.escapeLiteral(text);

/**
 * Statements sent as one simple query, one round trip (the driver sends a query only when the last has
 * answered): their results in order. They take no parameters, so values go in as literals (`literal`).
 */
async function simple(client: pg.ClientBase, statements: readonly string[]): Promise<pg.QueryResult[]> {
  const result = (await client.query(statements.join(';\n'))) as pg.QueryResult | pg.QueryResult[];
  return Array.isArray(result) ? result : [result];
}

/** A database step: any failure of it is the database's. */
const db = <T>(step: Promise<T>): Promise<T> =>
  step.catch((error: unknown) => {
    throw new DatabaseUnavailable(error);
  });

interface Transaction {
  readonly client: pg.PoolClient;
  /** The merchants whose records the transaction wrote (a registration writes one that is not locked: new, nobody else knows it). */
  readonly touched: Set<string>;
  failed?: unknown;
}

/** Last write wins within a batch (as in the single-process store); the clock is left out (only advanceClock writes it). */
const rowsOf = (changes: readonly RecordChange[]) => splitBatch(changes.filter((change) => change.key !== clockKey));

type DueRow = {key: string; client_id: string | null; value: Record<string, unknown>};
const sharedClock = `coalesce((SELECT (value::text)::double precision FROM sandbox_record WHERE key = '${clockKey}'), 0)`;

/**
 * How long past due a job waits for the instance holding its merchant before any instance claims it. nginx
 * sends a merchant's calls to one instance; were another to run its job, it would bump the merchant's version
 * and the serving instance would reload the merchant's whole state on its next call (and wait on its lock).
 * Well over the job poll (200 ms under load), so a live instance always wins; short enough that a dead
 * instance's merchants' jobs run soon after (at least once, each once: SKIP LOCKED stays).
 */
export const claimGraceMs = 2000;

/**
 * The due jobs this instance may claim, earliest first: on the shared clock (an index range), or among the
 * merchants whose own clock runs ahead (hosted sandbox; a partial index holds only those, so this costs nothing
 * when there are none). A job of a merchant whose database version is not the one in `held` (client ID to the
 * version this instance holds) counts only once `claimGraceMs` overdue. `$1` is real time, `$2` and `$3` the
 * held merchants and versions.
 */
function dueQueries(suffix: string): readonly [string, string] {
  // Held: this instance's copy is the database's version (it made the merchant's last write: it serves its calls).
  const heldOrOverdue = (clock: string) =>
    `(r.client_id IN (SELECT v.client_id FROM sandbox_merchant v JOIN unnest($2::text[], $3::text[]) AS h (client_id, version)
       ON v.client_id = h.client_id AND v.version::text = h.version)
     OR r.due_at <= $1::double precision - ${claimGraceMs} + ${clock})`;
  return [
    `SELECT r.key, r.client_id, r.value FROM sandbox_record r WHERE r.due_at <= $1::double precision + ${sharedClock}
     AND ${heldOrOverdue(sharedClock)} ORDER BY r.due_at LIMIT 1 ${suffix}`,
    `SELECT r.key, r.client_id, r.value FROM sandbox_merchant m JOIN sandbox_record r ON r.client_id = m.client_id
     WHERE m.clock_offset_ms > 0 AND r.due_at <= $1::double precision + ${sharedClock} + m.clock_offset_ms
     AND ${heldOrOverdue(`${sharedClock} + m.clock_offset_ms`)} ORDER BY r.due_at - m.clock_offset_ms LIMIT 1 ${suffix}`,
  ];
}

const claimQueries = dueQueries('FOR UPDATE OF r SKIP LOCKED');
const [sharedDue, ownClockDue] = dueQueries('');
/** Whether any job is due that this instance may claim: one read, in no transaction, no row locked. */
const anyDueQuery = `SELECT EXISTS (${sharedDue}) OR EXISTS (${ownClockDue}) AS due`;

const dueValues = (realNow: number, held: ReadonlyMap<string, string>) => [realNow, [...held.keys()], [...held.values()]];

/** The earliest due job this instance may claim (dueQueries), claimed: its row is locked until the transaction ends. */
async function claimDue(client: pg.ClientBase, realNow: number, held: ReadonlyMap<string, string>): Promise<pg.QueryResult<DueRow>> {
  const values = dueValues(realNow, held);
  const shared = await client.query<DueRow>(claimQueries[0], values);
  if (shared.rows.length > 0) return shared;
  return client.query<DueRow>(claimQueries[1], values);
}

/** The merchants a batch outside any call touches (the start-up's test merchant). */
function merchantsOf(changes: readonly RecordChange[]): Set<string> {
  const ids = new Set<string>();
  for (const {key, value} of changes) {
    if (key.startsWith('~/merchant/')) ids.add(key.slice('~/merchant/'.length));
    else if (key.startsWith('~/job/') && value && typeof value === 'object' && !Array.isArray(value)) ids.add(String(value['clientId']));
    else if (!key.startsWith('~/')) ids.add(key.split('/')[0] ?? '');
  }
  return ids;
}

export function sharedStore(url: string, options: {preload: readonly string[]; poolSize?: number}): SharedStore {
  const database = describeDatabase(url);
  const pool = new pg.Pool({
    connectionString: url,
    application_name: 'veloxa-sandbox-shared',
    max: options.poolSize ?? 4,
    connectionTimeoutMillis: 3000,
  });
  // A connection lost while idle (PostgreSQL restarted) is replaced on the next checkout; unheard, it would end the process.
  pool.on('error', () => undefined);
  const holder = new pg.Client({connectionString: url, application_name: 'veloxa-sandbox-shared'});
  holder.on('error', () => undefined);
  let opened: Promise<void> | undefined;
  let current: Transaction | undefined;
  let chain: Promise<unknown> = Promise.resolve();

  const open = () =>
    (opened ??= (async () => {
      let client: pg.PoolClient;
      try {
        client = await checkout();
      } catch (error) {
        opened = undefined;
        throw new SandboxDatabaseError(database, `cannot connect: ${(error as Error).message}`);
      }
      try {
        await migrate(client, database);
      } finally {
        client.release();
      }
      // Held for the instance's life, shared with the other instances: a sandbox that keeps the database alone
      // (started without --shared) takes this lock exclusively, so neither starts while the other runs.
      await holder.connect();
      const shared = await holder.query<{locked: boolean}>('SELECT pg_try_advisory_lock_shared($1) AS locked', [ownerLock]);
      if (!shared.rows[0]?.locked)
        throw new SandboxDatabaseError(database, 'is in use by a sandbox that keeps it alone (started without --shared); stop it first');
    })());

  /**
   * A pooled connection with an error listener while it is out of the pool: the pool listens only to idle
   * ones, and a connection PostgreSQL ends mid-transaction would otherwise end the process.
   */
  const checkout = async (): Promise<pg.PoolClient> => {
    const client = await pool.connect();
    const ignore = () => undefined;
    client.on('error', ignore);
    const release = client.release.bind(client);
    client.release = (destroy?: boolean | Error) => {
      client.off('error', ignore);
      release(destroy);
    };
    return client;
  };

  /** One transaction at a time in this instance, in the order asked. */
  const serial = <T>(work: () => Promise<T>): Promise<T> => {
    const next = chain.then(work);
    chain = next.catch(() => undefined);
    return next;
  };

  const write = async (client: pg.ClientBase, {keys, values, deleted}: ReturnType<typeof rowsOf>) => {
    if (deleted.length > 0) await client.query('DELETE FROM sandbox_record WHERE key = ANY($1::text[])', [deleted]);
    if (keys.length > 0)
      await client.query(
        'INSERT INTO sandbox_record (key, value) SELECT * FROM unnest($1::text[], $2::json[]) ON CONFLICT (key) DO UPDATE SET value = excluded.value',
        [keys, values],
      );
  };

  /**
   * The statement giving a merchant its next version, its clock's lead copied from its record, and (for a call,
   * `usedAt`) its last use. A literal statement, so it travels with the COMMIT in one round trip (commitWith).
   */
  const bumpStatement = (clientId: string, usedAt: number | null = null) =>
    `INSERT INTO sandbox_merchant (client_id, version, last_used_at, clock_offset_ms)
     VALUES (${literal(clientId)}, nextval('sandbox_version'), ${usedAt === null ? 'NULL' : String(usedAt)},
       coalesce((SELECT (value->>'clockOffsetMs')::double precision FROM sandbox_record WHERE key = ${literal(`~/merchant/${clientId}`)}), 0))
     ON CONFLICT (client_id) DO UPDATE SET version = excluded.version, clock_offset_ms = excluded.clock_offset_ms,
       last_used_at = coalesce(excluded.last_used_at, sandbox_merchant.last_used_at)
     RETURNING version::text AS version`;

  /** Bumps these merchants' versions and COMMITs, in one round trip; each merchant's new version. */
  const commitWith = async (
    client: pg.ClientBase,
    bumps: ReadonlyArray<readonly [string, number | null]>,
  ): Promise<Map<string, string>> => {
    const results = await simple(client, [...bumps.map(([clientId, usedAt]) => bumpStatement(clientId, usedAt)), 'COMMIT']);
    return new Map(bumps.map(([clientId], index) => [clientId, String(results[index]?.rows[0]?.['version'] ?? '')]));
  };

  /**
   * Takes the merchant's lock and reads its version and the clock, in one round trip; with `begin`, the
   * transaction's BEGIN goes first in the same one. The read is a statement of its own after the lock's: READ
   * COMMITTED takes a snapshot per statement, so it sees what the lock's last holder committed.
   */
  const lockMerchant = async (client: pg.ClientBase, clientId: string, begin = false): Promise<LockedMerchant> => {
    const results = await simple(client, [
      ...(begin ? beginStatements : []),
      `SELECT pg_advisory_xact_lock(hashtextextended(${literal(clientId)}, 0))`,
      `SELECT (SELECT version::text FROM sandbox_merchant WHERE client_id = ${literal(clientId)}) AS version,
              (SELECT value::text FROM sandbox_record WHERE key = ${literal(clockKey)}) AS clock`,
    ]);
    const row = results.at(-1)?.rows[0] as {version: string | null; clock: string | null} | undefined;
    return {
      clientId,
      version: row?.version ?? null,
      clockOffsetMs: Number(row?.clock ?? 0) || 0,
      records: async () =>
        (
          await db(
            client.query<{key: string; value: RecordValue}>('SELECT key, value FROM sandbox_record WHERE client_id = $1', [clientId]),
          )
        ).rows.map((record) => [record.key, record.value] as const),
    };
  };

  /**
   * A transaction on a pooled connection: database failures become DatabaseUnavailable; what `body` throws
   * is passed on after a ROLLBACK. `merchant` is whose version the engine's writes bump. With `lock`, the
   * transaction begins by taking that merchant's lock (in BEGIN's round trip) and `body` gets what it found.
   */
  const transaction = async <T>(
    body: (tx: Transaction, locked: LockedMerchant | undefined) => Promise<{value: T; merchant?: string; call?: boolean}>,
    lock?: string,
  ) => {
    await db(open());
    let client: pg.PoolClient;
    let locked: LockedMerchant | undefined;
    try {
      client = await checkout();
    } catch (error) {
      throw new DatabaseUnavailable(error);
    }
    try {
      if (lock === undefined) await simple(client, beginStatements);
      else locked = await lockMerchant(client, lock, true);
    } catch (error) {
      await client.query('ROLLBACK').catch(() => undefined);
      client.release(true);
      throw new DatabaseUnavailable(error);
    }
    const tx: Transaction = {client, touched: new Set()};
    let broken = false;
    try {
      const {value, merchant, call} = await body(tx, locked);
      if (tx.failed) throw new DatabaseUnavailable(tx.failed);
      try {
        const now = Date.now();
        const versions = await commitWith(
          client,
          [...tx.touched].map((clientId) => [clientId, call && clientId === merchant ? now : null] as const),
        );
        return {value, version: merchant === undefined ? undefined : versions.get(merchant)};
      } catch (error) {
        throw new DatabaseUnavailable(error);
      }
    } catch (error) {
      broken = error instanceof DatabaseUnavailable;
      await client.query('ROLLBACK').catch(() => undefined);
      throw error;
    } finally {
      current = undefined;
      // A connection that failed mid-transaction is closed rather than reused.
      client.release(broken ? true : undefined);
    }
  };

  return {
    database,
    async load() {
      await open();
      const rows = await pool.query<{key: string; value: RecordValue}>(
        'SELECT key, value FROM sandbox_record WHERE client_id = ANY($1::text[]) OR key = $2',
        [options.preload, clockKey],
      );
      return rows.rows.map((row) => [row.key, row.value] as const);
    },
    async commit(changes, log) {
      const rows = rowsOf(changes);
      if (rows.keys.length + rows.deleted.length === 0 && !log) return;
      const tx = current;
      if (tx) {
        // Inside a call: written in its transaction. A failure is kept for the transaction to report, so the
        // engine's commit chain stays usable for the next call.
        try {
          await write(tx.client, rows);
          await writeDeliveries(tx.client, log);
          for (const clientId of merchantsOf(changes)) tx.touched.add(clientId);
        } catch (error) {
          tx.failed ??= error;
        }
        return;
      }
      // Outside any call (the test merchant created at start-up, under exclusive()).
      const client = await checkout();
      try {
        await client.query('BEGIN');
        await write(client, rows);
        await writeDeliveries(client, log);
        await commitWith(
          client,
          [...merchantsOf(changes)].map((clientId) => [clientId, null] as const),
        );
      } catch (error) {
        await client.query('ROLLBACK').catch(() => undefined);
        throw error;
      } finally {
        client.release();
      }
    },
    // Outside any transaction of this instance: committed attempts, whichever instance made them.
    deliveries: (clientId, limit) => db(open().then(() => readDeliveries(pool, clientId, limit))),
    clear: () => Promise.reject(new SandboxDatabaseError(database, 'reset is not available when several instances share the database')),
    replace: () => Promise.reject(new SandboxDatabaseError(database, 'import is not available when several instances share the database')),

    withMerchant: (clientId, locked, work) =>
      serial(async () => {
        const {value, version} = await transaction(async (tx, merchant) => {
          if (!merchant) throw new Error('a call transaction begins with its merchant locked');
          await locked(merchant);
          current = tx;
          const result = await work();
          return {value: {result, held: merchant.version}, merchant: clientId, call: true};
        }, clientId);
        return {value: value.result, version: version ?? value.held};
      }),

    claimDueJob: async (realNow, held, locked, work) => {
      // Most polls find nothing due. They ask on a pooled connection of their own, outside this instance's turn:
      // a transaction in the turn for each poll held up the calls queued behind it (issue 33, the two-instance tail).
      // The claim itself stays a transaction with FOR UPDATE SKIP LOCKED, so each job still runs once.
      await db(open());
      const due = await db(pool.query<{due: boolean}>(anyDueQuery, dueValues(realNow, held)));
      if (!due.rows[0]?.due) return undefined;
      return serial(async () => {
        const {value, version} = await transaction(async (tx) => {
          const due = (await db(claimDue(tx.client, realNow, held))).rows[0];
          if (!due?.client_id) return {value: undefined};
          const merchant = await db(lockMerchant(tx.client, due.client_id));
          await locked(merchant);
          const job: ClaimedJob = {
            id: due.key.slice('~/job/'.length),
            clientId: due.client_id,
            kind: String(due.value['kind']),
            lease: async (at) =>
              void (await db(
                tx.client.query('UPDATE sandbox_record SET value = $2 WHERE key = $1', [due.key, JSON.stringify({...due.value, at})]),
              )),
          };
          current = tx;
          await work(job);
          return {value: {job, held: merchant.version}, merchant: due.client_id};
        });
        return value && {job: value.job, version: version ?? value.held};
      });
    },

    advanceClock: (byMs, atLeastMs) =>
      serial(async () => {
        const {value} = await transaction(async ({client}) => {
          const offset = await db(
            (async () => {
              await client.query('SELECT pg_advisory_xact_lock($1)', [clockLock]);
              const row = await client.query<{clock: string}>('SELECT value::text AS clock FROM sandbox_record WHERE key = $1', [clockKey]);
              const next = Math.max(Number(row.rows[0]?.clock ?? 0) || 0, atLeastMs) + byMs;
              await client.query(
                'INSERT INTO sandbox_record (key, value) VALUES ($1, $2) ON CONFLICT (key) DO UPDATE SET value = excluded.value',
                [clockKey, JSON.stringify(next)],
              );
              return next;
            })(),
          );
          return {value: offset};
        });
        return value;
      }),

    inTransaction: (work) => serial(async () => (await transaction(async ({client}) => ({value: await work(client)}))).value),

    async ping() {
      try {
        await pool.query('SELECT 1');
      } catch (error) {
        throw new DatabaseUnavailable(error);
      }
    },

    async exclusive(work) {
      await open();
      const client = await checkout();
      try {
        await client.query('SELECT pg_advisory_lock($1)', [startLock]);
        return await work();
      } finally {
        await client.query('SELECT pg_advisory_unlock($1)', [startLock]).catch(() => undefined);
        client.release();
      }
    },

    async close() {
      await chain;
      await pool.end().catch(() => undefined);
      await holder.end().catch(() => undefined);
    },
  };
}
