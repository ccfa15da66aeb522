/** Events: raising notifications, routing them to a URL, signed delivery with retries, List events, Redeliver event, and the notification simulator. */
import {canonicalString, formatSignatureHeader} from '../../../lib/signing';
import type {SimulatedNotification, SimulateNotificationInput} from '../api';
import {isoSeconds} from '../clock';
import type {DeliveryLog} from '../deliveryLog';
import {isAcknowledgement, type DeliveryResult, type NotificationTransport} from '../http';
import {randomId, randomNonce} from '../ids';
import type {NotifySource} from '../spec';
import type {EventRecord, JobRecord, Json, JsonObject, MerchantState} from '../state';
import {reject, type Reply, type Tx} from '../tx';
import {copyJson, hasForbiddenMember, isHttpUrl, isObject, msPerSecond} from '../values';
import {paginate, pagination, timeRange} from './lists';

export function listEvents(tx: Tx, state: MerchantState, params: Record<string, Json>): Reply {
  const range = timeRange(tx, String(params['createdFrom']), String(params['createdTo']), 'createdFrom', 'createdTo');
  const oldest = tx.clock.now() - tx.spec.delivery.eventRetentionDays * 86400 * msPerSecond;
  const events = [...state.events.values()]
    .map((record) => record.event)
    .filter((event) => {
      const at = Date.parse(event.createdAt);
      if (at < oldest || at < range.from || at >= range.to) return false;
      if (params['eventType'] !== undefined && event.eventType !== params['eventType']) return false;
      return params['deliveryStatus'] === undefined || event.delivery.status === params['deliveryStatus'];
    });
  return {code: 'SUCCESS', data: {events: paginate(tx, events, params), pagination: pagination(tx, events.length, params)}};
}

export function redeliverEvent(tx: Tx, state: MerchantState, notificationId: string): Reply {
  const record = state.events.get(notificationId);
  if (!record || Date.parse(record.event.createdAt) < tx.clock.now() - tx.spec.delivery.eventRetentionDays * 86400 * msPerSecond)
    return reject('EVENT_NOT_FOUND', `No event ${notificationId} exists in the last ${tx.spec.delivery.eventRetentionDays} days.`);
  const url = routeEvent(tx, state, record.event.eventType, record.source);
  if (!url)
    return reject(
      'NOTIFY_URL_MISSING',
      `Event ${notificationId} has no notification URL to deliver to: set a default notification URL first.`,
    );
  record.event['notifyUrl'] = url;
  if (record.event.delivery.status === 'NO_URL') record.event.delivery.status = 'PENDING';
  tx.touch(state, 'event', notificationId);
  tx.schedule({
    at: tx.clock.now(),
    clientId: state.merchant.clientId,
    kind: 'event.deliver',
    ref: notificationId,
    data: {trigger: 'REDELIVER'},
  });
  return {code: 'SUCCESS', data: record.event};
}

/** The URL an event goes to, by the contract's routing rules. */
export function routeEvent(tx: Tx, state: MerchantState, eventType: string, source: EventRecord['source']): string | undefined {
  if (source.notifyUrl) return source.notifyUrl;
  const rule = tx.spec.delivery.routing.find((candidate) => candidate.prefixes.some((prefix) => eventType.startsWith(prefix)));
  const urls: Record<NotifySource, string | undefined> = {
    order: source.order ? state.orders.get(source.order)?.notifyUrl : undefined,
    refund: source.refund ? (state.refunds.get(source.refund)?.refund['notifyUrl'] as string | undefined) : undefined,
    payout: source.payout ? state.payouts.get(source.payout)?.notifyUrl : undefined,
    agreement: source.agreement ? state.agreements.get(source.agreement)?.notifyUrl : undefined,
    default: state.merchant.defaultNotifyUrl ?? undefined,
  };
  for (const from of rule?.sources ?? ['default']) {
    const url = urls[from];
    if (url) return url;
  }
  return undefined;
}

/** Raises a notification: an event in the list, and its first delivery attempt, now. */
export function emit(
  tx: Tx,
  state: MerchantState,
  eventType: string,
  data: JsonObject,
  source: EventRecord['source'],
  notificationId = randomId('ntf_', 20),
): EventRecord {
  const createdAt = isoSeconds(tx.clock.now());
  const url = routeEvent(tx, state, eventType, source);
  const record: EventRecord = {
    event: {
      notificationId,
      eventType,
      createdAt,
      ...(url ? {notifyUrl: url} : {}),
      delivery: {status: url ? 'PENDING' : 'NO_URL', attempts: 0},
      notification: {notificationId, eventType, createdAt, data: copyJson(data)},
    },
    source,
    scheduledAttempts: 0,
    log: [],
  };
  tx.put(state, 'event', notificationId, record);
  if (url)
    tx.schedule({
      at: tx.clock.now(),
      clientId: state.merchant.clientId,
      kind: 'event.deliver',
      ref: notificationId,
      data: {trigger: 'SCHEDULE'},
    });
  return record;
}

/** What a delivery needs from the shell: the provider key, the host's transport and the delivery log. */
export interface DeliveryChannel {
  sign(canonical: string): Promise<string>;
  readonly keyVersion: number;
  readonly transport: NotificationTransport | undefined;
  readonly log: Pick<DeliveryLog, 'record'>;
}

/** One delivery attempt that was sent, and what the receiver answered. */
export interface SentDelivery {
  readonly notificationId: string;
  readonly url: string;
  readonly trigger: 'SCHEDULE' | 'REDELIVER';
  readonly result: DeliveryResult;
}

/** Signs and sends one delivery attempt of an event.deliver job; reads state, never writes it. */
export async function sendDelivery(
  tx: Pick<Tx, 'spec' | 'clock'>,
  channel: DeliveryChannel,
  state: MerchantState,
  job: JobRecord,
): Promise<SentDelivery | undefined> {
  const record = state.events.get(job.ref);
  const url = record?.event['notifyUrl'];
  if (!record || typeof url !== 'string') return undefined;
  const trigger = job.data?.['trigger'] === 'REDELIVER' ? 'REDELIVER' : 'SCHEDULE';
  const body = JSON.stringify(record.event['notification']);
  const timestamp = isoSeconds(tx.clock.now());
  const nonce = randomNonce();
  let target: string;
  try {
    const parsed = new URL(url);
    target = `${parsed.pathname}${parsed.search}`;
  } catch {
    target = '/';
  }
  const canonical = canonicalString({method: 'POST', pathWithQuery: target, clientId: state.merchant.clientId, timestamp, nonce, body});
  const signature = await channel.sign(canonical);
  const headers = {
    'Content-Type': 'application/json',
    'X-Client-Id': state.merchant.clientId,
    'X-Timestamp': timestamp,
    'X-Nonce': nonce,
    'X-Signature': formatSignatureHeader({algorithm: 'RSA-SHA256', keyVersion: channel.keyVersion, signature}),
  };
  const result = channel.transport
    ? await channel.transport.deliver({url, headers, body, timeoutSeconds: tx.spec.delivery.timeoutSeconds})
    : {error: 'no transport: the host delivers nothing'};
  return {notificationId: record.event.notificationId, url, trigger, result};
}

/** Records a sent attempt on its event, as the event is now (it may have changed while the attempt was out), and the next attempt. */
export function recordDelivery(tx: Tx, channel: DeliveryChannel, state: MerchantState, sent: SentDelivery): void {
  const record = state.events.get(sent.notificationId);
  if (!record) return;
  const {url, trigger, result} = sent;
  const acknowledged = isAcknowledgement(result);
  const at = isoSeconds(tx.clock.now());
  const attempt = {
    at,
    acknowledged,
    trigger,
    ...('status' in result ? {httpStatus: result.status} : {}),
    ...(acknowledged ? {} : {error: 'error' in result ? result.error : `HTTP ${result.status} without {"code":"SUCCESS"}`}),
  };
  record.log.push(attempt);
  const delivery = record.event.delivery;
  delivery.attempts += 1;
  delivery['lastAttemptAt'] = at;
  if ('status' in result) delivery['lastHttpStatus'] = result.status;
  if (trigger === 'SCHEDULE') record.scheduledAttempts += 1;
  if (acknowledged) {
    delivery.status = 'DELIVERED';
    delete delivery['nextAttemptAt'];
  } else if (trigger === 'SCHEDULE') {
    const schedule = state.merchant.compressedRetries
      ? tx.spec.sandbox.notifications.compressedRetryScheduleSeconds
      : tx.spec.delivery.retryScheduleSeconds;
    const wait = schedule[record.scheduledAttempts - 1];
    if (wait === undefined) {
      delivery.status = 'FAILED';
      delete delivery['nextAttemptAt'];
    } else {
      const next = tx.clock.now() + wait * msPerSecond;
      delivery['nextAttemptAt'] = isoSeconds(next);
      tx.schedule({
        at: next,
        clientId: state.merchant.clientId,
        kind: 'event.deliver',
        ref: record.event.notificationId,
        data: {trigger: 'SCHEDULE'},
      });
    }
  } else if (delivery.status === 'DELIVERED') {
    // A failed extra attempt does not undo an earlier acknowledgement.
  } else if (delivery['nextAttemptAt'] === undefined) {
    delivery.status = 'FAILED';
  }
  tx.touch(state, 'event', record.event.notificationId);
  channel.log.record({
    clientId: state.merchant.clientId,
    notificationId: record.event.notificationId,
    eventType: record.event.eventType,
    url,
    at,
    acknowledged,
    ...(attempt.httpStatus !== undefined ? {httpStatus: attempt.httpStatus} : {}),
    ...(attempt.error !== undefined ? {error: attempt.error} : {}),
  });
}

export function simulateNotification(tx: Tx, state: MerchantState, input: SimulateNotificationInput): SimulatedNotification {
  const webhook = tx.spec.webhooks.find((candidate) => candidate.operationId === input.operationId || candidate.key === input.operationId);
  if (!webhook)
    return reject(
      'INVALID_PARAMETER',
      `${String(input.operationId).slice(0, 60)} is not a notification of the contract; one of ${tx.spec.webhooks.map((candidate) => candidate.operationId).join(', ')}.`,
    );
  const scenario = webhook.scenarios.find((candidate) => candidate.name === input.scenario);
  if (!scenario)
    return reject(
      'INVALID_PARAMETER',
      `${webhook.operationId} has no scenario "${String(input.scenario).slice(0, 60)}"; its scenarios are ${webhook.scenarios.map((candidate) => candidate.name).join(', ')}.`,
    );
  const example = scenario.value as JsonObject;
  const eventType = String(example['eventType']);
  if (input.notifyUrl !== undefined && !isHttpUrl(input.notifyUrl))
    reject('INVALID_PARAMETER', 'notifyUrl must be an http or https URL, such as https://shop.example.com/payments/notify.');
  const url = input.notifyUrl ?? state.merchant.defaultNotifyUrl ?? undefined;
  if (!url)
    return reject(
      'NOTIFY_URL_MISSING',
      `${state.merchant.clientId} has no default notification URL: give notifyUrl, the URL of your endpoint, or set a default URL for the merchant first.`,
    );
  const data = input.data === undefined ? example['data'] : input.data;
  if (!isObject(data)) return reject('INVALID_PARAMETER', "data must be a JSON object: the notification's data member.");
  if (hasForbiddenMember(data)) reject('INVALID_PARAMETER', 'data must not have a member named __proto__.');
  const notificationId = randomId('ntf_', 20);
  const notification = {notificationId, eventType, createdAt: isoSeconds(tx.clock.now()), data};
  const problems = tx.validator.problems(webhook.bodySchemaPointer, notification);
  if (problems.length > 0) reject('INVALID_PARAMETER', `The notification does not match the contract: ${problems.join('; ')}.`);
  const record = emit(tx, state, eventType, data, {notifyUrl: url}, notificationId);
  return {
    operationId: webhook.operationId,
    scenario: scenario.name,
    notificationId,
    eventType,
    notifyUrl: url,
    notification: record.event.notification as JsonObject,
  };
}
