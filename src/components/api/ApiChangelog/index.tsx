import type {ReactNode} from 'react';
import Link from '@docusaurus/Link';
import Heading from '@theme/Heading';
// Written at build time by plugins/content/openapi-contract from api/changelog.yaml, checked against the contract.
import changelog from '@generated/openapi-contract/api-changelog.json';
import CodeSpans from '@site/src/components/ui/CodeSpans';
import type {ChangeType, ChangelogChange, ChangelogVersion} from '../../../contract/changelogModel';
import styles from './styles.module.css';

const typeLabels: Record<ChangeType, string> = {
  added: 'Added',
  changed: 'Changed',
  deprecated: 'Deprecated',
  removed: 'Removed',
  fixed: 'Fixed',
  security: 'Security',
};

function plural(count: number, noun: string): string {
  return `${count} ${noun}${count === 1 ? '' : 's'}`;
}

function Change({change}: {change: ChangelogChange}): ReactNode {
  return (
    <li className={styles.change} data-change-type={change.type} data-breaking={change.breaking || undefined}>
      <p className={styles.labels}>
        {/* Spaces between the labels keep them separate words for screen readers and search; the flex gap lays them out. */}
        {change.breaking && <span className={styles.breaking}>Breaking</span>}{' '}
        <span className={styles.type}>{typeLabels[change.type]}</span>{' '}
        <span className={styles.area}>{change.area}</span>
      </p>
      <p className={styles.text}>
        <CodeSpans text={change.text} />
      </p>
      {change.operations.length > 0 && (
        <p className={styles.references}>
          <span className={styles.referenceLabel}>{change.operations.length === 1 ? 'Operation' : 'Operations'}:</span>{' '}
          {change.operations.map((operation, index) => (
            <span key={operation.operationId}>
              {index > 0 && ', '}
              <Link to={operation.url}>{operation.summary}</Link>
            </span>
          ))}
        </p>
      )}
      {change.codes.length > 0 && (
        <p className={styles.references}>
          <span className={styles.referenceLabel}>{change.codes.length === 1 ? 'Response code' : 'Response codes'}:</span>{' '}
          {change.codes.map((code, index) => (
            <span key={code}>
              {index > 0 && ', '}
              <code>{code}</code>
            </span>
          ))}
        </p>
      )}
    </li>
  );
}

function Version({version}: {version: ChangelogVersion}): ReactNode {
  const breaking = version.changes.filter((change) => change.breaking);
  const others = version.changes.filter((change) => !change.breaking);
  return (
    <section className={styles.version} data-version={version.version}>
      <Heading as="h3" id={version.anchor}>
        Version {version.version}
      </Heading>
      <p className={styles.meta}>
        <time dateTime={version.date}>{version.displayDate}</time>
        <span aria-hidden="true"> · </span>
        <span>
          {plural(version.changes.length, 'change')}, {breaking.length === 0 ? 'none breaking' : `${breaking.length} breaking`}
        </span>
      </p>
      <p>
        <CodeSpans text={version.summary} />
      </p>
      {breaking.length > 0 && (
        <>
          <h4 className={styles.groupHeading}>Breaking changes</h4>
          {/* role="list" keeps list semantics in browsers that drop them with list-style: none. */}
          <ul className={styles.changes} role="list">
            {breaking.map((change, index) => (
              <Change key={index} change={change} />
            ))}
          </ul>
        </>
      )}
      {others.length > 0 && (
        <>
          <h4 className={styles.groupHeading}>{breaking.length > 0 ? 'Other changes' : 'Changes'}</h4>
          <ul className={styles.changes} role="list">
            {others.map((change, index) => (
              <Change key={index} change={change} />
            ))}
          </ul>
        </>
      )}
    </section>
  );
}

/** Every version of the API contract, newest first, from api/changelog.yaml. */
export default function ApiChangelog(): ReactNode {
  return (
    <div className={styles.changelog}>
      {changelog.versions.map((version) => (
        <Version key={version.version} version={version} />
      ))}
    </div>
  );
}
