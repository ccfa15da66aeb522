/**
 * The site's content folders and the URL each is published under. docusaurus.config.ts
 * configures the content plugins (and the search index) from this list, and every tool that
 * walks the content reads it instead of restating it: the API page scan, the diagram
 * collection, the content lint, and the tests (src/contract/node/contentFiles.ts reads the files).
 *
 * Pure data: imported by the config, plugins, scripts and tests.
 */
export interface ContentSection {
  /** Folder relative to the site directory, with forward slashes. */
  readonly folder: string;
  /** The plugin's routeBasePath: the URL path the folder is served under ("/" is the site root). */
  readonly routeBasePath: string;
  /**
   * The content plugin that serves it. A docs plugin publishes a file at routeBasePath + its path
   * (src/contract/node/docRoutes.ts); the blog and the pages plugins have their own rules.
   */
  readonly plugin: 'docs' | 'blog' | 'pages';
}

export const contentSections = {
  docs: {folder: 'docs', routeBasePath: '/docs', plugin: 'docs'},
  demos: {folder: 'demos', routeBasePath: '/demos', plugin: 'docs'},
  blog: {folder: 'blog', routeBasePath: '/blog', plugin: 'blog'},
  pages: {folder: 'src/pages', routeBasePath: '/', plugin: 'pages'},
} as const satisfies Record<string, ContentSection>;

/** Every section, in the order above. */
export const allContentSections: readonly ContentSection[] = Object.values(contentSections);

/** The sections a docs plugin serves (docs and demos), whose URLs follow from their file paths. */
export const docsSections: readonly ContentSection[] = allContentSections.filter((section) => section.plugin === 'docs');
