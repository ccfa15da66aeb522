import type {ReactNode} from 'react';
import type {FieldView, VariantView} from '@site/src/contract/apiModel';
import TableScroller from '@site/src/components/ui/TableScroller';
import BreakAfter from '@site/src/components/ui/BreakAfter';
import styles from './styles.module.css';

function FieldDetails({field}: {field: FieldView}): ReactNode {
  return (
    <>
      {field.descriptionHtml && <div className={styles.description} dangerouslySetInnerHTML={{__html: field.descriptionHtml}} />}
      {field.enumValues && (
        <p className={styles.meta}>
          One of:{' '}
          {field.enumValues.map((value, index) => (
            <span key={value}>
              {index > 0 && ', '}
              <code>{value}</code>
            </span>
          ))}
        </p>
      )}
      {field.constValue !== undefined && (
        <p className={styles.meta}>
          Always <code>{field.constValue}</code>
        </p>
      )}
      {field.defaultValue !== undefined && (
        <p className={styles.meta}>
          Default <code>{field.defaultValue}</code>
        </p>
      )}
      {field.constraints.length > 0 && <p className={styles.meta}>{field.constraints.join('; ')}</p>}
    </>
  );
}

function TypeLabel({field}: {field: FieldView}): ReactNode {
  return (
    <>
      {field.type}
      {field.typeName && field.typeName !== field.type && (
        <>
          {/* The Type column wraps at the space, then inside the schema name only at its camelCase humps. */}{' '}
          <span className={styles.typeName}>
            (<BreakAfter text={field.typeName} characters="" humps />)
          </span>
        </>
      )}
    </>
  );
}

/** "One of: TITLE" and the variant's description, for a table row or a nested list. */
function VariantTitle({variant}: {variant: VariantView}): ReactNode {
  return (
    <>
      <span className={styles.variantLabel}>One of:</span> <strong>{variant.title}</strong>
      {/* A div: the description is Markdown rendered to paragraphs, which a span may not hold. */}
      {variant.descriptionHtml && <div className={styles.variantDescription} dangerouslySetInnerHTML={{__html: variant.descriptionHtml}} />}
    </>
  );
}

function nestedCount(field: FieldView): number {
  return (field.fields?.length ?? 0) + (field.variants ?? []).reduce((count, variant) => count + variant.fields.length, 0);
}

/**
 * The fields inside an object or array field, closed by default. An API page
 * holds hundreds of nested fields; a reader scans the top level first and
 * opens what they need, and a closed <details> costs the browser no style or
 * layout work. Find in page still opens it on a match, and the text is in the
 * HTML for search engines and the offline search index.
 */
function NestedFields({field, fullName}: {field: FieldView; fullName: string}): ReactNode {
  const count = nestedCount(field);
  return (
    <details className={styles.nested}>
      <summary className={styles.nestedSummary}>
        {count === 1 ? 'Show the field' : `Show ${count} fields`} in <code>{field.name}</code>
      </summary>
      {field.fields && <FieldList fields={field.fields} prefix={fullName} />}
      {field.variants?.map((variant) => (
        <div key={`${fullName}:${variant.title}`} className={styles.nestedVariant}>
          {/* A div: the description is HTML with its own <p>, which a <p> cannot hold. */}
          <div>
            <VariantTitle variant={variant} />
          </div>
          <FieldList fields={variant.fields} prefix={fullName} />
        </div>
      ))}
    </details>
  );
}

function FieldList({fields, prefix}: {fields: readonly FieldView[]; prefix: string}): ReactNode {
  return (
    <ul className={styles.fieldList}>
      {fields.map((field) => {
        const fullName = `${prefix}.${field.name}`;
        return (
          <li key={fullName} className={styles.fieldItem}>
            <p className={styles.signature}>
              <code className={styles.name} data-field={fullName}>
                {field.name}
              </code>{' '}
              <span className={styles.type}>
                <TypeLabel field={field} />
              </span>
              {field.required && <span className={styles.requiredInline}>required</span>}
            </p>
            <FieldDetails field={field} />
            {nestedCount(field) > 0 && <NestedFields field={field} fullName={fullName} />}
          </li>
        );
      })}
    </ul>
  );
}

function Rows({fields, depth, prefix}: {fields: readonly FieldView[]; depth: number; prefix: string}): ReactNode {
  return fields.map((field) => {
    const fullName = prefix ? `${prefix}.${field.name}` : field.name;
    return <FieldRow key={fullName} field={field} depth={depth} fullName={fullName} />;
  });
}

function VariantRows({variants, depth, prefix}: {variants: readonly VariantView[]; depth: number; prefix: string}): ReactNode {
  return variants.map((variant) => (
    <VariantBlock key={`${prefix}:${variant.title}`} variant={variant} depth={depth} prefix={prefix} />
  ));
}

function VariantBlock({variant, depth, prefix}: {variant: VariantView; depth: number; prefix: string}): ReactNode {
  return (
    <>
      <tr className={styles.variant}>
        <td colSpan={3} style={{paddingLeft: `${0.75 + depth}rem`}}>
          <VariantTitle variant={variant} />
        </td>
      </tr>
      <Rows fields={variant.fields} depth={depth + 1} prefix={prefix} />
    </>
  );
}

/** A row of the table: the top-level fields and those of a top-level variant. Deeper fields sit in the row's NestedFields. */
function FieldRow({field, depth, fullName}: {field: FieldView; depth: number; fullName: string}): ReactNode {
  return (
    <tr>
      <td style={{paddingLeft: `${0.75 + depth}rem`}}>
        <code className={styles.name} data-field={fullName}>
          {field.name}
        </code>
        {field.required && <span className={styles.required}>required</span>}
      </td>
      <td className={styles.type} data-label="Type" data-inline="">
        <TypeLabel field={field} />
      </td>
      <td>
        <FieldDetails field={field} />
        {nestedCount(field) > 0 && <NestedFields field={field} fullName={fullName} />}
      </td>
    </tr>
  );
}

/** Table of fields (name, type, required, constraints, enum values and description), with nested fields in closed disclosures. */
export default function FieldTable({
  fields,
  variants,
  caption,
}: {
  fields: readonly FieldView[];
  variants?: readonly VariantView[];
  caption: string;
}): ReactNode {
  return (
    <TableScroller label={caption} cardsOnPhone className={styles.wrapper}>
      <table className={styles.table}>
        <caption className={styles.caption}>{caption}</caption>
        <thead>
          <tr>
            <th scope="col">Field</th>
            <th scope="col">Type</th>
            <th scope="col">Description</th>
          </tr>
        </thead>
        <tbody>
          <Rows fields={fields} depth={0} prefix="" />
          {variants && <VariantRows variants={variants} depth={0} prefix="" />}
        </tbody>
      </table>
    </TableScroller>
  );
}
