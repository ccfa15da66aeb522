/**
 * Reads the hosting configuration in hosting/ (the _headers and _redirects
 * files static hosts understand). Used by the production-like server the
 * end-to-end tests and the benchmark run, and by the tests that keep
 * hosting/nginx.conf in step with it.
 */
import {readFileSync} from 'node:fs';
import path from 'node:path';

export interface HeaderRule {
  /** Path pattern: an exact path, or one with "*" standing for any characters ("/assets/*", "/*.md"). */
  readonly pattern: string;
  readonly headers: ReadonlyArray<readonly [string, string]>;
}

export interface Redirect {
  readonly from: string;
  readonly to: string;
  readonly status: number;
}

export const hostingDir = path.resolve(__dirname, '..', 'hosting');

export function parseHeaders(text: string): HeaderRule[] {
  const rules: Array<{pattern: string; headers: Array<[string, string]>}> = [];
  text.split(/\r?\n/).forEach((line, index) => {
    if (line.trim() === '' || line.trim().startsWith('#')) return;
    if (!/^\s/.test(line)) {
      rules.push({pattern: line.trim(), headers: []});
      return;
    }
    const current = rules.at(-1);
    const separator = line.indexOf(':');
    if (!current || separator < 0) throw new Error(`_headers line ${index + 1}: expected "Name: value" under a path pattern.`);
    current.headers.push([line.slice(0, separator).trim(), line.slice(separator + 1).trim()]);
  });
  return rules;
}

export function parseRedirects(text: string): Redirect[] {
  return text
    .split(/\r?\n/)
    .map((line) => line.trim())
    .filter((line) => line !== '' && !line.startsWith('#'))
    .map((line, index) => {
      const [from, to, status] = line.split(/\s+/);
      if (!from || !to) throw new Error(`_redirects entry ${index + 1}: expected "from to [status]".`);
      return {from, to, status: Number(status ?? 301)};
    });
}

export function matches(pattern: string, pathname: string): boolean {
  if (!pattern.includes('*')) return pathname === pattern;
  const expression = pattern
    .split('*')
    .map((part) => part.replace(/[.+?^${}()|[\]\\]/g, '\\$&'))
    .join('.*');
  return new RegExp(`^${expression}$`).test(pathname);
}

/** The Markdown twin a request for a page asks for with `Accept: text/markdown`, as nginx.conf's map picks it. */
export function prefersMarkdown(accept: string | undefined): boolean {
  return /text\/markdown/i.test(accept ?? '');
}

/** Headers for a path: later rules override earlier ones, as static hosts apply them. */
export function headersFor(rules: readonly HeaderRule[], pathname: string): Map<string, string> {
  const result = new Map<string, string>();
  for (const rule of rules) {
    if (matches(rule.pattern, pathname)) for (const [name, value] of rule.headers) result.set(name, value);
  }
  return result;
}

export function loadHosting(dir: string = hostingDir): {headers: HeaderRule[]; redirects: Redirect[]} {
  return {
    headers: parseHeaders(readFileSync(path.join(dir, '_headers'), 'utf8')),
    redirects: parseRedirects(readFileSync(path.join(dir, '_redirects'), 'utf8')),
  };
}
