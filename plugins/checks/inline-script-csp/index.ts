/**
 * Fails the build when a page carries an inline script that the production
 * Content-Security-Policy (hosting/_headers, mirrored in nginx.conf) would block.
 *
 * The policy allows inline scripts by hash only. Their final text is known only
 * after the build: the HTML minifier rewrites them. Without this check a change
 * to one of them (the theme's colour-mode bootstrap, or our page-script loader)
 * would pass the build and then leave every page without scripts in production.
 * The error names the hash to add.
 */
import {createHash} from 'node:crypto';
import {existsSync, readFileSync} from 'node:fs';
import path from 'node:path';
import type {Plugin} from '@docusaurus/types';
import {headersFor, loadHosting} from '../../../tooling/hosting';

/** Script types the browser runs as JavaScript, and so the ones script-src governs. */
const javascriptTypes = new Set(['', 'text/javascript', 'application/javascript', 'module']);

/** The text of every inline JavaScript element in a page, in document order. */
export function inlineScripts(html: string): string[] {
  const scripts: string[] = [];
  for (const match of html.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script\s*>/gi)) {
    const attributes = match[1] ?? '';
    if (/\ssrc\s*=/i.test(attributes)) continue;
    const type = /\stype\s*=\s*["']?([^"'\s>]+)/i.exec(attributes)?.[1]?.toLowerCase() ?? '';
    if (!javascriptTypes.has(type)) continue;
    scripts.push(match[2] ?? '');
  }
  return scripts;
}

/** A CSP source expression for a script's text, as browsers compute it. */
export function cspHash(script: string): string {
  return `'sha256-${createHash('sha256').update(script, 'utf8').digest('base64')}'`;
}

/** The hash sources a policy's script-src (or default-src, when script-src is absent) allows. */
export function allowedScriptHashes(policy: string): Set<string> {
  const directives = new Map<string, string[]>();
  for (const directive of policy.split(';')) {
    const [name, ...sources] = directive.trim().split(/\s+/);
    if (name) directives.set(name.toLowerCase(), sources);
  }
  const sources = directives.get('script-src') ?? directives.get('default-src') ?? [];
  return new Set(sources.filter((source) => /^'sha(256|384|512)-/.test(source)));
}

export interface InlineScriptReport {
  /** One line per inline script the policy would block: the hash to allow, the first page and how the script starts. */
  blocked: string[];
  /** Hashes the policy allows that no page uses: stale allowances only widen the policy. */
  unused: string[];
}

export function checkInlineScripts(
  pages: ReadonlyArray<{route: string; html: string}>,
  policyFor: (route: string) => string | undefined,
): InlineScriptReport {
  const blocked = new Map<string, string>();
  const allowedAnywhere = new Set<string>();
  const used = new Set<string>();
  for (const {route, html} of pages) {
    const policy = policyFor(route);
    if (!policy) continue;
    const allowed = allowedScriptHashes(policy);
    for (const hash of allowed) allowedAnywhere.add(hash);
    for (const script of inlineScripts(html)) {
      const hash = cspHash(script);
      used.add(hash);
      if (allowed.has(hash) || blocked.has(hash)) continue;
      blocked.set(hash, `${hash} (first on ${route}: ${JSON.stringify(script.trim().slice(0, 60))}…)`);
    }
  }
  return {blocked: [...blocked.values()], unused: [...allowedAnywhere].filter((hash) => !used.has(hash))};
}

/** Where Docusaurus writes a route's page (trailingSlash unset: /docs/x → docs/x/index.html). */
function htmlFileFor(outDir: string, route: string): string {
  return /\.html?$/i.test(route) ? path.join(outDir, route) : path.join(outDir, route, 'index.html');
}

export default function inlineScriptCspPlugin(): Plugin {
  return {
    name: 'inline-script-csp',
    async postBuild({outDir, routesPaths}) {
      const {headers} = loadHosting();
      const pages = routesPaths
        .map((route) => ({route, file: htmlFileFor(outDir, route)}))
        .filter(({file}) => existsSync(file))
        .map(({route, file}) => ({route, html: readFileSync(file, 'utf8')}));
      if (pages.length === 0) throw new Error(`inline-script-csp: no page of the build was found in ${outDir}.`);
      const {blocked, unused} = checkInlineScripts(pages, (route) => headersFor(headers, route).get('Content-Security-Policy'));
      const problems = [
        ...blocked.map((line) => `blocked, add to script-src: ${line}`),
        ...unused.map((hash) => `allowed but used by no page, remove from script-src: ${hash}`),
      ];
      if (problems.length > 0) {
        throw new Error(
          `inline-script-csp: the inline scripts of the build and the production Content-Security-Policy disagree. ` +
            `Change script-src in hosting/_headers and hosting/nginx.conf (a unit test keeps the two in step):\n  ${problems.join('\n  ')}`,
        );
      }
    },
  };
}
