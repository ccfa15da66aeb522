/**
 * Replaces @docusaurus/theme-classic 3.10.2's DocVersionBadge, which shows "Version: <label>" only when a docs
 * version asks for a badge; the portal's one version does not. The build renders every doc, so a version with a
 * badge fails the build here instead of losing it silently.
 */
import type {ReactNode} from 'react';
import {useDocsVersion} from '@docusaurus/plugin-content-docs/client';

export default function DocVersionBadge(): ReactNode {
  const version = useDocsVersion();
  if (version.badge) {
    throw new Error(
      `Docs version ${version.version} has a badge, which src/theme/DocVersionBadge does not show: delete that replacement to get the theme's badge back.`,
    );
  }
  return null;
}
