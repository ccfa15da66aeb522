import AxeBuilder from '@axe-core/playwright';
import {expect, test, type Page} from '@playwright/test';
import {allPages, loadRouteContract} from '../support/routeContract';
import {mermaidBlocksByUrl} from '../support/mermaidPages';

/** WCAG 2.1 A and AA rules, plus axe's best practices. */
const axeTags = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice'];
const mermaidBlocks = mermaidBlocksByUrl();

/**
 * Diagrams are prerendered SVG images, one per colour mode: the page has the expected number,
 * and the one shown in the current mode loads once it scrolls into view.
 */
async function checkDiagrams(page: Page, path: string): Promise<void> {
  const expected = mermaidBlocks.get(path) ?? 0;
  const figures = page.locator('figure[data-diagram]');
  await expect(figures).toHaveCount(expected);
  for (let index = 0; index < expected; index += 1) {
    const shown = figures.nth(index).locator('img:visible');
    await expect(shown).toHaveCount(1);
    await shown.scrollIntoViewIfNeeded();
    await expect.poll(() => shown.evaluate((image: HTMLImageElement) => image.complete && image.naturalWidth > 0)).toBe(true);
  }
}

/**
 * Code blocks and tab groups skip rendering while off screen (content-visibility: auto in
 * src/css/custom.css). Skipped text has no painted colours, so axe could only mark its contrast
 * "incomplete" (49 texts on createorder), and colour transitions started by a mode switch wait
 * there unfinished. Rendering everything for the scan keeps every text's contrast under test.
 */
async function renderSkippedContent(page: Page): Promise<void> {
  await page.addStyleTag({content: '* { content-visibility: visible !important; }'});
}

/** Colour transitions (the theme's links fade over 200 ms) settle first, so axe measures the final colours. */
async function settleTransitions(page: Page): Promise<void> {
  await page.evaluate(() =>
    Promise.all(
      document
        .getAnimations()
        .filter((animation) => animation instanceof CSSTransition)
        .map((animation) => animation.finished.catch(() => undefined)),
    ),
  );
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
      (element) => element.getBoundingClientRect().right > root.clientWidth + 1 && getComputedStyle(element).position !== 'fixed' && !insideScrollBox(element),
    );
    return [`page ${root.scrollWidth} px wide in a ${root.clientWidth} px viewport`, ...sticksOut.slice(0, 3).map((element) => `${element.tagName.toLowerCase()}${[...element.classList].map((name) => `.${name}`).join('')} to ${Math.round(element.getBoundingClientRect().right)} px`)];
  });
}

async function axeViolations(page: Page): Promise<string[]> {
  await settleTransitions(page);
  const results = await new AxeBuilder({page}).withTags(axeTags).analyze();
  return results.violations.map(
    (v) => `${v.id} (${v.impact ?? 'unknown'}): ${v.help} at ${v.nodes.map((node) => node.target.join(' ')).slice(0, 3).join(', ')}`,
  );
}

const contract = loadRouteContract();
const siteTitle = 'Veloxa Pay';
const notFoundHeading = 'Page Not Found';

/**
 * Console errors a page logs while loading; any is a failure. Content-Security-Policy
 * violations are reported as errors too (the suite serves the build with the production headers).
 */
async function collectConsoleErrors(page: Page): Promise<string[]> {
  const errors: string[] = [];
  await page.addInitScript(() => {
    document.addEventListener('securitypolicyviolation', (event) => {
      console.error(`CSP violation: ${event.violatedDirective} blocked ${event.blockedURI || 'inline code'}`);
    });
  });
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(message.text());
  });
  page.on('pageerror', (error) => errors.push(error.message));
  return errors;
}

test.describe('every page of the route contract', () => {
  // axe takes about 7 s per scan on the largest API pages (createorder, refund) on this 2-core VM,
  // and each test scans twice: the default 30 s left too little room when both workers hit one.
  test.describe.configure({timeout: 60_000});

  for (const path of allPages(contract)) {
    test(`${path}: 200, own title, no console error, CSP violation or axe violation, diagrams render, in both colour modes; no sideways scrolling on a phone`, async ({page}) => {
      const errors = await collectConsoleErrors(page);
      const response = await page.goto(path);
      expect(response?.status(), `HTTP status of ${path}`).toBe(200);
      await expect(page.locator('html')).toHaveAttribute('data-has-hydrated', 'true');

      const title = await page.title();
      expect(title, 'title uses the | separator and ends with the site name').toMatch(new RegExp(` \\| ${siteTitle}$`));
      const ownTitle = title.slice(0, -` | ${siteTitle}`.length);
      expect(ownTitle.length).toBeGreaterThan(0);

      const h1 = page.locator('main h1, article h1, header h1').first();
      if ((await h1.count()) > 0) {
        await expect(h1).toHaveText(ownTitle);
      }
      await expect(page.getByRole('heading', {name: notFoundHeading})).toHaveCount(0);
      await expect(page.locator('meta[name="robots"][content*="noindex"]')).toHaveCount(0);
      await checkDiagrams(page, path);
      await renderSkippedContent(page);
      expect(await axeViolations(page), `axe on ${path} (light)`).toEqual([]);
      expect(errors, `console errors on ${path}`).toEqual([]);

      // Dark mode re-renders diagrams and themed code: the same checks again.
      await page.getByRole('button', {name: /dark and light mode/}).click();
      await expect(page.locator('html')).toHaveAttribute('data-theme', 'dark');
      await checkDiagrams(page, path);
      expect(await axeViolations(page), `axe on ${path} (dark)`).toEqual([]);
      expect(errors, `console errors on ${path} in dark mode`).toEqual([]);

      // On a phone nothing makes the page scroll sideways (a mobile browser would zoom it out).
      await page.setViewportSize(phone);
      expect(await sidewaysOverflow(page), `${path} at ${phone.width} px`).toEqual([]);
    });
  }

  test('no two pages share a title', async ({request}) => {
    const pathsByTitle = new Map<string, string[]>();
    for (const path of allPages(contract)) {
      const html = await (await request.get(path)).text();
      const title = /<title[^>]*>([^<]*)<\/title>/.exec(html)?.[1] ?? '';
      pathsByTitle.set(title, [...(pathsByTitle.get(title) ?? []), path]);
    }
    const shared = [...pathsByTitle].filter(([, paths]) => paths.length > 1);
    expect(shared).toEqual([]);
  });
});

test.describe('aliases land on their canonical page', () => {
  for (const [alias, canonical] of Object.entries(contract.aliases)) {
    test(`${alias} -> ${canonical}`, async ({page}) => {
      await page.goto(alias);
      await expect(page).toHaveURL((url) => url.pathname.replace(/\/$/, '') === canonical);
      await expect(page.locator('article h1, main h1').first()).toBeVisible();
    });
  }
});

test.describe('unknown paths show the not-found page', () => {
  for (const path of contract.notFound) {
    test(`${path} is a 404`, async ({page}) => {
      const response = await page.goto(path);
      expect(response?.status(), `HTTP status of ${path}`).toBe(404);
      await expect(page.getByRole('heading', {name: notFoundHeading})).toBeVisible();
    });
  }
});
