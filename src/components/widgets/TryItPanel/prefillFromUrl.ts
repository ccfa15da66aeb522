/**
 * Try it opened from a link, already filled in: another page (the sandbox console's objects, a demo's
 * test accounts) links to an operation's page with `?try-it` and the values to start from, and the page
 * opens its Try it panel with them. Pure (no DOM, no React), unit-tested in tests/unit/prefillFromUrl.test.ts.
 *
 * The link's query: `try-it` opens the panel; a parameter of the operation by its own name
 * (`merchantOrderNo=ORD-1`); a body field by its dotted path after `body.` (`body.amount.value=4251`).
 * Anything else (the code samples' `language`) is left to whoever reads it.
 */
import type {TryItOperation} from '@site/src/lib/tryIt';

/** The query key that opens the panel. */
export const tryItQueryKey = 'try-it';
const bodyPrefix = 'body.';

export interface Prefill {
  /** Path and query parameter values, by parameter name. */
  readonly values: Readonly<Record<string, string>>;
  /** Body field values as typed in the link, by dotted path. */
  readonly body: Readonly<Record<string, string>>;
}

/** A link to an operation's page that opens Try it with the given values; undefined when the build has no page for it. */
export function tryItLink(
  operation: Pick<TryItOperation, 'page'>,
  prefill: {readonly values?: Readonly<Record<string, string>>; readonly body?: Readonly<Record<string, string | number | boolean>>} = {},
): string | undefined {
  if (operation.page === undefined) return undefined;
  const query = new URLSearchParams();
  query.set(tryItQueryKey, '');
  for (const [name, value] of Object.entries(prefill.values ?? {})) query.set(name, value);
  for (const [field, value] of Object.entries(prefill.body ?? {})) query.set(`${bodyPrefix}${field}`, String(value));
  // `try-it=` reads as a flag: drop its empty value.
  return `${operation.page}?${query.toString().replace(`${tryItQueryKey}=`, tryItQueryKey)}`;
}

/** Whether the page's query asks for the Try it panel open. */
export function opensTryIt(search: string): boolean {
  return new URLSearchParams(search).has(tryItQueryKey);
}

/** What the link fills in for this operation, or undefined when it does not ask for Try it. Unknown parameter names are ignored. */
export function prefillFromSearch(search: string, operation: Pick<TryItOperation, 'parameters'>): Prefill | undefined {
  const query = new URLSearchParams(search);
  if (!query.has(tryItQueryKey)) return undefined;
  const names = new Set(operation.parameters.map((parameter) => parameter.name));
  const values: Record<string, string> = {};
  const body: Record<string, string> = {};
  for (const [key, value] of query) {
    if (key.startsWith(bodyPrefix) && key.length > bodyPrefix.length) body[key.slice(bodyPrefix.length)] = value;
    else if (names.has(key)) values[key] = value;
  }
  return {values, body};
}

type JsonObject = Record<string, unknown>;
const isObject = (value: unknown): value is JsonObject => value !== null && typeof value === 'object' && !Array.isArray(value);

/** A typed value for a body field: the type of the value it replaces (a string stays a string), else JSON when it reads as JSON. */
function typed(text: string, replaced: unknown): unknown {
  if (typeof replaced === 'string') return text;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

/**
 * The body text with the link's fields set, creating objects on the way; the text as it was when it is not
 * a JSON object (the reader sees the example and the panel's own checks).
 */
export function withBodyFields(text: string, fields: Readonly<Record<string, string>>): string {
  if (Object.keys(fields).length === 0) return text;
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return text;
  }
  if (!isObject(body)) return text;
  for (const [dotted, value] of Object.entries(fields)) {
    const path = dotted.split('.');
    // A link is anyone's text: it never reaches an object's prototype.
    if (path.some((step) => step === '__proto__' || step === 'constructor' || step === 'prototype' || step === '')) continue;
    const last = path.pop() as string;
    let at: JsonObject = body;
    for (const step of path) {
      const next = at[step];
      if (!isObject(next)) at[step] = {};
      at = at[step] as JsonObject;
    }
    at[last] = typed(value, at[last]);
  }
  return JSON.stringify(body, null, 2);
}
