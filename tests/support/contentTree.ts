/** Reads a docs plugin's content folder for the unit tests. */
import type {ContentSection} from '../../src/contentSections';
import type {DocSource} from '../../tooling/docRoutes';
import {readContentFiles} from '../../tooling/contentFiles';
import {repoRoot} from './routeContract';

export function readContentFolder(section: ContentSection): DocSource[] {
  return readContentFiles(repoRoot, [section]).map(({relativePath, text}) => ({relativePath, text}));
}
