/**
 * Splits the stylesheet by page type: the CSS modules that only some pages render go into sheets that only those pages load.
 *
 * Docusaurus puts every CSS module into the one `styles` sheet that every page links (a cache group of priority 50 in core's
 * bundler config), so the home page paid for the API reference's field tables and the blog for the console. Each group
 * below is a cache group above core's, over async chunks only, with a test on the module's path. The modules of a group
 * then leave the route chunks that import them for one shared chunk whose stylesheet those route chunks depend on:
 * - for a page rendered on the server, the server render links the stylesheets of the route chunks it used (core's
 *   `getBundles` over the client manifest, which `route-scripts` keys by import request), so the sheet is in the HTML head;
 * - on a client-side navigation, the bundler's runtime loads a chunk's stylesheet before it resolves the chunk, so the
 *   page never draws unstyled;
 * - the `widgets` group holds widgets that render nothing on the server and load in their own chunks (`LazyWidget`,
 *   `import()`): their sheet arrives with them, on no page's first load.
 * A module imported by code in the initial chunk (layout, navbar, footer) is out of reach of an async-only group and stays in
 * the main sheet. So does the 404 page's (`theme/NotFound/Content`): the docs' route chunk renders it for an unknown docs path,
 * and the built 404.html links no route chunk's sheet. A group's modules must be imported only by code of the pages it names, or other pages would load its sheet
 * too, or (for `widgets`) draw late: `tests/unit/pageTypeStyles.test.ts` walks the imports. The group sheets come after the
 * main one, so a group's rules win over a main-sheet rule of equal specificity, as they did when the group's components were
 * imported after the shared ones.
 */
import type {Plugin} from '@docusaurus/types';

export interface StyleGroup {
  /** The chunk's name, and so the sheet's: `assets/css/<name>.<hash>.css`. */
  readonly name: string;
  /** The page types that load the sheet, for the reader of this list and of the test's messages. */
  readonly pages: string;
  /** Folders under src/ whose CSS modules go into the sheet. */
  readonly folders: readonly string[];
  /** Source files (under src/, docs/, blog/, demos/) that may import the group's components; other files must not. */
  readonly importedFrom: readonly string[];
  /** Folders of theme-classic (under lib/theme/) whose CSS modules go into the sheet. */
  readonly themeFolders?: readonly string[];
  /** Folders of another package's theme components (under node_modules/) whose CSS modules go into the sheet. */
  readonly packageFolders?: readonly string[];
}

export const styleGroups: readonly StyleGroup[] = [
  {
    name: 'widgets',
    pages:
      'none at first load: the widgets that load on demand (Try it, notification simulator, signature debugger, converter, live demo screen)',
    folders: [
      'components/widgets/TryItPanel',
      'components/widgets/NotificationSimulatorPanel',
      'components/widgets/SignatureDebugger',
      'components/widgets/MinorUnitsConverter',
      'components/demo/DeviceScreen',
      'components/demo/ScreenPanel',
      'components/demo/AmountSummary',
      'components/demo/StatusMessage',
      'components/demo/live/panel',
      // Only the minor-units converter shows a callout.
      'components/ui/Callout',
    ],
    importedFrom: [],
  },
  {
    // Apart from the widgets' sheet: the hosted sandbox page renders its form on the server.
    name: 'widget-form',
    pages: "the hosted sandbox page; at no other page's first load: the widgets and the console, which load on demand",
    folders: ['components/ui/WidgetForm'],
    importedFrom: [
      'components/widgets/TryItPanel/',
      'components/widgets/NotificationSimulatorPanel/',
      'components/widgets/SignatureDebugger/',
      'components/widgets/SandboxConsole/',
      'components/widgets/HostedMerchantPanel/',
      'docs/hosted-sandbox.mdx',
    ],
  },
  {
    name: 'api-reference',
    pages: 'operation and notification pages',
    folders: [
      'components/api/ApiReference',
      'components/api/OperationHeader',
      'components/api/MethodBadge',
      'components/api/FieldTable',
      'components/api/ResultCodeTable',
    ],
    importedFrom: ['components/api/', 'docs/'],
  },
  {
    // Apart from the operations' sheet: each of these tables is on one page, which renders no operation.
    name: 'api-tables',
    pages: 'the response-code catalogue, the API changelog, idempotency and rate limits',
    folders: [
      'components/api/ResponseCodeCatalogue',
      'components/api/ApiChangelog',
      'components/api/IdempotencyRules',
      'components/api/RateLimits',
    ],
    importedFrom: ['components/api/', 'docs/'],
  },
  {
    name: 'home',
    pages: 'the home page',
    folders: ['pages', 'components/home/JourneyCards', 'components/home/SandboxOrderDemo'],
    importedFrom: ['pages/', 'components/home/'],
  },
  {
    name: 'demo',
    pages: "the demo pages: the live demo's box (its panel's rules are in the widgets sheet)",
    folders: ['components/demo/live'],
    importedFrom: ['components/demo/live/', 'demos/'],
  },
  {
    // Apart from the demos' sheet: a demo page shows no overview cards.
    name: 'demo-overview',
    pages: "the demos' overview and the test accounts page",
    folders: ['components/demo/DemoOverview', 'components/sandboxData/SandboxTestValues', 'components/ui/CardGrid'],
    importedFrom: ['components/demo/DemoOverview/', 'components/sandboxData/SandboxTestValues/', 'demos/'],
  },
  {
    name: 'sandbox',
    pages: 'the sandbox pages: test accounts, the local and the hosted sandbox, the cash top-up demo and the test account demo',
    folders: [
      'components/sandboxData/SandboxTable',
      'components/sandboxData/SandboxEndings',
      'components/sandboxData/SandboxTryout',
      // Rendered on the server by the hosted sandbox page alone; Try it and the console use only its origin hook.
      'components/widgets/HostedMerchantPanel',
    ],
    importedFrom: ['components/sandboxData/', 'components/widgets/HostedMerchantPanel/', 'docs/', 'demos/'],
  },
  {
    name: 'console',
    pages: 'the sandbox console',
    folders: ['components/widgets/SandboxConsole'],
    importedFrom: ['components/widgets/SandboxConsole/', 'docs/sandbox-console.mdx'],
  },
  {
    name: 'docs',
    pages: "every docs page (guides, API reference, console, demos): theme-classic's docs layout, sidebar, breadcrumbs and cards",
    folders: [],
    importedFrom: [],
    themeFolders: [
      'DocRoot',
      'DocSidebar',
      'DocSidebarItem',
      'DocItem',
      'DocBreadcrumbs',
      'DocCard',
      'DocCardList',
      'DocCategoryGeneratedIndexPage',
    ],
  },
  {
    name: 'blog',
    pages: "the blog's posts and lists: theme-classic's authors, blog sidebar and post headers",
    folders: [],
    importedFrom: [],
    // The tag lists too: only blog posts and the blog's tag pages render them (DocItem/Footer, theme-classic's other
    // user, is replaced by src/theme/DocItem/Footer and renders nothing; no doc has tags, so no docs tag page is built).
    themeFolders: ['Blog', 'BlogSidebar', 'BlogPostItem', 'Icon/Socials', 'Tag', 'TagsListInline', 'TagsListByLetter'],
  },
  {
    name: 'search-page',
    pages: "the search page (/search): the search plugin's page of results",
    folders: [],
    importedFrom: [],
    packageFolders: ['@easyops-cn/docusaurus-search-local/dist/client/client/theme/SearchPage'],
  },
];

const separator = '[\\\\/]';
const folderPattern = (folder: string) => folder.split('/').join(separator);

/** Matches the resource path of a CSS module directly in one of the group's folders (either path separator). */
export function styleGroupTest(group: StyleGroup): RegExp {
  const ours = group.folders.map((folder) => `${separator}src${separator}${folderPattern(folder)}`);
  const theme = (group.themeFolders ?? []).map(
    (folder) =>
      `${separator}@docusaurus${separator}theme-classic${separator}lib${separator}theme${separator}${folderPattern(folder)}(${separator}[^\\\\/]+)*`,
  );
  const packages = (group.packageFolders ?? []).map((folder) => `${separator}node_modules${separator}${folderPattern(folder)}`);
  return new RegExp(`(${[...ours, ...theme, ...packages].join('|')})${separator}[^\\\\/]+\\.css$`);
}

export default function pageTypeStylesPlugin(): Plugin {
  return {
    name: 'page-type-styles',
    configureWebpack(_config, isServer) {
      if (isServer) return {};
      const cacheGroups = Object.fromEntries(
        styleGroups.map((group) => [
          `${group.name}Styles`,
          {
            name: group.name,
            type: 'css/mini-extract',
            // Above core's `styles` group (50), and only for chunks loaded on demand: route chunks and widgets.
            chunks: 'async' as const,
            test: styleGroupTest(group),
            enforce: true,
            priority: 60,
          },
        ]),
      );
      return {optimization: {splitChunks: {cacheGroups}}};
    },
  };
}
