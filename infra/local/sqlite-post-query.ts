/**
 * The SQL of one post search on the embedded index (sqlite-search-index.ts). A post's rowid is its
 * place in publication order (`publishedOrder`), so every query reads its driving list, the FTS5
 * matches or a tag's, a mention's or an author's posts, newest first by rowid and stops at the
 * page: `latest` never sorts, `since`, `until` and a cursor are rowid ranges the driver seeks to.
 */
import { createHash } from 'node:crypto';
import type { SQLInputValue } from 'node:sqlite';
import type { PostSearch } from '../../shared/ports/search-index.js';

/** Bits of a rowid below the publication millisecond: a hash of the post's id orders posts of one millisecond. */
const TIE_BITS = 20n;

/**
 * How many of the newest matches `top` ranks when the query has words: bm25 costs a few
 * microseconds a match, so a word in a third of 100,000 posts would take over 50 ms to rank in
 * full. Deeper than any page `top` serves (MAX_SEARCH_OFFSET, 1,000).
 */
export const TOP_CANDIDATES = 5_000;

/** A post's rowid: its publication time in milliseconds, then 20 bits of its id's hash. */
export function publishedOrder(publishedAt: string, id: string): bigint {
  const tie = createHash('sha256').update(id).digest().readUInt32BE(0) >>> (32 - Number(TIE_BITS));
  return (BigInt(Date.parse(publishedAt)) << TIE_BITS) | BigInt(tie);
}

/** The first rowid of a moment: `rowid >= ` it is published at or after it. */
const momentOrder = (at: string) => BigInt(Date.parse(at)) << TIE_BITS;

/**
 * With words, a tag's or a mention's list of at most this many posts is read first and each of its
 * posts looked up among the matches (a lookup costs about as much as reading a few hundred
 * matches); a longer list is checked for each match instead, newest first, until the page is full.
 * Either way a rare tag beside a common word costs milliseconds, not a pass over every match.
 */
export const SHORT_LIST = 100;

/** The lists a filter can read from: a tag's posts, or a username's mentions. */
export type PostList = 'post_tags' | 'post_mentions';
const LIST_COLUMN: Record<PostList, string> = { post_tags: 'tag', post_mentions: 'username' };

/** The statement counting a list up to one past SHORT_LIST. */
export const listSizeSql = (list: PostList) =>
  `SELECT count(*) AS n FROM (SELECT 1 FROM ${list} WHERE ${LIST_COLUMN[list]} = ? LIMIT ${SHORT_LIST + 1})`;

/** An FTS5 string: the tokenizer splits it as it split the documents. */
export const quoted = (text: string) => `"${text.replaceAll('"', '""')}"`;

const placeholders = (values: readonly unknown[]) => values.map(() => '?').join(', ');

/** Where the rows come from: the list that is read newest first, and its rowid column. */
interface Driver {
  from: string;
  key: string;
  where: string[];
  args: SQLInputValue[];
  /** Which filters the driver already applies. */
  covers: { tag?: string; mentions?: boolean };
}

function driverOf(search: PostSearch, text: string | undefined): Driver {
  const [tag] = search.terms.hashtags;
  if (text !== undefined)
    return {
      from: 'posts_fts JOIN posts p ON p.rowid = posts_fts.rowid',
      key: 'posts_fts.rowid',
      where: ['posts_fts MATCH ?'],
      args: [text],
      covers: {},
    };
  if (tag !== undefined)
    return {
      from: 'post_tags t JOIN posts p ON p.rowid = t.post',
      key: 't.post',
      where: ['t.tag = ?'],
      args: [tag],
      covers: { tag },
    };
  if (search.mentions !== undefined)
    return {
      from: 'post_mentions m JOIN posts p ON p.rowid = m.post',
      key: 'm.post',
      where: ['m.username = ?'],
      args: [search.mentions],
      covers: { mentions: true },
    };
  return { from: 'posts p', key: 'p.rowid', where: [], args: [], covers: {} };
}

/**
 * The statement for a search; `after` is the rowid of the post a `latest` page follows, `isShort`
 * tells whether a list has at most SHORT_LIST posts. It answers `id` and `published_at`, at most
 * `limit` + 1 rows.
 */
export function postSearchSql(
  search: PostSearch,
  after: bigint | undefined,
  isShort: (list: PostList, value: string) => boolean,
): { text: string; args: SQLInputValue[] } {
  const { terms } = search;
  const positive = [...terms.words, ...terms.phrases].map(quoted).join(' ');
  const excluded = terms.excluded.map(quoted).join(' OR ');
  const matchText = positive ? (excluded ? `(${positive}) NOT (${excluded})` : positive) : undefined;
  const driver = driverOf(search, matchText);
  const { key } = driver;
  const where = [...driver.where];
  const args = [...driver.args];
  const filter = (condition: string, ...values: SQLInputValue[]) => {
    where.push(condition);
    args.push(...values);
  };
  const onList = (list: PostList, value: string) =>
    matchText !== undefined && isShort(list, value)
      ? filter(`${key} IN (SELECT post FROM ${list} WHERE ${LIST_COLUMN[list]} = ?)`, value)
      : filter(`EXISTS (SELECT 1 FROM ${list} WHERE ${LIST_COLUMN[list]} = ? AND post = ${key})`, value);
  if (!positive && excluded) filter('p.rowid NOT IN (SELECT rowid FROM posts_fts WHERE posts_fts MATCH ?)', excluded);
  for (const tag of terms.hashtags) if (tag !== driver.covers.tag) onList('post_tags', tag);
  if (search.mentions !== undefined && !driver.covers.mentions) onList('post_mentions', search.mentions);
  if (terms.from.length > 0) filter(`p.username IN (${placeholders(terms.from)})`, ...terms.from);
  if (search.author_profile_id) filter('p.profile_id = ?', search.author_profile_id);
  if (search.since) filter(`${key} >= ?`, momentOrder(search.since));
  if (search.until) filter(`${key} < ?`, momentOrder(search.until));
  if (search.has_media !== undefined) filter('p.has_media = ?', search.has_media ? 1 : 0);
  if (search.kind) filter('p.kind = ?', search.kind);
  if (after !== undefined) filter(`${key} < ?`, after);

  const position = search.position;
  const offset = position && 'offset' in position ? position.offset : 0;
  const matching = `FROM ${driver.from} ${where.length > 0 ? `WHERE ${where.join(' AND ')}` : ''}`;
  const page: SQLInputValue[] = [search.limit + 1, offset];
  if (search.sort === 'latest')
    return {
      text: `SELECT p.id, p.published_at ${matching} ORDER BY ${key} DESC LIMIT ? OFFSET ?`,
      args: [...args, ...page],
    };
  // Without words every post is as relevant as another: likes decide, then the newest.
  if (!positive)
    return {
      text: `SELECT p.id, p.published_at ${matching} ORDER BY p.likes DESC, ${key} DESC LIMIT ? OFFSET ?`,
      args: [...args, ...page],
    };
  // bm25 is lower for better matches.
  return {
    text: `SELECT id, published_at FROM (
        SELECT p.id AS id, p.published_at AS published_at, p.likes AS likes, ${key} AS rank_order,
          bm25(posts_fts) AS score ${matching} ORDER BY ${key} DESC LIMIT ${TOP_CANDIDATES})
      ORDER BY score, likes DESC, rank_order DESC LIMIT ? OFFSET ?`,
    args: [...args, ...page],
  };
}
