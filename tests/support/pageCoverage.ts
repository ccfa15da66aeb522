/**
 * Which pages the browser scans need to cover, read off the built HTML.
 *
 * A colour-contrast problem lives in a component's or the theme's CSS, so a
 * scan of every page in both colour modes mostly re-measures the same rules.
 * Each page is reduced to the styling hooks it uses (CSS-module classes, the
 * theme's `theme-*` classes and Infima's BEM modifiers such as
 * `alert--warning`), and a greedy set cover picks pages until every hook seen
 * anywhere on the site is on a chosen page. A new component, admonition type
 * or theme variant is therefore scanned as soon as one page uses it.
 */
import {readFileSync} from 'node:fs';
import path from 'node:path';

/** A class that carries styling of its own: a CSS-module class (name_hash), a theme class, or an Infima element or modifier (menu__link, alert--warning). */
export function isStylingHook(token: string): boolean {
  return /^[A-Za-z][\w-]*_[\w-]{4}$/.test(token) || token.startsWith('theme-') || token.includes('--');
}

/** The styling hooks used in a page's markup (quoted or, as the minifier writes them, unquoted class attributes). */
export function stylingHooks(html: string): Set<string> {
  const hooks = new Set<string>();
  for (const match of html.matchAll(/\sclass=(?:"([^"]*)"|([^\s>"]+))/g)) {
    for (const token of (match[1] ?? match[2] ?? '').split(/\s+/)) {
      if (isStylingHook(token)) hooks.add(token);
    }
  }
  return hooks;
}

/**
 * Greedy set cover: the seeds first, then, while some hook is uncovered, the page that covers
 * most of the rest (ties go to the earlier page). Returns pages in the order chosen.
 */
export function coveringPages(hooksByPage: ReadonlyMap<string, ReadonlySet<string>>, seeds: readonly string[] = []): string[] {
  const uncovered = new Set([...hooksByPage.values()].flatMap((hooks) => [...hooks]));
  const chosen: string[] = [];
  const take = (page: string) => {
    chosen.push(page);
    for (const hook of hooksByPage.get(page) ?? []) uncovered.delete(hook);
  };
  for (const seed of seeds) {
    if (!hooksByPage.has(seed)) throw new Error(`Seed page ${seed} is not among the pages`);
    take(seed);
  }
  while (uncovered.size > 0) {
    let best: string | undefined;
    let bestGain = 0;
    for (const [page, hooks] of hooksByPage) {
      const gain = [...hooks].filter((hook) => uncovered.has(hook)).length;
      if (gain > bestGain) [best, bestGain] = [page, gain];
    }
    if (!best) break;
    take(best);
  }
  return chosen;
}

/** The built file of a route path in build-test/ (one folder per route, index.html in it). */
export function builtFile(buildDir: string, route: string): string {
  return path.join(buildDir, route, 'index.html');
}

export function hooksOfBuiltPages(buildDir: string, routes: readonly string[]): Map<string, Set<string>> {
  return new Map(routes.map((route) => [route, stylingHooks(readFileSync(builtFile(buildDir, route), 'utf8'))]));
}
