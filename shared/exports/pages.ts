/** The API's own pages of a list, walked to the end: what the export writes a file from. */
import type { Page, PageRequest } from '../store/pagination.js';

/** Items per page: the API's largest page. */
export const EXPORT_PAGE_SIZE = 100;

/** Every page of a list, in its order; none when `read` answers undefined (the list's owner is gone). */
export async function* allPages<T>(read: (request: PageRequest) => Promise<Page<T> | undefined>): AsyncGenerator<T[]> {
  let cursor: string | undefined;
  do {
    const page = await read({ limit: EXPORT_PAGE_SIZE, cursor });
    if (!page) return;
    yield page.items;
    cursor = page.next_cursor ?? undefined;
  } while (cursor);
}

/** Each page made into what the archive holds, a page at a time. */
export async function* mapPages<T, R>(
  pages: AsyncIterable<T[]>,
  present: (items: T[]) => R[] | Promise<R[]>,
): AsyncGenerator<R[]> {
  for await (const items of pages) yield await present(items);
}

/** The pages of one list, then the pages of the next. */
export async function* concatPages<T>(...lists: AsyncIterable<T[]>[]): AsyncGenerator<T[]> {
  for (const list of lists) yield* list;
}
