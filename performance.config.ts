/**
 * The switches of the first-load performance mechanisms, one per mechanism, in one place.
 *
 * Every mechanism here is on in every normal build. A benchmark build leaves some out
 * (PORTAL_WITHOUT=name,name; `npm run bench -- --ab NAME`), so that each is measured alone against
 * the same build with it; a mechanism stays only while that A/B shows a reader-facing gain
 * (bench/ab.md). docusaurus.config.ts reads the set for its plugins and page template; the browser
 * code reads it through build-time constants (plugins/performance/first-load-switches and
 * src/firstLoadSwitches.ts), and falls back to the theme's own behaviour.
 */
export const performanceMechanisms = {
  scheduling: 'page-script loader, page template and route scripts (without: Docusaurus’s own template)',
  highlighting: 'code highlighted on the server, kept through hydration, Prism loaded on demand (without: the theme’s CodeBlock)',
  'tabs-kept': 'tab groups are not re-created after hydration (ejected Tabs)',
} as const;

export type PerformanceMechanism = keyof typeof performanceMechanisms;

const names = Object.keys(performanceMechanisms) as PerformanceMechanism[];

/** The mechanisms a PORTAL_WITHOUT value names ("scheduling,tabs-kept"); an unknown name fails the build. */
export function mechanismsLeftOut(value: string | undefined): ReadonlySet<PerformanceMechanism> {
  const given = (value ?? '')
    .split(',')
    .map((name) => name.trim())
    .filter(Boolean);
  const unknown = given.filter((name) => !(names as string[]).includes(name));
  if (unknown.length > 0) throw new Error(`PORTAL_WITHOUT names unknown mechanisms (${unknown.join(', ')}); known: ${names.join(', ')}.`);
  return new Set(given as PerformanceMechanism[]);
}

/** The build-time constant that tells browser code a mechanism is left out: `__PORTAL_WITHOUT_TABS_KEPT__`. */
export function switchConstant(mechanism: PerformanceMechanism): string {
  return `__PORTAL_WITHOUT_${mechanism.toUpperCase().replace(/-/g, '_')}__`;
}

/** Left out in this build (empty unless PORTAL_WITHOUT is set). */
export const leftOut = mechanismsLeftOut(process.env.PORTAL_WITHOUT);
