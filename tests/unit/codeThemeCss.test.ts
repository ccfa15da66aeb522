import assert from 'node:assert/strict';
import {test} from 'node:test';
import {themes} from 'prism-react-renderer';
import {accessibleCodeTheme} from '../../tooling/accessibleCodeTheme';
import {codeThemeCss} from '../../plugins/performance/deferred-highlighting/codeThemeCss';

const light = accessibleCodeTheme(themes.github);
const dark = accessibleCodeTheme(themes.dracula);
const css = codeThemeCss({light, dark});

test('each colour mode gets its background, text colour and token colours', () => {
  assert.match(
    css,
    new RegExp(
      `\\[data-theme='light'\\] \\{ --prism-color: ${light.plain.color}; --prism-background-color: ${light.plain.backgroundColor}; \\}`,
    ),
  );
  assert.match(
    css,
    new RegExp(
      `\\[data-theme='dark'\\] \\{ --prism-color: ${dark.plain.color}; --prism-background-color: ${dark.plain.backgroundColor}; \\}`,
    ),
  );
  for (const [mode, theme] of [
    ['light', light],
    ['dark', dark],
  ] as const) {
    const entry = theme.styles.find((candidate) => candidate.types.includes('string') && !candidate.languages);
    const colour = entry?.style.color;
    assert.ok(colour, `${mode} theme has a string colour`);
    assert.match(css, new RegExp(`\\[data-theme='${mode}'\\] \\.token\\.string[^{]*\\{[^}]*color: ${colour.replace(/[()]/g, '\\$&')};`));
  }
});

test('language-specific colours are scoped to that language', () => {
  const scoped = codeThemeCss({
    light: {plain: {}, styles: [{types: ['keyword'], languages: ['java'], style: {color: '#123456', fontStyle: 'italic'}}]},
    dark: {plain: {}, styles: []},
  });
  assert.match(scoped, /\[data-theme='light'\] \.language-java \.token\.keyword \{ color: #123456; font-style: italic; \}/);
});

test('entries without a style produce no empty rules', () => {
  const empty = codeThemeCss({light: {plain: {}, styles: [{types: ['comment'], style: {}}]}, dark: {plain: {}, styles: []}});
  assert.doesNotMatch(empty, /\.token\.comment/);
});
