/**
 * axe-core run inside the page, injected once per document.
 *
 * Not @axe-core/playwright: its analyze() evaluates axe's 560 kB source twice per scan even in its
 * legacy mode and, by default, also opens a blank tab and injects it a third time to merge the
 * results of frames. The site has no frames (every page test checks it), so that was 1 to 2 s of a
 * 0.5 to 1 s scan here, on over a hundred scans.
 */
import {readFileSync} from 'node:fs';
import type {Page} from '@playwright/test';
import type * as Axe from 'axe-core';

const axeSource = readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');

export interface AxeScan {
  /** Run only these rules… */
  rules?: string[];
  /** …or every rule with one of these tags… */
  tags?: string[];
  /** …except these. */
  disableRules?: string[];
  /** Scan only these parts of the page (CSS selectors): a widget's new state, when routes.spec.ts scans the page around it. */
  include?: string[];
  /** Leave these parts of the page out (CSS selectors). */
  exclude?: string[];
  /**
   * Fetch and parse the stylesheets first. Only css-orientation-lock reads them, so scans that
   * cannot include it skip the work.
   */
  readsStylesheets?: boolean;
  /**
   * Check the contrast of every text element, not one per distinct style (see the sampling in axeViolations): for
   * proving that the sampling finds what a full scan finds (tests/e2e/axe-sampling.spec.ts).
   */
  everyTextElement?: boolean;
}

/**
 * The scan's violations, one line each: rule, impact, help and up to three places. Colour transitions (the theme's
 * links fade over 200 ms, as after a switch of colour mode) settle first, so axe measures the final colours.
 */
export async function axeViolations(page: Page, scan: AxeScan): Promise<string[]> {
  // At most a second: a transition that is restarted or never ends (a widget's progress) must not hold the scan.
  await page.evaluate(() =>
    Promise.race([
      Promise.all(
        document
          .getAnimations()
          .filter((animation) => animation instanceof CSSTransition)
          .map((animation) => animation.finished.catch(() => undefined)),
      ),
      new Promise((resolve) => setTimeout(resolve, 1000)),
    ]),
  );
  const injected = await page.evaluate(() => 'axe' in window);
  if (!injected) await page.evaluate(axeSource);
  if (!scan.rules && !scan.tags) throw new Error('an axe scan names its rules or its tags');
  const options: Axe.RunOptions = {
    runOnly: scan.rules ? {type: 'rule', values: scan.rules} : {type: 'tag', values: scan.tags ?? []},
    rules: Object.fromEntries((scan.disableRules ?? []).map((id) => [id, {enabled: false}])),
    preload: scan.readsStylesheets ?? false,
    // Passes and incomplete results are not read; skipping their node details saves serialising them.
    resultTypes: ['violations'],
  };
  const exclude = (scan.exclude ?? []).map((selector) => [selector]);
  const include = (scan.include ?? []).map((selector) => [selector]);
  if (scan.include && (await page.locator(scan.include.join(', ')).count()) === 0)
    throw new Error(`nothing to scan: no element matches ${scan.include.join(', ')}`);
  const violations = await page.evaluate(
    async ({include, exclude, options, sampleColours}) => {
      // No named functions in here: a test runner's transform may wrap them in a helper the page does not have.
      const axe = (window as unknown as {axe: typeof Axe}).axe;
      const context: Axe.ElementContext =
        include.length > 0 ? {include, ...(exclude.length > 0 ? {exclude} : {})} : exclude.length > 0 ? {exclude} : document;
      const runOnly = options.runOnly as {type: 'rule' | 'tag'; values: string[]};
      const disabled = Object.keys(options.rules ?? {});
      const runsContrast =
        !disabled.includes('color-contrast') &&
        (runOnly.type === 'rule'
          ? runOnly.values.includes('color-contrast')
          : axe.getRules(runOnly.values).some((rule) => rule.ruleId === 'color-contrast'));
      const found: Axe.Result[] = [];
      if (!sampleColours || !runsContrast) {
        found.push(...(await axe.run(context, options)).violations);
      } else {
        // The contrast rule takes about a millisecond per text element, most of a long page's scan: a code block is
        // hundreds of spans in a dozen styles. Its result depends only on what is read here (the text's colour, size,
        // weight, shadow and stroke, and every background, opacity, blend and filter up to the first opaque
        // background), so one visible element per distinct set stands for all that share it. Not read: a positioned box
        // drawn behind text without being its ancestor (axe finds it by position). Two alike texts over different such
        // boxes would share one check; the portal's cards, badges, callouts and code blocks are their text's ancestors.
        const roots =
          include.length > 0 ? include.flatMap(([selector]) => [...document.querySelectorAll(selector as string)]) : [document.body];
        const excluded = exclude.map(([selector]) => selector as string).join(', ');
        const representatives = new Map<string, Element>();
        const looked = new Set<Element>();
        for (const root of roots) {
          const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
          for (let node = walker.nextNode(); node; node = walker.nextNode()) {
            const element = node.parentElement;
            if (!element || looked.has(element) || !node.textContent?.trim()) continue;
            looked.add(element);
            if (excluded && element.closest(excluded)) continue;
            const box = element.getBoundingClientRect();
            if (box.width < 2 || box.height < 2 || !element.checkVisibility({visibilityProperty: true, opacityProperty: true})) continue;
            const style = getComputedStyle(element);
            const parts = [style.color, style.fontSize, style.fontWeight, style.textShadow, style.webkitTextStrokeWidth];
            for (let layer: Element | null = element; layer; layer = layer.parentElement) {
              const layerStyle = getComputedStyle(layer);
              parts.push(
                layerStyle.backgroundColor,
                layerStyle.backgroundImage,
                layerStyle.opacity,
                layerStyle.mixBlendMode,
                layerStyle.filter,
              );
              const seeThrough =
                /rgba\(.*,\s*0(\.\d+)?\)$/.test(layerStyle.backgroundColor) || layerStyle.backgroundColor === 'transparent';
              if (!seeThrough && layerStyle.backgroundImage === 'none') break;
            }
            const signature = parts.join('|');
            if (!representatives.has(signature)) representatives.set(signature, element);
          }
        }
        // With a list of rules axe ignores `rules` switches: the list itself loses the contrast rule.
        const otherRules = runOnly.values.filter((rule) => rule !== 'color-contrast');
        const withoutContrast =
          runOnly.type === 'rule'
            ? {...options, runOnly: {type: 'rule' as const, values: otherRules}}
            : {...options, rules: {...options.rules, 'color-contrast': {enabled: false}}};
        if (runOnly.type === 'tag' || otherRules.length > 0) found.push(...(await axe.run(context, withoutContrast)).violations);
        if (representatives.size > 0) {
          const contrastOnly = {...options, runOnly: {type: 'rule' as const, values: ['color-contrast']}, rules: {}};
          found.push(...(await axe.run({include: [...representatives.values()]}, contrastOnly)).violations);
        }
      }
      return found.map((violation) => ({
        id: violation.id,
        impact: violation.impact,
        help: violation.help,
        targets: violation.nodes.map((node) => node.target.join(' ')),
      }));
    },
    {include, exclude, options, sampleColours: scan.everyTextElement !== true},
  );
  return violations.map((v) => `${v.id} (${v.impact ?? 'unknown'}): ${v.help} at ${v.targets.slice(0, 3).join(', ')}`);
}
