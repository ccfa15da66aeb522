/**
 * Try it's state apart from its view: the panel's timeline of calls and shopper events, what follows a
 * shopper action, and where the view keeps the reader after an action. Pure (no React, no DOM), unit-tested
 * in tests/unit/tryItModel.test.ts.
 */
import type {JsonValue} from '@site/src/contract/openapiTypes';
import {generatedValues, withGenerated} from '@site/src/lib/samples/types';
import type {ShopperAction} from './ExchangeView';

export interface TimelineEntry {
  /** Time of day it happened, HH:MM:SS (the reader's clock). */
  readonly at: string;
  readonly kind: 'call' | 'shopper';
  readonly text: string;
  /** A call answered 2xx, or a shopper action the sandbox took. */
  readonly ok: boolean;
}

/** How many entries the timeline keeps: the newest ones. */
export const timelineLength = 8;

export function timeOfDay(date: Date): string {
  return date.toISOString().slice(11, 19);
}

export function withEntry(timeline: readonly TimelineEntry[], entry: TimelineEntry): TimelineEntry[] {
  return [...timeline, entry].slice(-timelineLength);
}

export function callEntry(at: Date, call: {method: string; target: string; status: number; code?: string | undefined}): TimelineEntry {
  return {
    at: timeOfDay(at),
    kind: 'call',
    text: `${call.method} ${call.target} → HTTP ${call.status}${call.code ? ` ${call.code}` : ''}`,
    ok: call.status >= 200 && call.status < 300,
  };
}

export function shopperEntry(at: Date, action: ShopperAction, detail: {orderNo: string; cardNumber: string}): TimelineEntry {
  const text =
    action === 'expire'
      ? 'Sandbox clock moved on 7 days'
      : `Shopper ${action === 'decline' ? 'paid with the declined card' : 'paid with card'} ${detail.cardNumber} for ${detail.orderNo}`;
  return {at: timeOfDay(at), kind: 'shopper', text, ok: true};
}

/**
 * After the shopper acts, the panel retrieves the order by itself, so the reader sees the state it moved
 * to without another click: the operation to switch to, its path values, and that it sends at once.
 */
export function afterShopper(orderNo: string): {operationId: 'retrieveOrderDetail'; values: {merchantOrderNo: string}; send: true} {
  return {operationId: 'retrieveOrderDetail', values: {merchantOrderNo: orderNo}, send: true};
}

/**
 * How far to scroll the window so an element's top sits just below the sticky navbar, or 0 when it is
 * already in the upper half of the viewport (an anchored panel does not jump for nothing).
 */
export function anchorScroll(elementTop: number, navbarHeight: number, viewportHeight: number): number {
  const wanted = navbarHeight + 8;
  if (elementTop >= wanted && elementTop <= viewportHeight / 2) return 0;
  return elementTop - wanted;
}

/**
 * An example body as the form starts from it: a new merchant number on every fill (a create is never a replay of
 * someone else's example), or, on a call about an existing order, the order's own number; times that must lie ahead
 * put ahead of `now`. Each goes wherever the example's value occurs, so the subject "Order ORD-…" and the returnUrl
 * name the very number the body sends (the rule the code samples follow, lib/samples).
 */
export function exampleBody(example: JsonValue, now: number, existingOrderNo?: string): JsonValue {
  return withGenerated(example, generatedValues(example), (value) => {
    if (value.kind === 'futureTime') return new Date(now + value.hoursAhead * 3_600_000).toISOString().replace(/\.\d{3}Z$/, 'Z');
    return value.field === 'merchantOrderNo' && existingOrderNo ? existingOrderNo : `${value.prefix}-${now}`;
  });
}
