import {describe, test} from 'node:test';
import assert from 'node:assert/strict';
import {themes} from 'prism-react-renderer';
import {accessibleCodeTheme} from '../../tooling/accessibleCodeTheme';
import {contrastRatio, ensureContrast} from '../../tooling/contrast';

describe('contrast', () => {
  test('known ratios', () => {
    assert.equal(Math.round(contrastRatio('#000000', '#ffffff')), 21);
    assert.equal(contrastRatio('#777', '#777'), 1);
    assert.ok(Math.abs(contrastRatio('#767676', '#ffffff') - 4.54) < 0.01);
  });

  test('ensureContrast darkens on light and lightens on dark backgrounds', () => {
    const onLight = ensureContrast('#999988', '#f6f8fa');
    assert.ok(contrastRatio(onLight, '#f6f8fa') >= 4.5);
    const onDark = ensureContrast('#6272a4', '#282a36');
    assert.ok(contrastRatio(onDark, '#282a36') >= 4.5);
    assert.equal(ensureContrast('#000000', '#ffffff'), '#000000');
    assert.ok(contrastRatio(ensureContrast('rgb(98, 114, 164)', '#282A36'), '#282A36') >= 4.5);
  });

  test('the code themes the site uses meet 4.5:1 for every token', () => {
    for (const theme of [accessibleCodeTheme(themes.github), accessibleCodeTheme(themes.dracula)]) {
      const background = theme.plain.backgroundColor ?? '';
      for (const entry of theme.styles) {
        assert.equal(entry.style.opacity, undefined, `${entry.types.join(',')} is faded`);
        if (entry.style.color) {
          assert.ok(contrastRatio(entry.style.color, background) >= 4.5, `${entry.types.join(',')} ${entry.style.color} on ${background}`);
        }
      }
    }
  });
});
