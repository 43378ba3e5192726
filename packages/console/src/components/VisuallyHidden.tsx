import type { ComponentChildren } from 'preact';

/** Text for screen readers only, e.g. what a row's "Revoke" button revokes. */
export function VisuallyHidden({ children }: { children: ComponentChildren }) {
  return <span class="visually-hidden">{children}</span>;
}
