/** The module plugins/content/openapi-contract writes at build time from api/changelog.yaml (its `changelogModule`). */
declare module '@generated/openapi-contract/api-changelog.json' {
  import type {ChangelogView} from '@site/src/contract/changelogModel';

  const changelog: ChangelogView;
  export default changelog;
}
