/**
 * Replaces @docusaurus/theme-classic 3.10.2's DocItem/Footer. The original shows a doc's tags, edit link and
 * last-update line, and renders nothing without them; no doc here has any (no tags, no `editUrl`,
 * `showLastUpdateTime: false`), yet it put the tag list, the edit link and the date formatting into the first
 * load of every docs page (about 1 KB Brotli). The build renders every doc, so a doc that gains one of them
 * fails the build here instead of losing it silently.
 */
import type {ReactNode} from 'react';
import {useDoc} from '@docusaurus/plugin-content-docs/client';

export default function DocItemFooter(): ReactNode {
  const {metadata} = useDoc();
  const {editUrl, lastUpdatedAt, lastUpdatedBy, tags} = metadata;
  if (tags.length > 0 || editUrl || lastUpdatedAt || lastUpdatedBy) {
    throw new Error(
      `${metadata.source} has tags, an edit URL or last-update data, which src/theme/DocItem/Footer does not show: delete that replacement to get the theme's footer back.`,
    );
  }
  return null;
}
