import {themes as prismThemes} from 'prism-react-renderer';
import type {Config} from '@docusaurus/types';
import type * as Preset from '@docusaurus/preset-classic';
import type {Options as DocsOptions} from '@docusaurus/plugin-content-docs';
import type {Options as BlogOptions} from '@docusaurus/plugin-content-blog';
import type {Options as ClientRedirectsOptions} from '@docusaurus/plugin-client-redirects';
import type {PluginOptions as SearchLocalOptions} from '@easyops-cn/docusaurus-search-local';
import {hostedOriginOf} from './src/lib/hostedOrigin';
import {brand} from './src/brand';
import {contentSections} from './src/contentSections';
import {accessibleCodeTheme} from './tooling/accessibleCodeTheme';
import {routeAliases} from './src/routeAliases';
import testRoutesPlugin from './plugins/testing/test-routes';
import deferredHighlightingPlugin, {type DeferredHighlightingOptions} from './plugins/performance/deferred-highlighting';
import routeScriptsPlugin from './plugins/performance/route-scripts';
import pageScriptLoaderPlugin from './plugins/performance/page-script-loader';
import slimDocsMetadataPlugin from './plugins/performance/slim-docs-metadata';
import slimSiteConfigPlugin from './plugins/performance/slim-site-config';
import tslibUsedHelpersPlugin from './plugins/performance/tslib-used-helpers';
import sharedChunksPlugin from './plugins/performance/shared-chunks';
import searchOnDemandPlugin from './plugins/performance/search-on-demand';
import inlineScriptCspPlugin from './plugins/checks/inline-script-csp';
import unusedCssPlugin from './plugins/performance/unused-css';
import configuredOutCssPlugin from './plugins/performance/configured-out-css';
import pageTypeStylesPlugin from './plugins/performance/page-type-styles';
import firstLoadSwitchesPlugin, {type FirstLoadSwitchesOptions} from './plugins/performance/first-load-switches';
import {leftOut as without} from './performance.config';
import openapiContractPlugin from './plugins/content/openapi-contract';
import sandboxEnginePlugin from './plugins/content/sandbox-engine';
import markdownTwinsPlugin from './plugins/content/markdown-twins';
import downloadsPlugin from './plugins/content/downloads';
import blogPlugin from './plugins/content/blog';
import remarkApiReference from './plugins/content/openapi-contract/remarkApiReference';
import remarkSandboxData from './plugins/content/openapi-contract/remarkSandboxData';
import remarkMermaidDiagrams from './plugins/content/mermaid-diagrams/remarkMermaidDiagrams';

// This file runs in Node.js: no browser APIs or JSX here.

/**
 * Test-only routes (for example a page that crashes on purpose) are added when
 * PORTAL_TEST_ROUTES=true, which `npm test` sets for the build it tests. The
 * production build (`npm run build`) never contains them.
 */
const withTestRoutes = process.env.PORTAL_TEST_ROUTES === 'true';

/**
 * Where Try it and the hosted sandbox page find the hosted sandbox: SANDBOX_HOSTED_ORIGIN when set (a test build
 * points it at a local `npm run sandbox -- --hosted`), the brand's sandbox API host otherwise. Read in the browser
 * through customFields (src/lib/hostedMerchant.ts).
 */
const hostedSandboxOrigin = hostedOriginOf(process.env.SANDBOX_HOSTED_ORIGIN, `https://${brand.hosts.sandboxApi}`);

/**
 * Hide the navbar while the reader scrolls down, show it again on scroll up.
 * Off by default: the API pages are long tables that readers scroll back and
 * forth through, and a navbar that keeps moving is distracting there.
 */
const navbarHideOnScroll = false;

/**
 * A remark plugin given this site's folder, closed over rather than passed as `[plugin, {siteDir}]`: Docusaurus
 * ships the whole site config, plugin options included, in the browser's start-up script (functions left out), so
 * the pair would publish the absolute path of the checkout that built the site, once per use, and make the bundle's
 * bytes depend on where the repository was cloned.
 */
function inThisSite<Transformer>(plugin: (options: {readonly siteDir: string}) => Transformer): () => Transformer {
  return () => plugin({siteDir: __dirname});
}

/**
 * Mermaid diagrams are drawn into SVG files at build time (plugins/content/mermaid-diagrams),
 * after the contract's state machines are added, so no page loads the Mermaid runtime.
 */
const drawDiagrams = inThisSite(remarkMermaidDiagrams);
// Sandbox fixtures and rules (api/sandbox.yaml) inlined into the pages that quote them, at compile time.
const sandboxData = inThisSite(remarkSandboxData);

/**
 * The stock page template, except for its scripts: instead of `<script defer>` tags the page
 * lists them in a data block, and a small inline loader starts them after the first paint
 * (plugins/performance/page-script-loader), so on a slow network the HTML and CSS are not competing with
 * the JavaScript for bandwidth. main.js goes last: the app starts when it runs, and by then
 * the page's route chunks have registered their modules, so its start-up task does not
 * go looking for them.
 */
const ssrTemplate = `<!DOCTYPE html>
<html <%~ it.htmlAttributes %>>
  <head>
    <meta charset="UTF-8">
    <meta name="generator" content="Docusaurus v<%= it.version %>">
    <% it.metaAttributes.forEach((metaAttribute) => { %>
      <%~ metaAttribute %>
    <% }); %>
    <script type="application/json" id="page-scripts"><%~ JSON.stringify([...it.scripts.filter((script) => !script.startsWith('assets/js/main.')), ...it.scripts.filter((script) => script.startsWith('assets/js/main.'))].map((script) => it.baseUrl + script)) %></script>
    <%~ it.headTags %>
    <% it.stylesheets.forEach((stylesheet) => { %>
      <link rel="stylesheet" href="<%= it.baseUrl %><%= stylesheet %>" />
    <% }); %>
  </head>
  <body <%~ it.bodyAttributes %>>
    <%~ it.preBodyTags %>
    <div id="__docusaurus"><%~ it.appHtml %></div>
    <%~ it.postBodyTags %>
  </body>
</html>`;

/** Code colours: the stock themes lifted to AA contrast, applied as CSS per colour mode (plugins/performance/deferred-highlighting). */
const codeThemes = {light: accessibleCodeTheme(prismThemes.github), dark: accessibleCodeTheme(prismThemes.dracula)};
/** The theme's inline Prism styles stay empty: the colours above come from CSS, so server markup fits both modes. */
const noInlineCodeStyles = {plain: {}, styles: []};

const config: Config = {
  title: brand.name,
  customFields: {hostedSandboxOrigin},
  tagline: brand.tagline,
  favicon: brand.favicon,
  titleDelimiter: '|',
  noIndex: false,

  future: {
    // Docusaurus v4 compatibility, including the Rspack/SWC build of @docusaurus/faster.
    v4: true,
  },

  url: `https://${brand.hosts.portal}`,
  // Served at the root, so the wrong-base-URL banner (an inline script) is never needed.
  baseUrlIssueBanner: false,
  baseUrl: '/',
  ...(without.has('scheduling') ? {} : {ssrTemplate}),

  onBrokenLinks: 'throw',
  onBrokenAnchors: 'warn',
  onDuplicateRoutes: 'warn',
  markdown: {
    hooks: {
      onBrokenMarkdownLinks: 'warn',
    },
  },

  i18n: {
    defaultLocale: 'en',
    locales: ['en'],
  },

  presets: [
    [
      'classic',
      {
        docs: {
          path: contentSections.docs.folder,
          routeBasePath: contentSections.docs.routeBasePath,
          sidebarPath: './sidebars/docs.ts',
          // One version only, published as "Next".
          lastVersion: 'current',
          onlyIncludeVersions: ['current'],
          versions: {current: {label: 'Next'}},
          showLastUpdateTime: false,
          // API pages render their reference sections from the contract at compile time.
          beforeDefaultRemarkPlugins: [inThisSite(remarkApiReference), sandboxData, drawDiagrams],
        },
        // The blog is plugins/content/blog (Docusaurus's plugin, its feeds given their self links), configured below.
        blog: false,
        pages: {
          path: contentSections.pages.folder,
          routeBasePath: contentSections.pages.routeBasePath,
          beforeDefaultRemarkPlugins: [drawDiagrams],
        },
        theme: {
          customCss: ['./src/css/tokens.css', './src/css/custom.css'],
        },
        sitemap: {
          // /search is the search box's results page: without a query it has no content of its own to index
          // (it has no Markdown twin either, plugins/content/markdown-twins).
          ignorePatterns: ['/tests/**', '/search'],
        },
      } satisfies Preset.Options,
    ],
  ],

  themes: [
    [
      // Offline full-text search built from the server-rendered HTML, so API field names are found too.
      '@easyops-cn/docusaurus-search-local',
      {
        hashed: true,
        language: ['en'],
        indexDocs: true,
        indexBlog: true,
        indexPages: true,
        docsRouteBasePath: [contentSections.docs.routeBasePath, contentSections.demos.routeBasePath],
        docsDir: [contentSections.docs.folder, contentSections.demos.folder],
        blogRouteBasePath: contentSections.blog.routeBasePath,
        blogDir: contentSections.blog.folder,
        // Results highlight the matched words; highlighting them again on the opened page would ship
        // mark.js in every page's start-up bundle and walk the article on every load.
        highlightSearchTermsOnTargetPage: false,
        explicitSearchResultPath: true,
        searchResultLimits: 10,
        searchResultContextMaxLength: 60,
        searchBarShortcut: true,
        searchBarShortcutHint: true,
        searchBarPosition: 'right',
        ignoreFiles: [/^tests\//],
        // A diagram's text alternative is its Mermaid source: syntax, not words a reader searches for.
        ignoreCssSelectors: ['figure[data-diagram] details'],
      } satisfies SearchLocalOptions,
    ],
  ],

  plugins: [
    // The blog (Docusaurus's blog plugin, wrapped): see plugins/content/blog.
    [
      blogPlugin,
      {
        path: contentSections.blog.folder,
        routeBasePath: contentSections.blog.routeBasePath,
        showReadingTime: true,
        blogTitle: `${brand.name} developer blog`,
        blogDescription: `Engineering notes on integrating ${brand.name}: retries, notifications, amounts and more. API release notes are in the API changelog.`,
        feedOptions: {type: ['rss', 'atom'], copyright: `Copyright © ${brand.copyrightYear} ${brand.legalName}`},
        onInlineTags: 'throw',
        onInlineAuthors: 'throw',
        onUntruncatedBlogPosts: 'throw',
        beforeDefaultRemarkPlugins: [drawDiagrams],
      } satisfies BlogOptions,
    ],
    openapiContractPlugin,
    sandboxEnginePlugin,
    // After the build: a Markdown twin of every page, /llms.txt and the files it lists (llms-full, llms-api, llms-samples-*).
    markdownTwinsPlugin,
    // After the build: the local sandbox and the MCP server as one Node.js file each, under /downloads/.
    downloadsPlugin,
    [deferredHighlightingPlugin, {themes: () => codeThemes, deferred: !without.has('highlighting')} satisfies DeferredHighlightingOptions],
    // Without the loader the policy's hash for it is unused, which the CSP check rejects.
    ...(without.has('scheduling') ? [] : [routeScriptsPlugin, pageScriptLoaderPlugin, inlineScriptCspPlugin]),
    [firstLoadSwitchesPlugin, {without: [...without]} satisfies FirstLoadSwitchesOptions],
    // After the build: the stylesheet without the rules no built page or script can match, under a new hash.
    unusedCssPlugin,
    // As each stylesheet compiles: the rules of theme features the configuration turns off (dropdowns, a hideable sidebar).
    configuredOutCssPlugin,
    // CSS modules that only some page types render, in sheets only those pages load (widgets: with their chunk).
    pageTypeStylesPlugin,
    // Each doc's description out of the docs metadata every docs page loads: only DocCard reads it, and no page renders one.
    slimDocsMetadataPlugin,
    // The site config every page's main.js carries, without the fields only the build reads (SSR template, plugin options).
    slimSiteConfigPlugin,
    // Only the tslib helper the browser code calls, not all of tslib in every page's main.
    tslibUsedHelpersPlugin,
    // Code several route chunks share (the API pages' components; Button, TableScroller, BreakAfter) in chunks loaded
    // once, not copied into each route chunk.
    sharedChunksPlugin,
    // The search bar's code loads when the reader reaches for search (src/theme/SearchBar).
    searchOnDemandPlugin,
    [
      '@docusaurus/plugin-content-docs',
      {
        id: 'demos',
        path: contentSections.demos.folder,
        routeBasePath: contentSections.demos.routeBasePath,
        sidebarPath: './sidebars/demos.ts',
        beforeDefaultRemarkPlugins: [sandboxData, drawDiagrams],
      } satisfies DocsOptions,
    ],
    [
      '@docusaurus/plugin-client-redirects',
      {
        redirects: routeAliases.map(({from, to}) => ({from, to})),
      } satisfies ClientRedirectsOptions,
    ],
    ...(withTestRoutes ? [testRoutesPlugin] : []),
  ],

  themeConfig: {
    colorMode: {
      defaultMode: 'light',
      disableSwitch: false,
      // Light for a reader with no preference; the operating system's choice when there is one (the toggle's "system").
      respectPrefersColorScheme: true,
    },
    announcementBar: {
      id: 'sandbox-test-accounts',
      // Two wordings: src/css/custom.css shows the short one below 997 px, so the bar stays one line on a phone.
      content: `<span class="announcement-wide">New to ${brand.name}? Sandbox merchants, test wallets and test cards that trigger every payment outcome are listed on the <a href="/docs/general/test-accounts">test accounts page</a>.</span><span class="announcement-narrow">New here? <a href="/docs/general/test-accounts">Sandbox test accounts</a></span>`,
      isCloseable: true,
    },
    docs: {
      sidebar: {
        hideable: false,
        autoCollapseCategories: false,
      },
    },
    tableOfContents: {
      minHeadingLevel: 2,
      maxHeadingLevel: 3,
    },
    navbar: {
      title: brand.name,
      hideOnScroll: navbarHideOnScroll,
      logo: {
        alt: brand.logo.alt,
        src: brand.logo.light,
        srcDark: brand.logo.dark,
        width: 32,
        height: 32,
      },
      items: [
        {type: 'doc', docId: 'general/integration-guide', label: 'APIs', position: 'left'},
        {type: 'doc', docId: 'overview', docsPluginId: 'demos', label: 'Demos', position: 'left'},
      ],
    },
    footer: {
      style: 'dark',
      links: [
        {
          title: 'Get started',
          items: [
            {label: 'Integration guide', to: '/docs/integration-guide'},
            {label: 'Test accounts', to: '/docs/general/test-accounts'},
            {label: 'Response codes', to: '/docs/response-code'},
          ],
        },
        {
          title: 'Payments',
          items: [
            {label: 'Online payments overview', to: '/docs/online-payment-integration/overview'},
            {label: 'Create order', to: '/docs/createorder'},
            {label: 'Refund', to: '/docs/refund'},
          ],
        },
        {
          title: 'Payouts and reconciliation',
          items: [
            {label: 'Transfer', to: '/docs/transfer/transfer'},
            {label: 'Transfer to bank', to: '/docs/transfer-to-bank/transfer-to-bank'},
            {label: 'Statement download', to: '/docs/reconciliation/statement-download'},
          ],
        },
        {
          title: 'API contract',
          items: [
            // pathname:// links are files published next to the site, not pages.
            {label: 'OpenAPI (YAML)', href: 'pathname:///openapi.yaml'},
            {label: 'OpenAPI (JSON)', href: 'pathname:///openapi.json'},
            {label: 'Postman collection', href: 'pathname:///veloxa-pay.postman_collection.json'},
          ],
        },
        {
          title: 'More',
          items: [
            {label: 'Demos', to: '/demos/overview'},
            {label: 'SDKs', to: '/docs/sdks/online-JAVA'},
            {label: 'Blog', to: '/blog'},
          ],
        },
      ],
      copyright: `Copyright © ${brand.copyrightYear} ${brand.legalName} ${brand.name} is a fictional payments provider; every host named on this site is an example.com address.`,
    },
    prism: {
      theme: noInlineCodeStyles,
      darkTheme: noInlineCodeStyles,
      // Empty on purpose: the grammars prism-react-renderer lacks (java, php, bash) load with Prism
      // itself in plugins/performance/deferred-highlighting/highlighter, and @theme/prism-include-languages is a no-op.
      additionalLanguages: [],
    },
  } satisfies Preset.ThemeConfig,
};

export default config;
