import type {ReactNode} from 'react';
import type {FieldView, VariantView} from '@site/src/lib/apiModel';
import StaticMarkup from '@site/src/components/StaticMarkup';
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

function Rows({fields, depth, prefix}: {fields: readonly FieldView[]; depth: number; prefix: string}): ReactNode {
  return fields.map((field) => {
    const fullName = prefix ? `${prefix}.${field.name}` : field.name;
    return (
      <FieldRows key={fullName} field={field} depth={depth} fullName={fullName} />
    );
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
        <td colSpan={3} style={{paddingLeft: `${0.75 + depth * 1.25}rem`}}>
          <span className={styles.variantLabel}>One of:</span> <strong>{variant.title}</strong>
          {variant.descriptionHtml && <span className={styles.variantDescription} dangerouslySetInnerHTML={{__html: variant.descriptionHtml}} />}
        </td>
      </tr>
      <Rows fields={variant.fields} depth={depth + 1} prefix={prefix} />
    </>
  );
}

function FieldRows({field, depth, fullName}: {field: FieldView; depth: number; fullName: string}): ReactNode {
  return (
    <>
      <tr>
        <td style={{paddingLeft: `${0.75 + depth * 1.25}rem`}}>
          <code className={styles.name} data-field={fullName}>
            {field.name}
          </code>
          {field.required && <span className={styles.required}>required</span>}
        </td>
        <td className={styles.type}>
          {field.type}
          {field.typeName && field.typeName !== field.type && <span className={styles.typeName}> ({field.typeName})</span>}
        </td>
        <td>
          <FieldDetails field={field} />
        </td>
      </tr>
      {field.fields && <Rows fields={field.fields} depth={depth + 1} prefix={fullName} />}
      {field.variants && <VariantRows variants={field.variants} depth={depth + 1} prefix={fullName} />}
    </>
  );
}

/** Nested table of fields: name, type, required, constraints, enum values and description. */
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
    // Focusable so keyboard users can scroll a wide table sideways; static, so it is not hydrated.
    <StaticMarkup className={styles.wrapper} tabIndex={0} role="region" aria-label={caption}>
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
    </StaticMarkup>
  );
}
