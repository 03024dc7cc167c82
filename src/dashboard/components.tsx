/** @jsxImportSource hono/jsx */
import type { Child, FC } from 'hono/jsx';
import type { FormErrors } from './form.ts';

/**
 * Form parts with accessible labels: every field has a <label>, a hint and an error tied to it
 * with aria-describedby, and aria-invalid when it was refused.
 */

interface FieldProps {
  name: string;
  label: string;
  errors?: FormErrors;
  hint?: string;
  value?: string;
  type?: 'text' | 'email' | 'password';
  autocomplete?: string;
  required?: boolean;
  multiline?: boolean;
  rows?: number;
  maxlength?: number;
}

export const Field: FC<FieldProps> = (props) => {
  const id = `field-${props.name.replace(/[^a-zA-Z0-9_-]/g, '-')}`;
  const error = props.errors?.fields[props.name];
  const describedBy = [props.hint ? `${id}-hint` : '', error ? `${id}-error` : ''].filter(Boolean).join(' ') || undefined;
  const common = {
    id,
    name: props.name,
    required: props.required,
    'aria-invalid': error ? 'true' : undefined,
    'aria-describedby': describedBy,
    maxlength: props.maxlength,
  };
  return (
    <div class={error ? 'field field-error' : 'field'}>
      <label for={id}>{props.label}</label>
      {props.hint ? (
        <p class="hint" id={`${id}-hint`}>
          {props.hint}
        </p>
      ) : null}
      {error ? (
        <p class="error" id={`${id}-error`}>
          {error}
        </p>
      ) : null}
      {props.multiline ? (
        <textarea {...common} rows={props.rows ?? 3}>
          {props.value ?? ''}
        </textarea>
      ) : (
        <input {...common} type={props.type ?? 'text'} value={props.value ?? ''} autocomplete={props.autocomplete} />
      )}
    </div>
  );
};

/** The message on top of a refused form; focusable so it can be announced. */
export const ErrorSummary: FC<{ errors?: FormErrors }> = ({ errors }) =>
  errors?.summary ? (
    <div class="alert alert-error" role="alert" tabindex={-1} id="form-errors">
      {errors.summary}
    </div>
  ) : null;

export const Notice: FC<{ children?: Child }> = ({ children }) => (
  <div class="alert alert-ok" role="status">
    {children}
  </div>
);

/** A dates as people read them, in UTC (`2026-11-23 21:26 UTC`), or a dash. */
export function when(iso: string | null | undefined): string {
  return iso ? `${iso.slice(0, 10)} ${iso.slice(11, 16)} UTC` : '—';
}
