import path from 'node:path';
import {expect, type Page} from '@playwright/test';
import {test} from '../support/warmPage';
import {axeViolations, type AxeScan} from '../support/axe';
import {coveringPages, hooksOfBuiltPages} from '../support/pageCoverage';
import {allPages, loadRouteContract, repoRoot} from '../support/routeContract';
import {mermaidBlocksByUrl} from '../support/mermaidPages';
import {smallestShownText} from '../support/diagramText';
import {apiPageButtons, buttonOutsideFirstViewport, firstViewport, tablesWiderThanTheirBox} from '../support/apiPageLayout';

/*
 * Every page of the route contract, and every extra page the portal adds (src/extraRoutes.ts; allPages
 * returns both), is loaded and checked here; the accessibility scans are
 * spread so that every rule meets every distinct template and colour pair once, not 148 times:
 *
 * - The colour set is the smallest set of pages that uses every styling hook of the site
 *   (CSS-module classes, theme classes, Infima elements and modifiers; tests/support/pageCoverage.ts),
 *   seeded with one page per page type: under a quarter of the pages. Each gets every axe rule in light mode and,
 *   switched to dark mode by the toggle in the same load, the colour rules again, so every component,
 *   in every variant the site uses, meets every rule in both colour modes.
 * - The site chrome (navbar, sidebars, table of contents, footer) is the same on every page of a
 *   layout: scanned in full on one page per layout, excluded from every other page's scans.
 * - Every other page gets the rules that need the rendered page (scroll boxes reachable by
 *   keyboard, target sizes, focusable content hidden from assistive technology, content outside
 *   landmarks). Its structure (headings, landmarks, ids, names, ARIA, permitted content) is checked
 *   on every built page by scripts/checkHtml.ts (html-validate) and at lint time by jsx-a11y.
 * - Colour comes from the stylesheets: every rule of them that sets a text colour is unit-tested in
 *   both modes (tests/unit/palette.test.ts), and the code themes too (codeThemeCss.test.ts).
 */

/** WCAG 2.1 A and AA rules, plus axe's best practices. */
const axeTags = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice'];
/** The rules whose result depends on the colours, and so on the colour mode. */
const colourRules = ['color-contrast', 'link-in-text-block'];
/** Rules that need the rendered page (sizes, scrolling, what is hidden), which no static check can apply. */
const renderedRules = ['scrollable-region-focusable', 'target-size', 'aria-hidden-focus', 'region'];
/** The same on every page of a layout. */
const chromeSelectors = [
  '.navbar',
  '.theme-announcement-bar',
  '.theme-doc-sidebar-container',
  '.table-of-contents',
  'nav[aria-label="Blog recent posts navigation"]',
  '.theme-layout-footer',
];

const contract = loadRouteContract();
/** The contract's pages and the portal's extra pages (src/extraRoutes.ts). */
const pages = allPages(contract);
/** One page per layout whose scan includes the chrome. */
const chromePages = new Set(['/', '/docs/integration-guide', '/demos/dynqr', '/blog/long-blog-post']);
/** One page per page type first: home, guide, API operation, notification, demo, blog post and list. */
const colourSeeds = [
  '/',
  '/docs/integration-guide',
  '/docs/createorder',
  '/docs/payment/payment-result-notification',
  '/demos/dynqr',
  '/blog/long-blog-post',
  '/blog',
];
const colourPages = new Set(coveringPages(hooksOfBuiltPages(path.join(repoRoot, 'build-test'), pages), colourSeeds));
const mermaidBlocks = mermaidBlocksByUrl();

/** The page's diagrams: two drawings each (light and dark), both served as SVG. */
async function checkDiagramFiles(page: Page, route: string): Promise<void> {
  const expected = mermaidBlocks.get(route) ?? 0;
  const figures = page.locator('figure[data-diagram]');
  await expect(figures).toHaveCount(expected);
  const sources = await figures.locator('img').evaluateAll((images) => images.map((image) => image.getAttribute('src') ?? ''));
  expect(sources, 'a light and a dark drawing per diagram').toHaveLength(expected * 2);
  for (const source of new Set(sources)) {
    const response = await page.request.get(source);
    expect(response.status(), source).toBe(200);
    expect(response.headers()['content-type'], source).toContain('image/svg+xml');
  }
}

/** The drawing shown in the current colour mode decodes once it scrolls into view. */
async function checkDiagramsShow(page: Page): Promise<void> {
  // An API page folds its long sections (ui/Fold): open them, as a reader does, so every drawing is seen.
  await page.evaluate(() => document.querySelectorAll('details:not([open])').forEach((fold) => ((fold as HTMLDetailsElement).open = true)));
  const figures = page.locator('figure[data-diagram]');
  for (let index = 0; index < (await figures.count()); index += 1) {
    const shown = figures.nth(index).locator('img:visible');
    await expect(shown).toHaveCount(1);
    await shown.scrollIntoViewIfNeeded();
    await expect.poll(() => shown.evaluate((image: HTMLImageElement) => image.complete && image.naturalWidth > 0)).toBe(true);
  }
}
/**
 * Every sequence diagram at the desktop viewport (1280 px): drawn for the docs column, its smallest text shows at
 * 12 px or more; one wider than the column scrolls in its own labelled box rather than shrinking (issue 31).
 */
async function checkSequenceText(page: Page, route: string): Promise<void> {
  const figures = page.locator('figure[data-phone="scroll"]');
  if ((await figures.count()) === 0) return;
  // Diagrams in folded sections are measured too: open the folds for it, then close them again.
  const opened = await page.evaluate(() => {
    const closed = [...document.querySelectorAll('details:not([open])')].filter((fold) =>
      fold.querySelector('figure[data-phone="scroll"]'),
    );
    closed.forEach((fold) => {
      (fold as HTMLDetailsElement).open = true;
      fold.setAttribute('data-opened-to-measure', '');
    });
    return closed.length;
  });
  const images = figures.locator('img:visible');
  await expect(images).toHaveCount(await figures.count());
  for (let index = 0; index < (await images.count()); index += 1) {
    const text = await smallestShownText(images.nth(index));
    expect(text.shown, `smallest text of sequence diagram ${index + 1} on ${route} at 1280 px`).toBeGreaterThanOrEqual(12);
  }
  if (opened > 0) {
    await page.evaluate(() =>
      document.querySelectorAll('details[data-opened-to-measure]').forEach((fold) => {
        (fold as HTMLDetailsElement).open = false;
        fold.removeAttribute('data-opened-to-measure');
      }),
    );
  }
}

/** A phone's viewport; the narrowest common one. */
const phone = {width: 360, height: 740};

/**
 * Elements that stick out past the viewport and make the page itself scroll sideways (none when
 * it does not), outermost first: wide tables and code belong in scroll boxes of their own.
 */
async function sidewaysOverflow(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const root = document.documentElement;
    if (root.scrollWidth <= root.clientWidth) return [];
    const scrollsItself = (element: Element) => getComputedStyle(element).overflowX !== 'visible';
    const insideScrollBox = (element: Element) => {
      for (let parent = element.parentElement; parent && parent !== document.body; parent = parent.parentElement) {
        if (scrollsItself(parent)) return true;
      }
      return false;
    };
    const sticksOut = [...document.body.querySelectorAll('*')].filter(
      (element) =>
        element.getBoundingClientRect().right > root.clientWidth + 1 &&
        getComputedStyle(element).position !== 'fixed' &&
        !insideScrollBox(element),
    );
    return [
      `page ${root.scrollWidth} px wide in a ${root.clientWidth} px viewport`,
      ...sticksOut
        .slice(0, 3)
        .map(
          (element) =>
            `${element.tagName.toLowerCase()}${[...element.classList].map((name) => `.${name}`).join('')} to ${Math.round(element.getBoundingClientRect().right)} px`,
        ),
    ];
  });
}

/**
 * Sets dark mode with the navbar's toggle, as a reader does: it cycles system, light and dark
 * and stores the choice. One load then serves both modes.
 */
async function chooseDarkMode(page: Page): Promise<void> {
  const toggle = page.getByRole('button', {name: /dark and light mode/});
  for (let click = 0; click < 3; click += 1) {
    const name = (await toggle.getAttribute('aria-label')) ?? '';
    if (name.includes('currently dark mode')) break;
    await toggle.click();
    await expect(toggle).not.toHaveAttribute('aria-label', name);
  }
  await expect(toggle).toHaveAttribute('aria-label', /currently dark mode/);
  await expect(page.locator('html')).toHaveAttribute('data-theme', 'dark');
}

/**
 * Forgets the stored choice, so the next test on the shared tab starts as a first visit does (at "system", light
 * here). Pressing the toggle back would restyle the whole page once more for nothing: about a second on an API page.
 */
async function forgetColourMode(page: Page): Promise<void> {
  await page.evaluate(() => window.localStorage.clear());
}

/** The scan each page gets in light mode (see the comment at the top). */
function lightScan(route: string): AxeScan {
  // Outside the colour set, structure is checked statically on every built page (scripts/checkHtml.ts)
  // and at lint time (jsx-a11y); the browser adds the rules that need the rendered page.
  const exclude = chromePages.has(route) ? [] : chromeSelectors;
  if (!colourPages.has(route)) return {rules: renderedRules, exclude};
  return {tags: axeTags, exclude, readsStylesheets: true};
}

const siteTitle = 'Veloxa Pay';
const notFoundHeading = 'Page not found';

test.describe('every page of the route contract', () => {
  test('the API pages are pages of the route contract', () => {
    // Their layout is checked in their load here; a page missing from the list would go unchecked.
    expect([...apiPageButtons.keys()].filter((url) => !pages.includes(url))).toEqual([]);
    expect(apiPageButtons.size).toBeGreaterThan(20);
  });

  test('the colour set covers every page type and stays small', () => {
    for (const seed of colourSeeds) expect(colourPages.has(seed), seed).toBe(true);
    expect(colourPages.size).toBeLessThan(pages.length / 3);
  });

  for (const route of pages) {
    const inColourSet = colourPages.has(route);
    const scope = inColourSet
      ? `every rule, ${chromePages.has(route) ? 'with its chrome' : 'without the chrome'}`
      : 'the rules that need the rendered page, without the chrome';
    const dark = inColourSet ? '; then, switched to dark mode, no axe colour violation and the dark drawings show' : '';
    test(`${route}: 200, own title and h1, no console error or CSP violation, diagrams, axe in light mode (${scope})${dark}, no sideways scrolling on a phone`, async ({
      warm: {page, errors},
    }) => {
      // Two scans in one load, the work of the two tests they were; the API pages' full scans take half a
      // minute each on a machine as loaded as the full suite's, hence room for three.
      if (inColourSet) test.setTimeout(90_000);
      const buttonLabel = apiPageButtons.get(route);
      // An API page is loaded on a laptop's screen, where its Try it (or Simulate) button must be in the first view.
      if (buttonLabel) await page.setViewportSize(firstViewport);
      const response = await page.goto(route);
      expect(response?.status(), `HTTP status of ${route}`).toBe(200);
      await expect(page.locator('html')).toHaveAttribute('data-has-hydrated', 'true');
      // The light checks run in light mode: no colour choice is left from an earlier test on the shared tab.
      await expect(page.locator('html')).toHaveAttribute('data-theme', 'light');

      const title = await page.title();
      expect(title, 'title uses the | separator and ends with the site name').toMatch(new RegExp(` \\| ${siteTitle}$`));
      const ownTitle = title.slice(0, -` | ${siteTitle}`.length);
      expect(ownTitle.length).toBeGreaterThan(0);
      // Every page has one h1, and it says what the title says.
      await expect(page.locator('h1')).toHaveText([ownTitle]);
      await expect(page.getByRole('heading', {name: notFoundHeading})).toHaveCount(0);
      await expect(page.locator('meta[name="robots"][content*="noindex"]')).toHaveCount(0);
      await expect(page.locator('iframe, frame'), 'no frames: axe runs without its frame-by-frame mode').toHaveCount(0);
      if (buttonLabel) {
        // The endpoint block opens the page with its button in view; beside the example pane, every table fits the
        // 518 px column (codes wrap at their joints: ui/BreakAfter), so no column hides behind a sideways scroll.
        expect(await buttonOutsideFirstViewport(page, buttonLabel), `${route}: the endpoint block's button, at 1280x800`).toBeUndefined();
        expect(await tablesWiderThanTheirBox(page), `${route}: tables that scroll sideways at 1280 px`).toEqual([]);
      }
      await checkDiagramFiles(page, route);
      await checkSequenceText(page, route);
      if (inColourSet) await checkDiagramsShow(page);
      expect(await axeViolations(page, lightScan(route)), `axe on ${route} (light)`).toEqual([]);
      expect(errors, `console errors on ${route}`).toEqual([]);

      if (inColourSet) {
        await chooseDarkMode(page);
        await checkDiagramsShow(page);
        expect(await axeViolations(page, {rules: colourRules}), `axe colour rules on ${route} (dark)`).toEqual([]);
        expect(errors, `console errors on ${route} in dark mode`).toEqual([]);
        await forgetColourMode(page);
      }

      // On a phone nothing makes the page scroll sideways (a mobile browser would zoom it out).
      await page.setViewportSize(phone);
      expect(await sidewaysOverflow(page), `${route} at ${phone.width} px`).toEqual([]);
    });
  }

  test('no two pages share a title', async ({request}) => {
    const pathsByTitle = new Map<string, string[]>();
    for (const route of pages) {
      const html = await (await request.get(route)).text();
      const title = /<title[^>]*>([^<]*)<\/title>/.exec(html)?.[1] ?? '';
      pathsByTitle.set(title, [...(pathsByTitle.get(title) ?? []), route]);
    }
    const shared = [...pathsByTitle].filter(([, paths]) => paths.length > 1);
    expect(shared).toEqual([]);
  });
});

test.describe('aliases land on their canonical page', () => {
  for (const [alias, canonical] of Object.entries(contract.aliases)) {
    test(`${alias} -> ${canonical}`, async ({warm: {page}}) => {
      await page.goto(alias);
      await expect(page).toHaveURL((url) => url.pathname.replace(/\/$/, '') === canonical);
      await expect(page.locator('article h1, main h1').first()).toBeVisible();
    });
  }
});

test.describe('unknown paths show the not-found page', () => {
  for (const [index, route] of contract.notFound.entries()) {
    // The not-found page is one template: the first path also gets the axe scans, light and dark.
    const scanned = index === 0;
    test(`${route} is a 404${scanned ? ', with no axe violation in either colour mode' : ''}`, async ({warm: {page, errors}}) => {
      const response = await page.goto(route);
      expect(response?.status(), `HTTP status of ${route}`).toBe(404);
      await expect(page.getByRole('heading', {name: notFoundHeading})).toBeVisible();
      if (!scanned) return;
      await expect(page.locator('html')).toHaveAttribute('data-has-hydrated', 'true');
      expect(await axeViolations(page, {tags: axeTags, readsStylesheets: true}), 'axe on the not-found page (light)').toEqual([]);
      await chooseDarkMode(page);
      expect(await axeViolations(page, {rules: colourRules}), 'axe colour rules on the not-found page (dark)').toEqual([]);
      await forgetColourMode(page);
      // The browser logs the page's own 404 status as a failed resource; anything else is an error.
      expect(errors.filter((error) => !/Failed to load resource: the server responded with a status of 404/.test(error))).toEqual([]);
    });
  }
});
