/**
 * Ejected from @docusaurus/theme-classic 3.10.2 as a no-op. The original loads
 * the extra Prism grammars into the start-up bundle of every page; here they
 * load with Prism itself, on the server up front and in the browser on demand
 * (plugins/performance/deferred-highlighting/highlighter). The grammar list lives there and in the config.
 */
export default function prismIncludeLanguages(): void {
  // Intentionally empty: see above.
}
