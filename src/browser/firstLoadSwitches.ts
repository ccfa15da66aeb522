/**
 * Whether this is a benchmark build without a group of first-load mechanisms (PORTAL_WITHOUT,
 * plugins/performance/first-load-switches): its wrappers then render the theme's own components.
 * Build-time constants, false in every normal build, so the minifier drops the other branch.
 */
declare const __PORTAL_WITHOUT_IDLE_WORK__: boolean | undefined;
declare const __PORTAL_WITHOUT_HIGHLIGHTING__: boolean | undefined;
declare const __PORTAL_WITHOUT_SERVER_MARKUP__: boolean | undefined;

// typeof: outside a webpack build (unit tests) the constant is not defined.
export const withoutIdleWork: boolean = typeof __PORTAL_WITHOUT_IDLE_WORK__ !== 'undefined' && __PORTAL_WITHOUT_IDLE_WORK__;

/** Without the highlighting group, code blocks are tokenised and hydrated in the browser, as the theme does. */
export const withoutHighlighting: boolean = typeof __PORTAL_WITHOUT_HIGHLIGHTING__ !== 'undefined' && __PORTAL_WITHOUT_HIGHLIGHTING__;

/** Without the server-markup group, the API tables and tab groups hydrate as the theme's would. */
export const withoutServerMarkup: boolean = typeof __PORTAL_WITHOUT_SERVER_MARKUP__ !== 'undefined' && __PORTAL_WITHOUT_SERVER_MARKUP__;
