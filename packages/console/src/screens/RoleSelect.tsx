import { useId } from 'preact/hooks';
import type { GrantableRole } from '../api/types.ts';
import { GRANTABLE_ROLES } from '../app/roles.ts';

/** Props of `RoleSelect`. */
export interface RoleSelectProps {
  label: string;
  /** The label for screen readers only (in a table row, whose column says what it is). */
  hideLabel?: boolean;
  value: GrantableRole;
  disabled?: boolean;
  onChange: (role: GrantableRole) => void;
}

/** A labelled select of the roles a member may be given: viewer, developer, admin. */
export function RoleSelect({ label, hideLabel = false, value, disabled, onChange }: RoleSelectProps) {
  const id = useId();
  return (
    <div class="field field-inline">
      <label for={id} class={hideLabel ? 'visually-hidden' : undefined}>
        {label}
      </label>
      <select
        id={id}
        value={value}
        disabled={disabled}
        onChange={(e) => onChange(e.currentTarget.value as GrantableRole)}
      >
        {GRANTABLE_ROLES.map((role) => (
          <option key={role} value={role}>
            {role}
          </option>
        ))}
      </select>
    </div>
  );
}
