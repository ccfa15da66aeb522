import type {ReactNode} from 'react';
import form from './styles.module.css';

/**
 * An error under the field it is about, and the attributes that tie the field to it (aria-invalid,
 * aria-describedby, with an optional hint's ID first): one way for every widget, so a screen reader hears
 * each error with its field. Field names may hold dots ("amount.value"); element IDs get underscores.
 */
export function fieldErrors(id: string, errors: Readonly<Partial<Record<string, string>>>) {
  const errorId = (name: string) => `${id}-${name.replace(/[^\w-]/g, '_')}-error`;
  return {
    /** The error paragraph of a field, or nothing. */
    error: (name: string): ReactNode =>
      errors[name] === undefined ? null : (
        <p id={errorId(name)} className={form.fieldError}>
          {errors[name]}
        </p>
      ),
    /** Props for the field's input. */
    described: (name: string, hintId?: string) => {
      const ids = [hintId, errors[name] === undefined ? undefined : errorId(name)].filter(Boolean).join(' ');
      return {'aria-invalid': errors[name] !== undefined, ...(ids ? {'aria-describedby': ids} : {})};
    },
  };
}
