// @ts-check
/* global module -- CommonJS: Rspack requires a loader by its path, and this one runs in Node as it is. */
/**
 * Webpack (Rspack) loader for a docs version's metadata module (`p/<version>.json` of
 * plugin-content-docs), which every docs page loads before it can hydrate: the sidebars, and each
 * doc's id, title, sidebar and description. The descriptions are most of its bytes and only the
 * theme's DocCard reads them (useDocById: category index pages and DocCardList), which this site does
 * not render, so they are left out of the bundle. The page's own description stays in its HTML and in
 * its own metadata. A site that starts using DocCard must remove this plugin.
 */

/**
 * The metadata JSON with every doc's description left out. Fails when the module is not version
 * metadata as plugin-content-docs 3.x writes it, so an upgrade that changes it is noticed.
 * @param {string} json
 * @returns {string}
 */
function withoutDocDescriptions(json) {
  /** @type {{version?: {docs?: Record<string, Record<string, unknown>>}}} */
  const metadata = JSON.parse(json);
  const docs = metadata.version?.docs;
  if (!docs || typeof docs !== 'object')
    throw new Error('slim-docs-metadata: the module has no version.docs; plugin-content-docs changed its metadata.');
  for (const doc of Object.values(docs)) delete doc['description'];
  return JSON.stringify(metadata);
}

/**
 * @this {unknown}
 * @param {string} source
 */
module.exports = function slimDocsMetadataLoader(source) {
  return withoutDocDescriptions(source);
};
module.exports.withoutDocDescriptions = withoutDocDescriptions;
