import type {ReactNode} from 'react';
import {formRows, setFormValue, type FormRow, type TryItBodyForm} from '@site/src/lib/tryIt';
import {fieldErrors} from '@site/src/components/ui/WidgetForm/fieldErrors';
import form from '@site/src/components/ui/WidgetForm/styles.module.css';
import styles from './styles.module.css';

interface BodyEditorProps {
  readonly id: string;
  readonly bodyForm: TryItBodyForm;
  /** The body as typed: the one source of truth; the form reads and writes it. */
  readonly text: string;
  readonly onText: (text: string) => void;
  /** A new value for a field that switches the body's variant (Create order's scene): the panel may load that variant's example instead. */
  readonly onVariant?: (tag: string) => boolean;
  /** Problems by dotted field path ("amount.value"), and those about the body as a whole under "body". */
  readonly errors: Readonly<Record<string, string>>;
}

const label = (row: FormRow) => row.path.join('.');

/**
 * The request body twice, kept in step: a form with an input per field of the schema (for a one-of body, the
 * fields of the variant chosen), and the raw JSON it writes, which is what is signed and sent. Editing
 * either updates the other; while the JSON does not parse, the form waits for it.
 */
export default function BodyEditor({id, bodyForm, text, onText, onVariant, errors}: BodyEditorProps): ReactNode {
  let parsed: unknown;
  let parses = true;
  try {
    parsed = JSON.parse(text);
  } catch {
    parses = false;
  }
  const rows = parses ? formRows(bodyForm, parsed) : [];
  const change = (row: FormRow, value: string) => {
    if (row.switchesVariant && row.path.length === 1 && onVariant?.(value)) return;
    onText(JSON.stringify(setFormValue(parsed, row, value), null, 2));
  };
  const {error: errorOf, described: describedBy} = fieldErrors(id, errors);

  return (
    <div className={styles.bodyEditor}>
      <fieldset className={styles.group}>
        <legend>Request body fields</legend>
        {parses ? null : (
          <p className={styles.note}>The JSON does not parse, so the form waits: fix it on the right, or reload an example.</p>
        )}
        <div className={styles.formFields}>
          {rows.map((row) => {
            const key = label(row);
            const inputId = `${id}-field-${key.replace(/\W/g, '_')}`;
            return (
              <div key={key} className={form.field}>
                <label htmlFor={inputId}>
                  {key} <span className={styles.hint}>({row.field.required ? 'required' : 'optional'})</span>
                </label>
                {row.options ? (
                  <select id={inputId} value={row.value} onChange={(event) => change(row, event.target.value)} {...describedBy(key)}>
                    {row.field.required && row.value !== '' ? null : (
                      <option value="">{row.field.required ? 'Choose…' : '(not sent)'}</option>
                    )}
                    {row.options.map((option) => (
                      <option key={option}>{option}</option>
                    ))}
                  </select>
                ) : (
                  <input
                    id={inputId}
                    autoComplete="off"
                    spellCheck={false}
                    {...(row.field.type === 'integer' || row.field.type === 'number' ? {inputMode: 'numeric' as const} : {})}
                    value={row.value}
                    onChange={(event) => change(row, event.target.value)}
                    {...describedBy(key)}
                  />
                )}
                {row.field.hint ? <span className={styles.fieldHint}>{row.field.hint}</span> : null}
                {errorOf(key)}
              </div>
            );
          })}
        </div>
      </fieldset>
      <div className={form.field}>
        <label htmlFor={`${id}-body`}>Request body (JSON, sent exactly as written)</label>
        <textarea
          id={`${id}-body`}
          className={styles.code}
          rows={Math.min(24, text.split('\n').length + 1)}
          spellCheck={false}
          value={text}
          onChange={(event) => onText(event.target.value)}
          {...describedBy('body')}
        />
        {errorOf('body')}
      </div>
    </div>
  );
}
