/**
 * The search results' styles, kept out of the sheet every page loads first.
 *
 * The search plugin's CSS module styles both the search field, which every page draws at first paint, and the
 * results dropdown, which no page shows before the reader searches. One module cannot be split by the bundler, so
 * after the build `unused-css` moves the rules that only the dropdown matches into a sheet of their own (about 0.7 KB
 * Brotli of the main sheet's 12.6 KB) and names it on the main sheet's `<link>`; the chunk that brings the search bar's
 * code (search-bar/arrived.ts) loads it before the search bar takes the stand-in's place.
 * No dependencies: the browser build imports this file.
 */

/** The attribute of the main sheet's `<link>` that gives the results sheet's URL. */
export const resultsSheetAttribute = 'data-search-results';

/** The results sheet's name before its content hash: `assets/css/search-results.<hash>.css`. */
export const resultsSheetName = 'search-results';

/**
 * Local class names of the plugin's SearchBar.module.css that only the results dropdown renders (and the clear
 * button, drawn once the reader has typed, and the states only the plugin's own search bar sets: focused, and the
 * index loading after the first keystroke), never the search field's first paint. tests/unit/searchResultStyles.test.ts
 * checks each is still a class of the module and that the stand-in renders none of them.
 */
export const resultClasses = [
  'dropdownMenu',
  'suggestion',
  'cursor',
  'hitTree',
  'hitIcon',
  'hitPath',
  'hitWrapper',
  'hitTitle',
  'hitAction',
  'hideAction',
  'noResults',
  'noResultsIcon',
  'hitFooter',
  'searchClearButton',
  'focused',
  'searchIndexLoading',
] as const;

/** A selector that names one of the results' classes as the built sheet writes them (`.hitTree_kk6K`). */
export const resultSelector = new RegExp(`\\.(${resultClasses.join('|')})_[\\w-]+(?![\\w-])`);
