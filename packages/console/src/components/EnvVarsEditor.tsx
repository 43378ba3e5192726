import { useState } from 'preact/hooks';
import { VisuallyHidden } from './VisuallyHidden.tsx';

/** One row of the editor: a variable's name and value. */
export interface EnvRow {
  key: string;
  value: string;
}

/** Props of `EnvVarsEditor`. */
export interface EnvVarsEditorProps {
  rows: EnvRow[];
  onChange: (rows: EnvRow[]) => void;
  /** The API's message for `envVars` (or one of its keys), shown under the rows. */
  error?: string | undefined;
  /**
   * Shown, not editable: a viewer's, whose values the server answers masked (`********`). The
   * values are shown as they came, and nothing offers to change, reveal or save them.
   */
  readOnly?: boolean;
}

/**
 * Environment variables as name/value rows. Values are secrets (http-api.md §6): each is a password
 * input, masked until its "Show" button is pressed.
 */
export function EnvVarsEditor({ rows, onChange, error, readOnly = false }: EnvVarsEditorProps) {
  const [shown, setShown] = useState<ReadonlySet<number>>(new Set());
  const update = (index: number, patch: Partial<EnvRow>) =>
    onChange(rows.map((row, i) => (i === index ? { ...row, ...patch } : row)));
  const toggle = (index: number) => {
    const next = new Set(shown);
    if (next.has(index)) next.delete(index);
    else next.add(index);
    setShown(next);
  };
  return (
    <fieldset class="env-vars" aria-describedby={error ? 'env-vars-error' : undefined}>
      <legend>Environment variables</legend>
      {rows.length === 0 ? <p class="empty">No variables.</p> : null}
      {rows.map((row, index) => {
        const n = index + 1;
        return (
          <div class="env-row" key={index}>
            <div class="field">
              <label for={`env-key-${index}`}>Name of variable {n}</label>
              <input
                id={`env-key-${index}`}
                value={row.key}
                autocomplete="off"
                spellcheck={false}
                pattern="[A-Za-z_][A-Za-z0-9_]*"
                readOnly={readOnly}
                onInput={(e) => update(index, { key: e.currentTarget.value })}
              />
            </div>
            <div class="field">
              <label for={`env-value-${index}`}>Value of variable {n}</label>
              <input
                {...(shown.has(index) || readOnly ? { type: 'text' } : { type: 'password' })}
                readOnly={readOnly}
                id={`env-value-${index}`}
                value={row.value}
                autocomplete="new-password"
                spellcheck={false}
                onInput={(e) => update(index, { value: e.currentTarget.value })}
              />
            </div>
            {readOnly ? null : (
              <>
                <button
                  type="button"
                  class="secondary"
                  aria-pressed={shown.has(index)}
                  onClick={() => toggle(index)}
                >
                  Show<VisuallyHidden> value of variable {n}</VisuallyHidden>
                </button>
                <button
                  type="button"
                  class="secondary"
                  onClick={() => {
                    setShown(new Set());
                    onChange(rows.filter((_, i) => i !== index));
                  }}
                >
                  Remove<VisuallyHidden> variable {n}</VisuallyHidden>
                </button>
              </>
            )}
          </div>
        );
      })}
      {readOnly ? (
        <p class="hint">Values are masked for viewers.</p>
      ) : (
        <button type="button" class="secondary" onClick={() => onChange([...rows, { key: '', value: '' }])}>
          Add variable
        </button>
      )}
      {error ? (
        <p class="field-error" id="env-vars-error">
          {error}
        </p>
      ) : null}
    </fieldset>
  );
}
