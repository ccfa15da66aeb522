/**
 * Whether this is a benchmark build that leaves out a first-load mechanism (PORTAL_WITHOUT,
 * performance.config.ts): its wrappers then render the theme's own components. Build-time
 * constants (plugins/performance/first-load-switches), false in every normal build, so the
 * minifier drops the other branch. typeof: outside a bundler build (unit tests) they are not defined.
 */
declare const __PORTAL_WITHOUT_HIGHLIGHTING__: boolean | undefined;
declare const __PORTAL_WITHOUT_TABS_KEPT__: boolean | undefined;

export const withoutHighlighting: boolean = typeof __PORTAL_WITHOUT_HIGHLIGHTING__ !== 'undefined' && __PORTAL_WITHOUT_HIGHLIGHTING__;
export const withoutTabsKept: boolean = typeof __PORTAL_WITHOUT_TABS_KEPT__ !== 'undefined' && __PORTAL_WITHOUT_TABS_KEPT__;
