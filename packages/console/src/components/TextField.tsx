import type { InputHTMLAttributes, PartialInputHTMLAttributes } from 'preact';
import { useId } from 'preact/hooks';
import { ApiError } from '../api/ApiError.ts';

/** Props of `TextField`: its label, the API field it stands for, and any `<input>` attribute. */
export interface TextFieldProps
  extends Omit<PartialInputHTMLAttributes<HTMLInputElement>, 'id' | 'label' | 'type' | 'role'> {
  label: string;
  /** Default `text`. */
  type?: 'text' | 'email' | 'password' | 'number' | 'datetime-local';
  /** The request field this input fills, to show the API's message for it (`name`, `timeoutSec`). */
  field?: string;
  /** The last error answer of the form. */
  error?: unknown;
  hint?: string;
}

/** A labelled input with the API's error for its field next to it (`aria-invalid`, described by it). */
export function TextField({ label, field, error, hint, type = 'text', ...input }: TextFieldProps) {
  const id = useId();
  const message = field && error instanceof ApiError ? error.fieldMessage(field) : undefined;
  const describedBy = [hint ? `${id}-hint` : '', message ? `${id}-error` : ''].filter(Boolean).join(' ');
  return (
    <div class="field">
      <label for={id}>{label}</label>
      <input
        {...({
          ...input,
          type,
          id,
          'aria-invalid': message ? 'true' : undefined,
          'aria-describedby': describedBy || undefined,
          // Preact's types tie `role` to `type` as a union the spread cannot name; no role is set here.
        } as InputHTMLAttributes<HTMLInputElement>)}
      />
      {hint ? (
        <p class="hint" id={`${id}-hint`}>
          {hint}
        </p>
      ) : null}
      {message ? (
        <p class="field-error" id={`${id}-error`}>
          {message}
        </p>
      ) : null}
    </div>
  );
}
