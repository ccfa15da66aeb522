/**
 * Replaces @docusaurus/theme-classic 3.10.2's DocVersionBanner. The original warns readers of an old or
 * unreleased docs version and renders nothing for the latest one; the portal publishes one version, the latest
 * (docusaurus.config.ts), yet the banner's code (version suggestions, preferred-version links) was in the first
 * load of every docs page. The build renders every doc, so a version with a banner fails the build here.
 */
import type {ReactNode} from 'react';
import {useDocsVersion} from '@docusaurus/plugin-content-docs/client';

export default function DocVersionBanner(): ReactNode {
  const version = useDocsVersion();
  if (version.banner) {
    throw new Error(
      `Docs version ${version.version} has a "${version.banner}" banner, which src/theme/DocVersionBanner does not show: delete that replacement to get the theme's banner back.`,
    );
  }
  return null;
}
