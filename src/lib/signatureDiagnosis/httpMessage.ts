/**
 * Raw HTTP messages as a reader pastes them into the signature debugger: a request or notification
 * ("POST /v1/orders HTTP/1.1", headers, a blank line, the body) or a response ("HTTP/1.1 200 OK", ...).
 * The body is kept byte for byte as pasted after the blank line; the head may use CRLF or LF.
 */

/** A pasted message that cannot be read, with what is wrong in one sentence. */
export class MessageInputError extends Error {
  override readonly name = 'MessageInputError';
}

export interface RawRequest {
  readonly method: string;
  /** Path and query as in the request line (from an absolute URL, its path and query). */
  readonly target: string;
  /** Header names in lower case; a repeated header keeps its first value. */
  readonly headers: ReadonlyMap<string, string>;
  readonly body: string;
  readonly notes: readonly string[];
}

export interface RawResponse {
  readonly status: number;
  readonly headers: ReadonlyMap<string, string>;
  readonly body: string;
  readonly notes: readonly string[];
}

function split(text: string, what: string): {start: string; headers: Map<string, string>; body: string; notes: string[]} {
  const trimmed = text.replace(/^\s*\n/, '');
  if (trimmed.trim() === '') throw new MessageInputError(`Paste the ${what}: its first line, its headers, a blank line and its body.`);
  const blank = /\r?\n\r?\n/.exec(trimmed);
  const head = blank ? trimmed.slice(0, blank.index) : trimmed.replace(/\r?\n$/, '');
  const body = blank ? trimmed.slice(blank.index + blank[0].length) : '';
  const [start = '', ...lines] = head.split(/\r?\n/);
  const headers = new Map<string, string>();
  const notes: string[] = [];
  for (const [index, line] of lines.entries()) {
    const colon = line.indexOf(':');
    if (colon < 1)
      throw new MessageInputError(
        `Line ${index + 2} of the ${what} is not a header ("Name: value"): "${line.slice(0, 60)}". Leave a blank line between the headers and the body.`,
      );
    const name = line.slice(0, colon).trim().toLowerCase();
    const value = line.slice(colon + 1).trim();
    if (headers.has(name))
      notes.push(
        `The ${what} has two ${line.slice(0, colon).trim()} headers; the first is used. A proxy that adds a second one breaks verification.`,
      );
    else headers.set(name, value);
  }
  return {start: start.trim(), headers, body, notes};
}

export function parseRawRequest(text: string, what = 'request'): RawRequest {
  const {start, headers, body, notes} = split(text, what);
  const line = /^([A-Za-z]+)\s+(\S+)(?:\s+HTTP\/\d(?:\.\d)?)?$/.exec(start);
  if (!line)
    throw new MessageInputError(`The first line of the ${what} should be like "POST /v1/orders HTTP/1.1", got "${start.slice(0, 60)}".`);
  const [, method = '', rawTarget = ''] = line;
  let target = rawTarget;
  if (/^https?:\/\//i.test(rawTarget)) {
    const url = new URL(rawTarget);
    target = `${url.pathname}${url.search}`;
    notes.push(`The request line holds a full URL; what is signed is its path and query, ${target}.`);
  }
  if (!target.startsWith('/')) throw new MessageInputError(`The ${what}'s target should start with "/", got "${target.slice(0, 60)}".`);
  return {method, target, headers, body, notes};
}

export function parseRawResponse(text: string): RawResponse {
  const {start, headers, body, notes} = split(text, 'response');
  const line = /^HTTP\/\d(?:\.\d)?\s+(\d{3})\b/.exec(start);
  if (!line) throw new MessageInputError(`The first line of the response should be like "HTTP/1.1 200 OK", got "${start.slice(0, 60)}".`);
  return {status: Number(line[1]), headers, body, notes};
}
