/** The docs client's active-instance lookup, without String#localeCompare (see ./index.ts). */
import type {ActivePlugin, GlobalPluginData} from '@docusaurus/plugin-content-docs/client';
import type {UseDataOptions} from '@docusaurus/types';

/**
 * Whether `pathname` is `basePath` or below it, compared by whole path
 * segments and ignoring case and a trailing slash: what react-router's
 * matchPath answers for a plain path with `exact: false, strict: false`, as
 * the original calls it. Docs base paths have no parameters.
 */
export function holdsPath(basePath: string, pathname: string): boolean {
  const base = basePath.replace(/\/+$/, '').toLowerCase();
  const path = pathname.toLowerCase();
  return base === '' || path === base || path.startsWith(`${base}/`);
}

/**
 * The docs plugin instance whose base path holds `pathname`; when several do
 * ("/docs" and "/docs/api"), the longest. Same answer as the original, which
 * sorts the paths with String#localeCompare: the first localeCompare on a page
 * builds an ICU collator, 15 to 30 ms of blocked main thread on a laptop and
 * four times that on a phone, paid on every page load of a site with more than
 * one docs instance (this one has two: docs and demos).
 */
export function getActivePlugin(allPluginData: Record<string, GlobalPluginData>, pathname: string, options: UseDataOptions = {}): ActivePlugin | undefined {
  let active: ActivePlugin | undefined;
  for (const [pluginId, pluginData] of Object.entries(allPluginData)) {
    if (holdsPath(pluginData.path, pathname) && (active === undefined || pluginData.path.length > active.pluginData.path.length)) {
      active = {pluginId, pluginData};
    }
  }
  if (active === undefined && options.failfast) {
    const paths = Object.values(allPluginData)
      .map((pluginData) => pluginData.path)
      .join(', ');
    throw new Error(`No docs plugin instance serves "${pathname}", but this page needs one. Docs plugin paths: ${paths}.`);
  }
  return active;
}
