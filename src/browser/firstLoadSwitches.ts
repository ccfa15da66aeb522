/**
 * Whether this is a benchmark build without the idle-work group of first-load mechanisms
 * (PORTAL_WITHOUT=idle-work, plugins/performance/first-load-switches): its wrappers then render the theme's
 * own components. A build-time constant, false in every normal build, so the minifier drops the
 * other branch.
 */
declare const __PORTAL_WITHOUT_IDLE_WORK__: boolean | undefined;

// typeof: outside a webpack build (unit tests) the constant is not defined.
export const withoutIdleWork: boolean = typeof __PORTAL_WITHOUT_IDLE_WORK__ !== 'undefined' && __PORTAL_WITHOUT_IDLE_WORK__;
