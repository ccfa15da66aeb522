/**
 * The smallest text of a drawn diagram as the reader sees it: the SVG file's smallest computed font size
 * (its styles and attributes applied, as in the page) times the scale the page shows the image at.
 */
import type {Locator} from '@playwright/test';

export async function smallestShownText(image: Locator): Promise<{drawn: number; shown: number; texts: number}> {
  return image.evaluate(async (element: HTMLImageElement) => {
    const svg = new DOMParser().parseFromString(await (await fetch(element.src)).text(), 'image/svg+xml').documentElement;
    document.body.append(svg);
    const sizes = [...svg.querySelectorAll('text')].map((text) => parseFloat(getComputedStyle(text).fontSize));
    svg.remove();
    const drawn = Math.min(...sizes);
    const scale = element.getBoundingClientRect().width / element.width;
    return {drawn, shown: drawn * scale, texts: sizes.length};
  });
}
