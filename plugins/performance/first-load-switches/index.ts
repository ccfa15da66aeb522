/**
 * Benchmark switches: a build that leaves out a group of first-load mechanisms, so that
 * `npm run bench -- --ab GROUP` can measure what the group gains (tooling/bench). PORTAL_WITHOUT
 * lists the groups to leave out; it is unset in every normal build, which this changes in nothing.
 *
 * docusaurus.config.ts leaves out a group's plugins, page template and client modules; the theme
 * wrappers and copies of the idle-work, highlighting and server-markup groups learn it from
 * build-time constants defined here, read through src/browser/firstLoadSwitches.ts, and fall back
 * to the theme's own behaviour. Without server-markup, a stylesheet also undoes content-visibility.
 */
import path from 'node:path';
import type {LoadContext, Plugin} from '@docusaurus/types';

export const firstLoadGroups = [
  // page-script-loader, the custom ssrTemplate and route-scripts (without: Docusaurus's own template).
  'scheduling',
  // The idlePrefetch and renderWhenIdle client modules, mobile-menu intent, sidebar and TOC kept
  // below desktop, the blog-date wrapper and lazy code-block buttons.
  'idle-work',
  // deferred-highlighting's lazy browser highlighter and the kept server markup of code blocks
  // (without: Prism in the start-up bundle, every block tokenised and hydrated, as the theme does).
  'highlighting',
  // Server markup kept through hydration (StaticMarkup around the API tables), tab groups not
  // re-created after hydration (ejected Tabs), and content-visibility: auto on code blocks, tab
  // groups and tables (without: all hydrated and laid out as the theme does).
  'server-markup',
] as const;

export type FirstLoadGroup = (typeof firstLoadGroups)[number];

/** The groups a PORTAL_WITHOUT value names ("scheduling,start-up"); an unknown name fails the build. */
export function groupsLeftOut(value: string | undefined): ReadonlySet<FirstLoadGroup> {
  const names = (value ?? '').split(',').map((name) => name.trim()).filter(Boolean);
  const unknown = names.filter((name) => !(firstLoadGroups as readonly string[]).includes(name));
  if (unknown.length > 0) throw new Error(`PORTAL_WITHOUT names unknown groups (${unknown.join(', ')}); known: ${firstLoadGroups.join(', ')}.`);
  return new Set(names as FirstLoadGroup[]);
}

export interface FirstLoadSwitchesOptions {
  readonly without: readonly FirstLoadGroup[];
}

export default function firstLoadSwitchesPlugin(_context: LoadContext, options: unknown): Plugin {
  const {without} = options as FirstLoadSwitchesOptions;
  return {
    name: 'first-load-switches',
    getClientModules() {
      // The content-visibility rules live in src/css/custom.css; this sheet, loaded after it, undoes them.
      return without.includes('server-markup') ? [path.join(__dirname, 'withoutContentVisibility.css')] : [];
    },
    configureWebpack(_config, _isServer, {currentBundler}) {
      // Server and client alike, so hydration finds the markup it renders.
      const constants = {
        __PORTAL_WITHOUT_IDLE_WORK__: JSON.stringify(without.includes('idle-work')),
        __PORTAL_WITHOUT_HIGHLIGHTING__: JSON.stringify(without.includes('highlighting')),
        __PORTAL_WITHOUT_SERVER_MARKUP__: JSON.stringify(without.includes('server-markup')),
      };
      return {plugins: [new currentBundler.instance.DefinePlugin(constants)]};
    },
  };
}
