/**
 * The HTTP face of the engine, host-neutral: requests in, responses out, as plain values. The hosts
 * (the node:http server, the in-browser sandbox) only move these across their boundary.
 */

/** A request as it arrived. Header names are matched without regard to case. */
export interface SandboxRequest {
  readonly method: string;
  /** The request target exactly as in the request line: path and query, such as "/v1/orders?pageNo=2". */
  readonly target: string;
  readonly headers: Readonly<Record<string, string | undefined>>;
  /** The raw body, decoded as UTF-8. */
  readonly body: string;
}

export interface SandboxResponse {
  readonly status: number;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: string;
  /**
   * Seconds the host holds the response before sending it (amount ending 92 of Create order). The call
   * has been carried out already; only the answer is late.
   */
  readonly holdSeconds?: number;
}

/** How a notification leaves the engine: the server posts it over HTTP, the browser keeps it in an inbox. */
export interface NotificationTransport {
  deliver(delivery: {
    readonly url: string;
    readonly headers: Readonly<Record<string, string>>;
    readonly body: string;
    readonly timeoutSeconds: number;
  }): Promise<DeliveryResult>;
}

export type DeliveryResult = {readonly status: number; readonly body: string} | {readonly error: string};

/** The lower-cased header map of a request. */
export function lowerCaseHeaders(headers: Readonly<Record<string, string | undefined>>): Record<string, string | undefined> {
  const lower: Record<string, string | undefined> = {};
  for (const [name, value] of Object.entries(headers)) lower[name.toLowerCase()] = value;
  return lower;
}

/** A notification acknowledgement as the contract accepts it: HTTP 200 and a JSON object whose code is "SUCCESS". */
export function isAcknowledgement(result: DeliveryResult): boolean {
  if ('error' in result || result.status !== 200) return false;
  try {
    const parsed: unknown = JSON.parse(result.body);
    return typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed) && (parsed as {code?: unknown}).code === 'SUCCESS';
  } catch {
    return false;
  }
}
