import type { ComponentChildren } from 'preact';

/** Props of `Pager`. */
export interface PagerProps {
  /** What is paged, plural ("sessions"): said when there is none. */
  noun: string;
  total: number;
  offset: number;
  /** How many the current page shows. */
  shown: number;
  pageSize: number;
  /** Shown after the range (e.g. when the list was last updated). */
  children?: ComponentChildren;
  /** Asked for another page, by its offset. */
  onOffset: (offset: number) => void;
}

/** "11–20 of 42" with previous and next page buttons under a paged list. */
export function Pager({ noun, total, offset, shown, pageSize, children, onOffset }: PagerProps) {
  return (
    <nav aria-label="Pages" class="pager">
      <p>
        {total === 0
          ? `0 ${noun}`
          : `${Math.min(offset + 1, total)}–${Math.min(offset + shown, total)} of ${total}`}
        {children}
      </p>
      <button
        type="button"
        class="secondary"
        disabled={offset === 0}
        onClick={() => onOffset(Math.max(0, offset - pageSize))}
      >
        Previous page
      </button>
      <button
        type="button"
        class="secondary"
        disabled={offset + pageSize >= total}
        onClick={() => onOffset(offset + pageSize)}
      >
        Next page
      </button>
    </nav>
  );
}
