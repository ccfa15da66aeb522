/**
 * WCAG contrast for hex colours, and a nudge that darkens or lightens a colour
 * until it reaches a target ratio against a background. Pure; used to make the
 * code-highlighting themes meet AA in both colour modes.
 */

/** Accepts #rgb, #rrggbb and rgb(r, g, b). */
export function isParsableColor(color: string): boolean {
  return /^#?([0-9a-f]{3}|[0-9a-f]{6})$/i.test(color.trim()) || /^rgb\(\s*\d+\s*,\s*\d+\s*,\s*\d+\s*\)$/.test(color.trim());
}

function channels(hex: string): [number, number, number] {
  const rgb = /^rgb\(\s*(\d+)\s*,\s*(\d+)\s*,\s*(\d+)\s*\)$/.exec(hex.trim());
  if (rgb) return [Number(rgb[1]), Number(rgb[2]), Number(rgb[3])];
  const match = /^#?([0-9a-f]{3}|[0-9a-f]{6})$/i.exec(hex.trim());
  if (!match?.[1]) throw new Error(`not a colour: ${hex}`);
  const digits = match[1].length === 3 ? [...match[1]].map((c) => c + c).join('') : match[1];
  return [0, 2, 4].map((i) => parseInt(digits.slice(i, i + 2), 16)) as [number, number, number];
}

function luminance(hex: string): number {
  const [r, g, b] = channels(hex).map((value) => {
    const c = value / 255;
    return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  }) as [number, number, number];
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}

export function contrastRatio(a: string, b: string): number {
  const [high, low] = [luminance(a), luminance(b)].sort((x, y) => y - x) as [number, number];
  return (high + 0.05) / (low + 0.05);
}

const toHex = (rgb: number[]) =>
  `#${rgb
    .map((c) =>
      Math.round(Math.min(255, Math.max(0, c)))
        .toString(16)
        .padStart(2, '0'),
    )
    .join('')}`;

/** Moves `color` towards black (light background) or white (dark background) until it reaches `ratio`. */
export function ensureContrast(color: string, background: string, ratio = 4.5): string {
  if (contrastRatio(color, background) >= ratio) return color;
  const towards = luminance(background) > 0.5 ? 0 : 255;
  const start = channels(color);
  for (let step = 1; step <= 20; step += 1) {
    const mixed = toHex(start.map((c) => c + ((towards - c) * step) / 20));
    if (contrastRatio(mixed, background) >= ratio) return mixed;
  }
  return towards === 0 ? '#000000' : '#ffffff';
}
