/**
 * Leaves out of every stylesheet, as the bundler compiles it, the rules of theme features this site's configuration
 * turns off (navbar dropdowns, a second locale, the navbar's fixed styles and hiding on scroll, a footer logo, the docs
 * sidebar's collapse button, edit links and last-update lines) or that no page's content uses (Markdown's `<details>`
 * and task lists).
 *
 * The theme's code for these features ships whatever the configuration says (the navbar renders any item type; the
 * sidebar checks `hideable` at run time), so their class names are words of the bundle and `unused-css` must keep
 * their rules; and the docs' rules sit in the docs sheet (`page-type-styles`), which no step after the build may
 * rewrite. Dropped here, at compile time, each sheet is hashed without them. A rule with several selectors keeps the
 * selectors that name none of the listed classes.
 *
 * `tests/unit/configuredOutCss.test.ts` checks the configuration and the content still do without each feature, and
 * that each sheet and class listed still exists upstream (a rename would leave the entry doing nothing); `check:html`
 * fails on a built page that renders one of the content features (`contentFeatureProblems`), generated content included.
 */
import type {Plugin} from '@docusaurus/types';
import type {PluginCreator, Root} from 'postcss';

export interface ConfiguredOut {
  /** The feature, and the setting that turns it off. */
  readonly feature: string;
  /** The end of the stylesheet's path, `/` as separator: Infima's sheet or a module of theme-classic. */
  readonly sheet: string;
  /** The classes (local names, before CSS modules hashes them) whose rules go; absent: the whole sheet. */
  readonly classes?: RegExp;
}

const infima = 'infima/dist/css/default/default.css';
const theme = (module: string) => `@docusaurus/theme-classic/lib/theme/${module}/styles.module.css`;

export const configuredOut: readonly ConfiguredOut[] = [
  {
    feature: "navbar dropdowns (no item of type 'dropdown', 'localeDropdown' or 'docsVersionDropdown')",
    sheet: infima,
    classes: /^dropdown(__|--|$)/,
  },
  {feature: 'navbar dropdowns, on phones', sheet: theme('NavbarItem/DropdownNavbarItem/Mobile')},
  {feature: 'the locale dropdown (one locale)', sheet: theme('NavbarItem/LocaleDropdownNavbarItem')},
  {
    feature: "the navbar's fixed styles (`navbar.style` unset: it follows the colour mode)",
    sheet: infima,
    classes: /^navbar--(dark|primary)$/,
  },
  {
    feature: 'the navbar that hides on scrolling down (`navbar.hideOnScroll`: false)',
    sheet: theme('Navbar/Layout'),
    classes: /^navbarHid(eable|den)$/,
  },
  {
    feature: "the navbar that hides on scrolling down: the docs sidebar's own logo and top padding",
    sheet: theme('DocSidebar/Desktop'),
    classes: /^(sidebarLogo|sidebarWithHideableNavbar)$/,
  },
  {feature: 'a footer logo (`footer.logo` unset)', sheet: infima, classes: /^footer__logo$/},
  {feature: 'a footer logo', sheet: theme('Footer/Logo')},
  {feature: "the docs sidebar's collapse button (`docs.sidebar.hideable`: false)", sheet: theme('DocSidebar/Desktop/CollapseButton')},
  {feature: 'the collapsed docs sidebar, and its expand button', sheet: theme('DocRoot/Layout/Sidebar/ExpandButton')},
  {feature: 'the collapsed docs sidebar', sheet: theme('DocRoot/Layout/Sidebar'), classes: /^docSidebarContainerHidden$/},
  {feature: 'the collapsed docs sidebar', sheet: theme('DocSidebar/Desktop'), classes: /^sidebarHidden$/},
  // Not docMainContainerEnhanced: a docs page without a sidebar gets it too.
  {feature: 'the collapsed docs sidebar', sheet: theme('DocRoot/Layout/Main'), classes: /^docItemWrapperEnhanced$/},
  {feature: 'edit links and last-update lines (no `editUrl`, `showLastUpdateTime` or `showLastUpdateAuthor`)', sheet: theme('EditMetaRow')},
  {feature: 'edit links', sheet: theme('Icon/Edit')},
  {feature: "Markdown's <details> (no page has one)", sheet: theme('Details')},
  {feature: "Markdown's <details>", sheet: '@docusaurus/theme-common/lib/components/Details/styles.module.css'},
  {feature: 'Markdown task lists (no page has one)', sheet: theme('MDXComponents/Ul')},
  {
    // theme-classic's other user of them is the error page's Try again, which src/theme/ErrorPageContent styles as ours.
    feature: "Infima's buttons: the collapse button's look (the site's buttons are src/components/ui/Button)",
    sheet: infima,
    classes: /^button(--|-group|$)/,
  },
];

/**
 * What a built page's HTML shows when it renders a content feature left out above: theme-classic's Details (the
 * `<details>` of Markdown, drawn as an Infima alert) and a task list (remark-gfm's class).
 */
const contentFeatureMarkup: ReadonlyArray<readonly [RegExp, string]> = [
  [/<details\b[^>]*\balert--info\b/, "Markdown's <details>"],
  [/\bcontains-task-list\b/, 'a Markdown task list'],
];

/** One sentence per content feature left out of the stylesheet that the page's HTML renders. */
export function contentFeatureProblems(page: string, html: string): string[] {
  return contentFeatureMarkup
    .filter(([markup]) => markup.test(html))
    .map(
      ([, feature]) =>
        `${page} renders ${feature}, whose rules plugins/performance/configured-out-css leaves out: remove its entries there`,
    );
}

/** The entries for the stylesheet at `file` (an absolute path, either separator). */
export function configuredOutFor(file: string): ConfiguredOut[] {
  const normalised = file.split('\\').join('/');
  return configuredOut.filter((entry) => normalised.endsWith(`/node_modules/${entry.sheet}`));
}

const classNames = (selector: string) => [...selector.matchAll(/\.(-?[_a-zA-Z][\w-]*)/g)].map((match) => match[1] ?? '');

/** Removes from `root` what `entries` leave out: every node for a whole sheet, else the selectors naming a listed class. */
export function leaveOut(root: Root, entries: readonly ConfiguredOut[]): void {
  if (entries.some((entry) => entry.classes === undefined)) {
    root.removeAll();
    return;
  }
  const out = (selector: string) => classNames(selector).some((name) => entries.some((entry) => entry.classes?.test(name)));
  root.walkRules((rule) => {
    if (rule.parent?.type === 'atrule' && /keyframes$/i.test((rule.parent as {name: string}).name)) return;
    const kept = rule.selectors.filter((selector) => !out(selector));
    if (kept.length === 0) rule.remove();
    else if (kept.length < rule.selectors.length) rule.selectors = kept;
  });
  // An at-rule (`@media`) left empty goes too, from the inside out.
  for (let emptied = true; emptied; ) {
    emptied = false;
    root.walkAtRules((atRule) => {
      if (atRule.nodes?.length === 0) {
        atRule.remove();
        emptied = true;
      }
    });
  }
}

/** The PostCSS plugin: applies `leaveOut` to each sheet the entries name, by the sheet's path. */
export const configuredOutPostcss: PluginCreator<void> = () => ({
  postcssPlugin: 'configured-out-css',
  Once(root) {
    const file = root.source?.input.file;
    if (!file) return;
    const entries = configuredOutFor(file);
    if (entries.length > 0) leaveOut(root, entries);
  },
});
configuredOutPostcss.postcss = true;

export default function configuredOutCssPlugin(): Plugin {
  return {
    name: 'configured-out-css',
    configurePostCss(options) {
      options.plugins.push(configuredOutPostcss());
      return options;
    },
  };
}
