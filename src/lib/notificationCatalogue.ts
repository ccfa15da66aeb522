/**
 * What the notification simulator knows about each notification of the contract, written at build time by
 * the sandbox-engine plugin (@generated/sandbox-engine/notifications.json) and read by the panel when a
 * reader opens it; and the pure helpers the panel and its tests share. Isomorphic, no DOM.
 */
import type {WebhookSpec} from '../sandbox/engine/spec';

export interface NotificationSimulatorData {
  /** The test merchant the in-browser and local sandboxes start with. */
  readonly clientId: string;
  /** The URL the simulator starts from: the test merchant's default notification URL, else the contract's example one. */
  readonly notifyUrl: string;
  /** Whether `notifyUrl` is the merchant's default (true) or only the contract's example (false). */
  readonly notifyUrlIsDefault: boolean;
  readonly timestampWindowSeconds: number;
  readonly webhooks: readonly WebhookSpec[];
}

/** The request target a notification is signed over: the notify URL's path and query. */
export function notificationTarget(notifyUrl: string): string {
  const url = new URL(notifyUrl);
  return `${url.pathname}${url.search}`;
}

/** The delivery as the merchant's endpoint receives it: request line, Host, the signed headers, the body. */
export function rawNotificationRequest(notifyUrl: string, headers: Readonly<Record<string, string>>, body: string): string {
  const url = new URL(notifyUrl);
  const lines = [
    `POST ${notificationTarget(notifyUrl)} HTTP/1.1`,
    `Host: ${url.host}`,
    ...Object.entries(headers).map(([name, value]) => `${name}: ${value}`),
  ];
  return `${lines.join('\n')}\n\n${body}`;
}

/** A shell word in single quotes, safe for any text. */
function shellQuote(text: string): string {
  return `'${text.replace(/'/g, `'\\''`)}'`;
}

/** The curl commands that ask the local sandbox to produce and deliver the notification, and read its delivery log. */
export function localSimulateCommands(
  origin: string,
  input: {clientId: string; operationId: string; scenario: string; notifyUrl: string; data?: unknown},
): {simulate: string; log: string} {
  const body = JSON.stringify({
    clientId: input.clientId,
    operationId: input.operationId,
    scenario: input.scenario,
    notifyUrl: input.notifyUrl,
    ...(input.data === undefined ? {} : {data: input.data}),
  });
  return {
    simulate: `curl -sS -X POST ${origin}/_sandbox/notifications/simulate \\\n  -H 'Content-Type: application/json' \\\n  -d ${shellQuote(body)}`,
    log: `curl -sS '${origin}/_sandbox/notifications?clientId=${encodeURIComponent(input.clientId)}'`,
  };
}
