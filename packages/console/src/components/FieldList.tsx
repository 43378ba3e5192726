import type { ComponentChildren } from 'preact';

/** Props of `FieldList`. */
export interface FieldListProps {
  /** The heading's id, which labels the section. */
  id: string;
  title: string;
  /** Each field's term (also its key: unique) and value. */
  rows: ReadonlyArray<readonly [string, ComponentChildren]>;
}

/** A panel listing fields as a description list under a heading. */
export function FieldList({ id, title, rows }: FieldListProps) {
  return (
    <section aria-labelledby={id} class="panel">
      <h2 id={id}>{title}</h2>
      <dl class="fields">
        {rows.map(([term, value]) => (
          <div key={term}>
            <dt>{term}</dt>
            <dd>{value}</dd>
          </div>
        ))}
      </dl>
    </section>
  );
}
