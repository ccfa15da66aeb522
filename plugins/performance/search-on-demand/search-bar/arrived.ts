/**
 * What the stand-in (client.tsx) swaps in, loaded with the search bar's code and not before: the search plugin's
 * search bar, ready once the search results' sheet that the production build moved out of the main one
 * (../resultStyles.ts) has loaded too. Here rather than in client.tsx, which every page loads first.
 */
import SearchBar from '@theme-original/SearchBar';
import {resultsSheetAttribute} from '../resultStyles';

/**
 * Links the results' sheet right after the main sheet, so the cascade is as before. Resolves once it has loaded or
 * failed (the results then show unstyled rather than not at all), and at once in development, where the main sheet
 * still has the rules.
 */
function loadResultStyles(): Promise<void> {
  const main = document.querySelector(`link[${resultsSheetAttribute}]`);
  const href = main?.getAttribute(resultsSheetAttribute);
  if (!main || !href) return Promise.resolve();
  return new Promise((resolve) => {
    const sheet = document.createElement('link');
    sheet.rel = 'stylesheet';
    sheet.href = href;
    sheet.onload = sheet.onerror = () => resolve();
    main.after(sheet);
  });
}

export const arrived: Promise<typeof SearchBar> = loadResultStyles().then(() => SearchBar);
