/** Reads a docs plugin's content folder for the unit tests. */
import type {ContentSection} from '../../src/contentSections';
import type {DocSource} from '../../src/contract/node/docRoutes';
import {readContentFiles} from '../../src/contract/node/contentFiles';
import {repoRoot} from './routeContract';

export function readContentFolder(section: ContentSection): DocSource[] {
  return readContentFiles(repoRoot, [section]).map(({relativePath, text}) => ({relativePath, text}));
}
