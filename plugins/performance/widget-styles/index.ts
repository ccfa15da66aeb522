/**
 * The CSS of the widgets that load on demand goes into a second stylesheet, which arrives with them.
 *
 * Docusaurus puts every CSS module into the one `styles` sheet that every page links (a cache group of
 * priority 50 in core's bundler config), so every page paid for Try it, the notification simulator, the
 * signature debugger, the minor-units converter and the live demo's shopper screen before anyone opened them.
 * These widgets render nothing on the server and load in their own chunks (`LazyWidget`, `import()`), and the
 * bundler's runtime loads a chunk's stylesheet before it resolves the chunk, so the widget never draws
 * unstyled. A module listed here must be imported only from code those chunks carry: one that a server-rendered
 * component also imports would come late on that page (`tests/unit/widgetStyles.test.ts` checks the imports).
 */
import type {Plugin} from '@docusaurus/types';

/** Folders, under src/components, of the CSS modules that only lazily loaded widgets import. */
export const lazyWidgetStyleFolders = [
  'widgets/TryItPanel',
  'widgets/NotificationSimulatorPanel',
  'widgets/SignatureDebugger',
  'widgets/MinorUnitsConverter',
  'demo/DeviceScreen',
  'demo/ScreenPanel',
  'demo/AmountSummary',
  'demo/StatusMessage',
] as const;

/** Matches the resource path of a CSS module in one of `lazyWidgetStyleFolders` (either path separator). */
export const lazyWidgetStyleTest = new RegExp(
  `[\\\\/]src[\\\\/]components[\\\\/](${lazyWidgetStyleFolders.map((folder) => folder.replace('/', '[\\\\/]')).join('|')})[\\\\/][^\\\\/]+\\.css$`,
);

export default function widgetStylesPlugin(): Plugin {
  return {
    name: 'widget-styles',
    configureWebpack(_config, isServer) {
      if (isServer) return {};
      return {
        optimization: {
          splitChunks: {
            cacheGroups: {
              // Above core's `styles` group (50), and only for chunks loaded on demand.
              widgetStyles: {
                name: 'widget-styles',
                type: 'css/mini-extract',
                chunks: 'async',
                test: lazyWidgetStyleTest,
                enforce: true,
                priority: 60,
              },
            },
          },
        },
      };
    },
  };
}
