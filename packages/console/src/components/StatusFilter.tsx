/** Props of `StatusFilter`. */
export interface StatusFilterProps<S extends string> {
  /** The `<select>`'s id, which its label points at. */
  id: string;
  /** The statuses to offer, in the order they are listed. */
  statuses: readonly S[];
  /** The status filtered by; `undefined` for all. */
  value: S | undefined;
  /** Called with the status chosen, `undefined` for All. */
  onChange: (status: S | undefined) => void;
}

/** A labelled "Status" select of a list's filters: All, then each status. */
export function StatusFilter<S extends string>({ id, statuses, value, onChange }: StatusFilterProps<S>) {
  return (
    <div class="field field-inline">
      <label for={id}>Status</label>
      <select
        id={id}
        value={value ?? ''}
        onChange={(e) => onChange((e.currentTarget.value || undefined) as S | undefined)}
      >
        <option value="">All</option>
        {statuses.map((s) => (
          <option key={s} value={s}>
            {s}
          </option>
        ))}
      </select>
    </div>
  );
}
