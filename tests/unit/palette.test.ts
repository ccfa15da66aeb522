/**
 * Text colours meet WCAG AA (4.5:1) in both colour modes, read from the stylesheets themselves:
 * Infima's palette, the site's overrides in src/css/custom.css, and every rule in the component
 * and theme stylesheets that sets a text colour. The browser scans measure rendered pages in
 * dark mode only on a covering set of pages (tests/e2e/routes.spec.ts); this checks every rule
 * that sets a colour, on any page, in both modes.
 */
import assert from 'node:assert/strict';
import {readdirSync, readFileSync} from 'node:fs';
import path from 'node:path';
import {test} from 'node:test';
import postcss, {type Rule} from 'postcss';
import {contrastRatio, isParsableColor} from '../../tooling/contrast';
import {repoRoot} from '../support/routeContract';

type Mode = 'light' | 'dark';
type Palette = Map<string, string>;

const infimaCss = readFileSync(require.resolve('infima/dist/css/default/default.css'), 'utf8');
const tokensCss = readFileSync(path.join(repoRoot, 'src', 'css', 'tokens.css'), 'utf8');
const siteCss = readFileSync(path.join(repoRoot, 'src', 'css', 'custom.css'), 'utf8');

/** Custom properties declared for a mode: `:root` for both, `[data-theme='dark']` on top for dark. */
function declaredProperties(css: string, mode: Mode, into: Palette): Palette {
  postcss.parse(css).walkRules((rule) => {
    const selectors = rule.selectors.map((selector) => selector.replace(/\s+/g, '').replace(/"/g, "'"));
    const applies =
      selectors.includes(':root') || (mode === 'dark' && selectors.some((selector) => /^(html)?\[data-theme='dark'\]$/.test(selector)));
    if (!applies) return;
    rule.walkDecls(/^--/, (declaration) => {
      into.set(declaration.prop, declaration.value.trim());
    });
  });
  return into;
}

function paletteFor(mode: Mode): Palette {
  // Light properties first, so dark ones override them, in the order the browser applies them.
  const palette = declaredProperties(infimaCss, mode, new Map());
  // Loaded in this order by docusaurus.config.ts (customCss).
  declaredProperties(tokensCss, mode, palette);
  declaredProperties(siteCss, mode, palette);
  return palette;
}

const palettes: Record<Mode, Palette> = {light: paletteFor('light'), dark: paletteFor('dark')};

/** Resolves var() references; returns undefined for values that are not a plain colour (gradients, rgba, keywords). */
function resolveColour(value: string, palette: Palette, depth = 0): string | undefined {
  const reference = /^var\((--[\w-]+)(?:,\s*(.+))?\)$/.exec(value.trim());
  if (reference?.[1]) {
    if (depth > 20) throw new Error(`var() cycle at ${value}`);
    const next = palette.get(reference[1]) ?? reference[2];
    return next === undefined ? undefined : resolveColour(next, palette, depth + 1);
  }
  if (value.trim() === 'transparent') return undefined;
  return isParsableColor(value) ? value.trim() : undefined;
}

/** The page behind everything: Infima's body background, white where the light theme leaves it transparent. */
function pageBackground(mode: Mode): string {
  return resolveColour('var(--ifm-background-color)', palettes[mode]) ?? '#ffffff';
}

/** What text without a background of its own may sit on: the page and the theme's raised surfaces (cards, panels). */
function backgroundsFor(mode: Mode): string[] {
  return [pageBackground(mode), resolveColour('var(--ifm-background-surface-color)', palettes[mode]) ?? pageBackground(mode)];
}

function stylesheets(): string[] {
  const found: string[] = [path.join(repoRoot, 'src', 'css', 'tokens.css'), path.join(repoRoot, 'src', 'css', 'custom.css')];
  for (const folder of ['src/components', 'src/theme']) {
    for (const file of readdirSync(path.join(repoRoot, folder), {recursive: true, encoding: 'utf8'})) {
      if (file.endsWith('.css')) found.push(path.join(repoRoot, folder, file));
    }
  }
  return found;
}

interface TextColourRule {
  readonly where: string;
  /** The selector without a colour-mode prefix, to pair a rule with its dark-mode override. */
  readonly target: string;
  /** The modes the rule applies in, from a `[data-theme=...]` prefix (none: both). */
  readonly modes: readonly Mode[];
  readonly colour: string;
  readonly background?: string;
}

const modePrefix = /^(?:html)?\[data-theme=['"]?(light|dark)['"]?\]\s*/;

function textColourRules(file: string): TextColourRule[] {
  const rules: TextColourRule[] = [];
  postcss.parse(readFileSync(file, 'utf8')).walkRules((rule: Rule) => {
    let colour: string | undefined;
    let background: string | undefined;
    rule.each((node) => {
      if (node.type !== 'decl') return;
      if (node.prop === 'color') colour = node.value;
      if (node.prop === 'background' || node.prop === 'background-color') background = node.value;
    });
    if (!colour) return;
    for (const selector of rule.selectors) {
      const mode = modePrefix.exec(selector)?.[1] as Mode | undefined;
      rules.push({
        where: `${path.relative(repoRoot, file)}: ${selector}`,
        target: `${file} ${selector.replace(modePrefix, '')}`,
        modes: mode ? [mode] : ['light', 'dark'],
        colour,
        background,
      });
    }
  });
  return rules;
}

const aa = 4.5;

test('the palette resolves in both modes (Infima plus custom.css)', () => {
  for (const mode of ['light', 'dark'] as const) {
    assert.ok(resolveColour('var(--ifm-color-primary)', palettes[mode]), `${mode}: primary`);
    assert.ok(resolveColour('var(--ifm-font-color-base)', palettes[mode]), `${mode}: base text`);
  }
  assert.notEqual(resolveColour('var(--ifm-color-primary)', palettes.light), resolveColour('var(--ifm-color-primary)', palettes.dark));
  assert.equal(pageBackground('dark'), '#10121f');
});

test('links and body text meet AA on the page and on surfaces, in both modes', () => {
  const failures: string[] = [];
  for (const mode of ['light', 'dark'] as const) {
    for (const text of [
      '--ifm-font-color-base',
      '--ifm-link-color',
      '--ifm-color-primary',
      '--ifm-color-emphasis-700',
      '--ifm-color-emphasis-800',
    ]) {
      const colour = resolveColour(`var(${text})`, palettes[mode]);
      assert.ok(colour, `${mode}: ${text} resolves`);
      for (const background of backgroundsFor(mode)) {
        const ratio = contrastRatio(colour, background);
        if (ratio < aa) failures.push(`${mode}: ${text} ${colour} on ${background} is ${ratio.toFixed(2)}:1`);
      }
    }
  }
  assert.deepEqual(failures, []);
});

test('every rule of the site and component stylesheets that sets a text colour meets AA, in both modes', () => {
  const failures: string[] = [];
  let checked = 0;
  for (const file of stylesheets()) {
    const rules = textColourRules(file);
    // A rule scoped to one mode overrides the unscoped rule for the same selector in that mode.
    const overridden = (rule: TextColourRule, mode: Mode) =>
      rule.modes.length === 2 && rules.some((other) => other.modes.length === 1 && other.modes[0] === mode && other.target === rule.target);
    for (const rule of rules) {
      for (const mode of rule.modes) {
        if (overridden(rule, mode)) continue;
        const colour = resolveColour(rule.colour, palettes[mode]);
        if (!colour) continue; // inherit, currentColor, rgba: measured in the browser scans instead
        const ownBackground = rule.background === undefined ? undefined : resolveColour(rule.background, palettes[mode]);
        for (const background of ownBackground ? [ownBackground] : backgroundsFor(mode)) {
          checked += 1;
          const ratio = contrastRatio(colour, background);
          if (ratio < aa) failures.push(`${rule.where} (${mode}): ${colour} on ${background} is ${ratio.toFixed(2)}:1`);
        }
      }
    }
  }
  assert.ok(checked > 40, `only ${checked} colour pairs found: is the stylesheet scan still finding the rules?`);
  assert.deepEqual(failures, []);
});

test('a colour below AA is caught (the check can fail)', () => {
  const palette: Palette = new Map([['--grey', '#999999']]);
  const colour = resolveColour('var(--grey)', palette);
  assert.equal(colour, '#999999');
  assert.ok(contrastRatio(colour ?? '', '#ffffff') < aa);
});

/**
 * The design tokens' text and control pairs (src/css/tokens.css): each colour text, an icon or a control's
 * edge is drawn in, on each surface the design system puts it on (src/components/ui/README.md).
 */
const page = ['--vx-color-page', '--vx-color-surface', '--vx-color-surface-raised'];
const tokenPairs: ReadonlyArray<readonly [text: string, backgrounds: readonly string[]]> = [
  [
    '--vx-color-text',
    [
      ...page,
      '--vx-color-primary-soft-bg',
      '--vx-color-neutral-bg',
      '--vx-color-info-bg',
      '--vx-color-success-bg',
      '--vx-color-warning-bg',
      '--vx-color-danger-bg',
    ],
  ],
  ['--vx-color-muted-text', [...page, '--vx-color-neutral-bg']],
  ['--vx-color-primary-text', page],
  ['--vx-color-on-primary-text', ['--vx-color-primary', '--vx-color-primary-hover']],
  ['--vx-color-primary-soft-text', [...page, '--vx-color-primary-soft-bg']],
  ['--vx-color-on-ink-text', ['--vx-color-ink']],
  ['--vx-color-on-ink-muted-text', ['--vx-color-ink']],
  ['--vx-color-signal', ['--vx-color-ink']],
  ['--vx-color-neutral-text', [...page, '--vx-color-neutral-bg']],
  ['--vx-color-info-text', [...page, '--vx-color-info-bg']],
  ['--vx-color-success-text', [...page, '--vx-color-success-bg']],
  ['--vx-color-warning-text', [...page, '--vx-color-warning-bg']],
  ['--vx-color-danger-text', [...page, '--vx-color-danger-bg']],
  // Non-text edges a reader must see (WCAG 1.4.11 asks 3:1; held to 4.5:1 like text, so one rule covers all).
  ['--vx-color-focus', page],
  ['--vx-color-primary', page],
];

test('every design-token pair used for text or controls meets 4.5:1, in both modes', () => {
  const failures: string[] = [];
  for (const mode of ['light', 'dark'] as const) {
    for (const [text, backgrounds] of tokenPairs) {
      const colour = resolveColour(`var(${text})`, palettes[mode]);
      assert.ok(colour, `${mode}: ${text} resolves to a colour`);
      for (const backgroundToken of backgrounds) {
        const background = resolveColour(`var(${backgroundToken})`, palettes[mode]);
        assert.ok(background, `${mode}: ${backgroundToken} resolves to a colour`);
        const ratio = contrastRatio(colour, background);
        if (ratio < aa) failures.push(`${mode}: ${text} ${colour} on ${backgroundToken} ${background} is ${ratio.toFixed(2)}:1`);
      }
    }
  }
  assert.deepEqual(failures, []);
});

test('every text token of tokens.css is in a checked pair (a new one cannot skip the check)', () => {
  const textTokens = new Set<string>();
  postcss.parse(tokensCss).walkDecls(/^--vx-color-/, (declaration) => {
    if (/-text$|^--vx-color-on-|^--vx-color-signal$|^--vx-color-focus$/.test(declaration.prop)) textTokens.add(declaration.prop);
  });
  const checked = new Set(tokenPairs.map(([text]) => text));
  assert.ok(textTokens.size >= 12, `only ${textTokens.size} text tokens found`);
  assert.deepEqual(
    [...textTokens].filter((token) => !checked.has(token)),
    [],
  );
});

test('the disabled button look still reads at 4.5:1 (muted text on the surface)', () => {
  for (const mode of ['light', 'dark'] as const) {
    const colour = resolveColour('var(--vx-color-muted-text)', palettes[mode]) ?? '';
    const background = resolveColour('var(--vx-color-surface)', palettes[mode]) ?? '';
    assert.ok(contrastRatio(colour, background) >= aa, `${mode}: ${colour} on ${background}`);
  }
});
