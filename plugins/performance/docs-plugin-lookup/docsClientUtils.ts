/**
 * Stands in for @docusaurus/plugin-content-docs/lib/client/docsClientUtils.js
 * (see ./index.ts). Only getActivePlugin differs; the rest is the original.
 */
export {getLatestVersion, getActiveVersion, getActiveDocContext, getDocVersionSuggestions} from '@docusaurus/plugin-content-docs/lib/client/docsClientUtils.js';
export {getActivePlugin} from './activePlugin';
