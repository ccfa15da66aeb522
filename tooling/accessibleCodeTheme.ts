/**
 * Adjusts a prism-react-renderer theme so every token colour has at least
 * 4.5:1 contrast against the theme's background (WCAG AA), keeping each hue.
 */
import type {PrismTheme} from 'prism-react-renderer';
import {ensureContrast, isParsableColor} from './contrast';

export function accessibleCodeTheme(theme: PrismTheme, ratio = 4.6): PrismTheme {
  const background = theme.plain.backgroundColor ?? '#ffffff';
  const fix = (color: string | undefined) => (color && isParsableColor(color) ? ensureContrast(color, background, ratio) : color);
  return {
    plain: {...theme.plain, color: fix(theme.plain.color)},
    // Faded tokens (opacity below 1, as for namespaces) lose contrast too: draw them opaque.
    styles: theme.styles.map((entry) => ({...entry, style: {...entry.style, color: fix(entry.style.color), opacity: undefined}})),
  };
}
