/**
 * The hosted sandbox's retention when several instances share one database (`--hosted --shared`): idle merchants
 * removed (with their delivery log) and old events and delivery attempts forgotten, as a due job claimed by one instance at a time. The job is the one row of
 * sandbox_sweep: an instance claims it with FOR UPDATE SKIP LOCKED when it is due, sweeps, and sets it due again
 * a sweep interval later, in one transaction; the others skip it. Each merchant it changes is locked as a call
 * locks it and gets a new version, so an instance holding a copy loads it again (or, removed, drops it).
 */
import type pg from 'pg';
import type {HostedLimits} from '../../engine/rules/types';
import type {SharedStore} from './sharedStore';

const msPerDay = 86_400_000;

export interface SweepResult {
  readonly merchantsRemoved: string[];
  readonly eventsRemoved: number;
}

const lockMerchant = (client: pg.ClientBase, clientId: string) =>
  client.query('SELECT pg_advisory_xact_lock(hashtextextended($1, 0))', [clientId]);

/** Removes the merchants whose last call is older than `idleBefore` (real ms), each with every record it holds. */
async function removeIdle(client: pg.ClientBase, idleBefore: number, keep: string): Promise<string[]> {
  const idle = await client.query<{client_id: string}>(
    'SELECT client_id FROM sandbox_merchant WHERE last_used_at < $1 AND client_id <> $2 ORDER BY client_id',
    [idleBefore, keep],
  );
  const removed: string[] = [];
  for (const {client_id: clientId} of idle.rows) {
    await lockMerchant(client, clientId);
    // Still idle once locked: a call may have used it meanwhile.
    const gone = await client.query('DELETE FROM sandbox_merchant WHERE client_id = $1 AND last_used_at < $2', [clientId, idleBefore]);
    if (!gone.rowCount) continue;
    await client.query('DELETE FROM sandbox_record WHERE client_id = $1', [clientId]);
    await client.query('DELETE FROM sandbox_delivery WHERE client_id = $1', [clientId]);
    removed.push(clientId);
  }
  return removed;
}

// createdAt and a delivery's `at` are the API's YYYY-MM-DDTHH:MM:SSZ, so text order is time order.
const cutoff = `to_char(to_timestamp(($1::double precision + m.clock_offset_ms - $2::double precision) / 1000) AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"')`;

/**
 * Forgets delivery attempts older than the retention on their merchant's own clock. No merchant lock: no
 * instance holds a copy of the log, so nothing is loaded again.
 */
async function removeOldDeliveries(client: pg.ClientBase, realNow: number, retentionMs: number): Promise<void> {
  await client.query(`DELETE FROM sandbox_delivery d USING sandbox_merchant m WHERE d.client_id = m.client_id AND d.at < ${cutoff}`, [
    realNow,
    retentionMs,
  ]);
}

/** Forgets events older than the retention on their merchant's own clock; answers how many went. */
async function removeOldEvents(client: pg.ClientBase, realNow: number, retentionMs: number): Promise<number> {
  const old = `starts_with(r.key, m.client_id || '/event/') AND (r.value->'event'->>'createdAt') < ${cutoff}`;
  const holding = await client.query<{client_id: string}>(
    `SELECT DISTINCT m.client_id FROM sandbox_merchant m JOIN sandbox_record r ON r.client_id = m.client_id WHERE ${old} ORDER BY 1`,
    [realNow, retentionMs],
  );
  let removed = 0;
  for (const {client_id: clientId} of holding.rows) {
    await lockMerchant(client, clientId);
    const deleted = await client.query(
      `DELETE FROM sandbox_record r USING sandbox_merchant m WHERE m.client_id = $3 AND r.client_id = m.client_id AND ${old}`,
      [realNow, retentionMs, clientId],
    );
    removed += deleted.rowCount ?? 0;
    await client.query("UPDATE sandbox_merchant SET version = nextval('sandbox_version') WHERE client_id = $1", [clientId]);
  }
  return removed;
}

/**
 * The sweep as hosted mode runs it on a timer (hosted.ts): undefined when it is not due or another instance is
 * running it. Time is real time: merchants' last calls are, and each merchant's events are dated on its clock.
 */
export function sharedSweep(
  store: Pick<SharedStore, 'inTransaction'>,
  limits: HostedLimits,
  options: {eventRetentionDays: number; keepClientId: string},
): () => Promise<SweepResult | undefined> {
  return () =>
    store.inTransaction(async (client) => {
      const realNow = Date.now();
      const claimed = await client.query("SELECT 1 FROM sandbox_sweep WHERE name = 'hosted' AND due_at <= $1 FOR UPDATE SKIP LOCKED", [
        realNow,
      ]);
      if (!claimed.rowCount) return undefined;
      const merchantsRemoved = await removeIdle(client, realNow - limits.idleMerchantDays * msPerDay, options.keepClientId);
      const eventsRemoved = await removeOldEvents(client, realNow, options.eventRetentionDays * msPerDay);
      await removeOldDeliveries(client, realNow, options.eventRetentionDays * msPerDay);
      await client.query("UPDATE sandbox_sweep SET due_at = $1 WHERE name = 'hosted'", [realNow + limits.sweepIntervalSeconds * 1000]);
      return {merchantsRemoved, eventsRemoved};
    });
}
