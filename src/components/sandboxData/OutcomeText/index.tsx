import type {ReactNode} from 'react';
import Link from '@docusaurus/Link';
import {formatSeconds} from '@site/src/lib/sandboxDataText';
import type {OperationRef, Outcome} from '@site/src/sandbox/engine/rules/types';

type Operations = Readonly<Record<string, OperationRef>>;

/** An operation by its summary, linked to its reference page. */
export function OperationName({id, operations}: {id: string; operations: Operations}): ReactNode {
  const operation = operations[id];
  if (!operation) return <code>{id}</code>;
  return operation.url ? <Link to={operation.url}>{operation.summary}</Link> : operation.summary;
}

/** "A, B or C" from a list of nodes. */
export function joinNodes(nodes: readonly ReactNode[], last = 'or'): ReactNode[] {
  return nodes.flatMap((node, index) => [index === 0 ? '' : index === nodes.length - 1 ? ` ${last} ` : ', ', node]);
}

/** Event types as code, joined with "then" (sent in this order) or "or" (one of them, by product). */
export function EventList({events, join = 'then'}: {events: readonly string[]; join?: 'then' | 'or'}): ReactNode {
  if (events.length === 0) return 'no notification';
  return joinNodes(
    events.map((event) => <code key={event}>{event}</code>),
    join,
  );
}

/** "after 2 seconds", "at once". */
export function after(seconds: number): string {
  return seconds === 0 ? 'at once' : `after ${formatSeconds(seconds)}`;
}

interface Props {
  readonly outcome: Outcome;
  readonly operations: Operations;
  /** The operation that rejects, when the outcome does not name one. */
  readonly operation?: string;
  /** Notifications to name when the outcome does not list its own (payouts map status to event per product). */
  readonly events?: readonly string[];
  /** How to join those: "then" (sent in order) or "or" (one per product). */
  readonly eventsJoin?: 'then' | 'or';
}

/**
 * One outcome in words, saying whether it happens in the call (a result code, nothing created) or
 * later (a failureCode on an object, delivered by notification).
 */
export default function OutcomeText({outcome, operations, operation, events, eventsJoin = 'then'}: Props): ReactNode {
  const notified = outcome.events ?? events ?? [];
  const operationIds =
    outcome.operations ?? (outcome.operation !== undefined ? [outcome.operation] : operation !== undefined ? [operation] : []);
  switch (outcome.kind) {
    case 'REJECTED':
      return (
        <>
          <strong>Rejected in the call</strong>:{' '}
          {operationIds.length > 0
            ? joinNodes(
                operationIds.map((id) => <OperationName key={id} id={id} operations={operations} />),
                'and',
              )
            : 'the call'}{' '}
          {operationIds.length > 1 ? 'answer' : 'answers'} <code>{outcome.resultCode}</code>. Nothing is created and no notification is
          sent.
        </>
      );
    case 'DECLINED':
      return (
        <>
          <strong>Declined</strong> with <code>{outcome.failureCode}</code>: the order stays <code>PENDING</code> and{' '}
          <code>ORDER.PAYMENT_FAILED</code> reports the attempt.
        </>
      );
    case 'FAILED':
      return (
        <>
          <strong>Fails later</strong>: accepted as <code>PROCESSING</code>, then <code>FAILED</code> with{' '}
          <code>{outcome.failureCode}</code> {after(outcome.processingSeconds ?? 0)} (
          <EventList events={notified} join={outcome.events ? 'then' : eventsJoin} />
          ).
        </>
      );
    default:
      return (
        <>
          <strong>Succeeds</strong>
          {(outcome.processingSeconds ?? 0) > 0 ? (
            <>
              : <code>PROCESSING</code>, then <code>{outcome.status}</code> {after(outcome.processingSeconds ?? 0)}
            </>
          ) : null}{' '}
          (<EventList events={notified} join={outcome.events ? 'then' : eventsJoin} />
          ).
          {outcome.returnedAfterSeconds !== undefined ? (
            <>
              {' '}
              {formatSeconds(outcome.returnedAfterSeconds)} later, the bank returns it: <code>RETURNED</code> with{' '}
              <code>{outcome.returnFailureCode}</code>, and the amount is credited back to your available balance.
            </>
          ) : null}
        </>
      );
  }
}
