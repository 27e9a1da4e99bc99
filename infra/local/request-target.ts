/** A request's path and query as API Gateway hands them to a function. */
export interface RequestTarget {
  path: string;
  /** The query string without its `?`. */
  rawQuery: string;
  /** The query's parameters, decoded; a repeated name's values joined by commas. */
  query: Record<string, string>;
}

/**
 * Paths whose text is already their normal form (letters, digits, `_~-.` within segments, no
 * segment starting with a dot, no percent-escapes): URL parsing would return them unchanged.
 */
const PLAIN_PATH = /^(?:\/[\w~-][\w.~-]*)+\/?$|^\/$/;

/**
 * The path and query of a request line's target, as `new URL(target, base)` gives them (dot
 * segments resolved, characters escaped). The API's own paths without a query are plain, and
 * are taken as they are: most requests need no URL object.
 */
export function requestTarget(target: string): RequestTarget {
  if (PLAIN_PATH.test(target)) return { path: target, rawQuery: '', query: {} };
  const url = new URL(target, 'http://localhost');
  const query: Record<string, string> = {};
  for (const [key, value] of url.searchParams) query[key] = query[key] === undefined ? value : `${query[key]},${value}`;
  return { path: url.pathname, rawQuery: url.search.slice(1), query };
}
