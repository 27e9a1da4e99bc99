import { useState } from 'preact/hooks';

/** A list paged by cursor: the cursors of the pages read so far, the last one shown. */
export function usePages() {
  const [cursors, setCursors] = useState<(string | undefined)[]>([undefined]);
  return {
    cursor: cursors[cursors.length - 1],
    /** Whether the newest page is shown (the one worth refreshing). */
    first: cursors.length === 1,
    reset: () => setCursors([undefined]),
    newer: () => setCursors(cursors.slice(0, -1)),
    older: (next: string | undefined) => setCursors([...cursors, next]),
  };
}

export type Pages = ReturnType<typeof usePages>;

/** ← Newer and Older → under a paged list; `next` is the list's next cursor (none: the oldest page). */
export function Pager({ pages, next }: { pages: Pages; next: string | null | undefined }) {
  return (
    <div class="actions">
      <button type="button" disabled={pages.first} onClick={pages.newer}>
        ← Newer
      </button>
      <button type="button" disabled={!next} onClick={() => pages.older(next ?? undefined)}>
        Older →
      </button>
    </div>
  );
}
