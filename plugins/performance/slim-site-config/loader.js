// @ts-check
/* global module -- CommonJS: Rspack requires a loader by its path, and this one runs in Node as it is. */
/**
 * Webpack (Rspack) loader for `@generated/docusaurus.config`, the site config as core writes it for the bundle
 * (`export default <JSON>;`, server/codegen/codegen.js), which is part of every page's start-up script. Core writes
 * the whole config, though the code that runs in the page reads only a few fields (the title, URLs, theme config,
 * custom fields, the router and storage settings). The fields below are read by the build alone (core's server code,
 * the plugins' Node side, the bundler) and are left out: on 2026-11-28 they were 3.9 KB of the config's 7.1 KB, 1.2 KB
 * of main.js after Brotli. tests/unit/slimSiteConfig.test.ts fails when browser code of core, the themes, the plugins
 * or this site reads one of them.
 */

/** Top-level fields only the build reads. */
const buildOnlyFields = [
  'ssrTemplate',
  'presets',
  'plugins',
  'themes',
  'markdown',
  'onBrokenLinks',
  'onBrokenAnchors',
  'onDuplicateRoutes',
  'staticDirectories',
  'scripts',
  'headTags',
  'stylesheets',
  'clientModules',
];
/** Fields of `future` only the build reads: the bundler's and the VCS options (the router and v4 flags stay). */
const buildOnlyFutureFields = ['faster', 'experimental_vcs'];

const prefix = 'export default ';

/**
 * The config module without the build-only fields. Fails when the module is not what core 3.x writes, so an upgrade
 * that changes it is noticed.
 * @param {string} source
 * @returns {string}
 */
function withoutBuildOnlyFields(source) {
  const start = source.indexOf(prefix);
  const end = source.lastIndexOf(';');
  if (start < 0 || end < start)
    throw new Error(
      'slim-site-config: @generated/docusaurus.config is not `export default <JSON>;`: core changed how it writes the config.',
    );
  /** @type {Record<string, unknown>} */
  const config = JSON.parse(source.slice(start + prefix.length, end));
  if (typeof config['baseUrl'] !== 'string') throw new Error('slim-site-config: the module has no baseUrl; is it the site config?');
  /** @type {(object: Record<string, unknown>, fields: string[]) => Record<string, unknown>} */
  const without = (object, fields) => Object.fromEntries(Object.entries(object).filter(([field]) => !fields.includes(field)));
  const slim = without(config, buildOnlyFields);
  const future = config['future'];
  if (future && typeof future === 'object')
    slim['future'] = without(/** @type {Record<string, unknown>} */ (future), buildOnlyFutureFields);
  return `${prefix}${JSON.stringify(slim)};\n`;
}

/**
 * @this {unknown}
 * @param {string} source
 */
module.exports = function slimSiteConfigLoader(source) {
  return withoutBuildOnlyFields(source);
};
module.exports.withoutBuildOnlyFields = withoutBuildOnlyFields;
module.exports.buildOnlyFields = buildOnlyFields;
module.exports.buildOnlyFutureFields = buildOnlyFutureFields;
