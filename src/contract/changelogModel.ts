/**
 * What the API changelog page receives: api/changelog.yaml, checked against the contract and
 * with each operation resolved to its reference page. src/contract/node/changelog.ts
 * builds it at build time and writes it as a generated module (see changelogModule.d.ts).
 */

/** The kinds of change, in the order the page explains them (Keep a Changelog's, plus security). */
export const changeTypes = ['added', 'changed', 'deprecated', 'removed', 'fixed', 'security'] as const;
export type ChangeType = (typeof changeTypes)[number];

/** An operation a change concerns, with the URL of its API reference page. */
export interface ChangelogOperation {
  readonly operationId: string;
  /** The operation's summary in the contract, such as "Create order". */
  readonly summary: string;
  readonly url: string;
}

export interface ChangelogChange {
  readonly type: ChangeType;
  /** True when an integration written for the previous version can stop working without a change. */
  readonly breaking: boolean;
  readonly area: string;
  /** One or two sentences; `backtick` spans are code (src/lib/codeSpans.ts). */
  readonly text: string;
  readonly operations: readonly ChangelogOperation[];
  /** Response codes of the contract's catalogue. */
  readonly codes: readonly string[];
}

export interface ChangelogVersion {
  /** MAJOR.MINOR.PATCH. */
  readonly version: string;
  /** The id of the version's heading on the page, such as "v1-1-0". */
  readonly anchor: string;
  /** YYYY-MM-DD. */
  readonly date: string;
  /** The date as readers see it, such as "24 November 2026" (formatted at build time). */
  readonly displayDate: string;
  readonly summary: string;
  readonly changes: readonly ChangelogChange[];
}

export interface ChangelogView {
  /** Path of the Atom feed published beside the site, such as "/api-changelog.xml". */
  readonly feedPath: string;
  /** Newest first. */
  readonly versions: readonly ChangelogVersion[];
}
