/**
 * The SQL of one post search on the embedded index (sqlite-search-index.ts). A post's rowid is its
 * place in publication order (`publishedOrder`), so every query reads its driving list (the FTS5
 * matches of its words, tags and mention, or an author's posts) newest first by rowid and stops at
 * the page: `latest` never sorts, and `since`, `until` and a cursor are rowid ranges it seeks to.
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

/** An FTS5 string: the tokenizer splits it as it split the documents. */
export const quoted = (text: string) => `"${text.replaceAll('"', '""')}"`;

const placeholders = (values: readonly unknown[]) => values.map(() => '?').join(', ');

/**
 * A hashtag or a username as one FTS5 token of the `tags` or `mentions` column: its UTF-8 bytes in
 * hex (the tokenizer would split `_` and fold accents, and a tag is matched exactly).
 */
export const listToken = (value: string) => `x${Buffer.from(value, 'utf8').toString('hex')}`;

/** The FTS5 expression of everything a post must carry (words, phrases, tags, a mention), and what it must not. */
function matchExpression(search: PostSearch): string | undefined {
  const { terms } = search;
  const text = [...terms.words, ...terms.phrases].map(quoted).join(' ');
  const parts = [
    ...(text ? [`body : (${text})`] : []),
    ...terms.hashtags.map((tag) => `tags : ${quoted(listToken(tag))}`),
    ...(search.mentions !== undefined ? [`mentions : ${quoted(listToken(search.mentions))}`] : []),
  ];
  if (parts.length === 0) return undefined;
  const positive = parts.map((part) => `(${part})`).join(' AND ');
  const excluded = terms.excluded.map(quoted).join(' OR ');
  return excluded ? `(${positive}) NOT (body : (${excluded}))` : positive;
}

/**
 * The statement for a search; `after` is the rowid of the post a `latest` page follows. It answers
 * `id` and `published_at`, at most `limit` + 1 rows. Whatever the FTS5 expression can say is said
 * there (FTS5 intersects its lists itself, newest first); the rest are filters on the post's row.
 */
export function postSearchSql(search: PostSearch, after: bigint | undefined): { text: string; args: SQLInputValue[] } {
  const { terms } = search;
  const match = matchExpression(search);
  const key = match !== undefined ? 'posts_fts.rowid' : 'p.rowid';
  const where: string[] = [];
  const args: SQLInputValue[] = [];
  const filter = (condition: string, ...values: SQLInputValue[]) => {
    where.push(condition);
    args.push(...values);
  };
  if (match !== undefined) filter('posts_fts MATCH ?', match);
  else if (terms.excluded.length > 0)
    filter(
      'p.rowid NOT IN (SELECT rowid FROM posts_fts WHERE posts_fts MATCH ?)',
      `body : (${terms.excluded.map(quoted).join(' OR ')})`,
    );
  if (terms.from.length > 0) filter(`p.username IN (${placeholders(terms.from)})`, ...terms.from);
  if (search.author_profile_id) filter('p.profile_id = ?', search.author_profile_id);
  if (search.since) filter(`${key} >= ?`, momentOrder(search.since));
  if (search.until) filter(`${key} < ?`, momentOrder(search.until));
  if (search.has_media !== undefined) filter('p.has_media = ?', search.has_media ? 1 : 0);
  if (search.kind) filter('p.kind = ?', search.kind);
  if (after !== undefined) filter(`${key} < ?`, after);

  const from = match !== undefined ? 'posts_fts JOIN posts p ON p.rowid = posts_fts.rowid' : 'posts p';
  const matching = `FROM ${from} ${where.length > 0 ? `WHERE ${where.join(' AND ')}` : ''}`;
  const position = search.position;
  const page: SQLInputValue[] = [search.limit + 1, position && 'offset' in position ? position.offset : 0];
  if (search.sort === 'latest')
    return {
      text: `SELECT p.id, p.published_at ${matching} ORDER BY ${key} DESC LIMIT ? OFFSET ?`,
      args: [...args, ...page],
    };
  // Without words every post is as relevant as another: likes decide, then the newest.
  if (terms.words.length + terms.phrases.length === 0)
    return {
      text: `SELECT p.id, p.published_at ${matching} ORDER BY p.likes DESC, ${key} DESC LIMIT ? OFFSET ?`,
      args: [...args, ...page],
    };
  // bm25 is lower for better matches; only the body's words count (the tags and mentions columns weigh 0).
  return {
    text: `SELECT id, published_at FROM (
        SELECT p.id AS id, p.published_at AS published_at, p.likes AS likes, ${key} AS rank_order,
          bm25(posts_fts, 1.0, 0.0, 0.0) AS score ${matching} ORDER BY ${key} DESC LIMIT ${TOP_CANDIDATES})
      ORDER BY score, likes DESC, rank_order DESC LIMIT ? OFFSET ?`,
    args: [...args, ...page],
  };
}
