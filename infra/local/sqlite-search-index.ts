/**
 * The embedded search index, the local default: Node 24's built-in `node:sqlite` with FTS5 (nothing
 * to install), in one file under DATA_DIR or in memory. Words are matched by FTS5's unicode61
 * tokenizer with diacritics removed (case and accents ignored on both sides); filters and order are
 * plain columns beside it, hashtags and mentions tables of their own. Text is kept only in the FTS
 * indexes (contentless): the table is where records live, the index answers ids.
 */
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { DatabaseSync, type SQLInputValue, type StatementSync } from 'node:sqlite';
import type {
  IndexChange,
  PostDocument,
  PostHit,
  PostSearch,
  ProfileDocument,
  ProfileSearch,
  SearchIndex,
} from '../../shared/ports/search-index.js';

const TOKENIZE = "tokenize='unicode61 remove_diacritics 2'";

const SCHEMA = `
PRAGMA journal_mode = WAL;
PRAGMA synchronous = NORMAL;
CREATE TABLE IF NOT EXISTS posts (
  rowid INTEGER PRIMARY KEY, id TEXT NOT NULL UNIQUE, profile_id TEXT NOT NULL, username TEXT NOT NULL,
  kind TEXT NOT NULL, has_media INTEGER NOT NULL, published_at TEXT NOT NULL, likes INTEGER NOT NULL);
CREATE INDEX IF NOT EXISTS posts_latest ON posts (published_at, id);
CREATE INDEX IF NOT EXISTS posts_author ON posts (profile_id, published_at);
CREATE INDEX IF NOT EXISTS posts_username ON posts (username, published_at);
CREATE TABLE IF NOT EXISTS post_tags (tag TEXT NOT NULL, post INTEGER NOT NULL, PRIMARY KEY (tag, post)) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS post_mentions (username TEXT NOT NULL, post INTEGER NOT NULL, PRIMARY KEY (username, post)) WITHOUT ROWID;
CREATE VIRTUAL TABLE IF NOT EXISTS posts_fts USING fts5(body, content='', contentless_delete=1, ${TOKENIZE});
CREATE TABLE IF NOT EXISTS profiles (
  rowid INTEGER PRIMARY KEY, id TEXT NOT NULL UNIQUE, username TEXT NOT NULL, type TEXT NOT NULL,
  occupation TEXT, country_code TEXT);
CREATE TABLE IF NOT EXISTS profile_followers (id TEXT PRIMARY KEY, followers INTEGER NOT NULL) WITHOUT ROWID;
CREATE VIRTUAL TABLE IF NOT EXISTS profiles_fts USING fts5(username, name, call_name, content='', contentless_delete=1, ${TOKENIZE});
`;

/** An FTS5 string: the tokenizer splits it as it split the documents. */
const quoted = (text: string) => `"${text.replaceAll('"', '""')}"`;

/** Placeholders for a list. */
const list = (values: readonly unknown[]) => values.map(() => '?').join(', ');

export class SqliteSearchIndex implements SearchIndex {
  private readonly db: DatabaseSync;
  private readonly statements = new Map<string, StatementSync>();

  /** `path` ':memory:' keeps nothing (the local runtime's `--in-memory`). */
  constructor(readonly path: string) {
    if (path !== ':memory:') mkdirSync(dirname(path), { recursive: true });
    this.db = new DatabaseSync(path);
    this.db.exec(SCHEMA);
  }

  /** A prepared statement of this SQL text, prepared once. */
  private sql(text: string): StatementSync {
    let statement = this.statements.get(text);
    if (!statement) this.statements.set(text, (statement = this.db.prepare(text)));
    return statement;
  }

  write(changes: readonly IndexChange[]): Promise<void> {
    this.db.exec('BEGIN');
    try {
      for (const change of changes) this.apply(change);
      this.db.exec('COMMIT');
    } catch (error) {
      this.db.exec('ROLLBACK');
      throw error;
    }
    return Promise.resolve();
  }

  private apply(change: IndexChange): void {
    switch (change.kind) {
      case 'put_post':
        return this.putPost(change.post);
      case 'delete_post':
        return this.deletePost(change.id);
      case 'put_profile':
        return this.putProfile(change.profile);
      case 'delete_profile':
        return this.deleteProfile(change.id);
      case 'followers':
        this.sql(
          'INSERT INTO profile_followers (id, followers) VALUES (?, ?) ON CONFLICT (id) DO UPDATE SET followers = excluded.followers',
        ).run(change.profile_id, change.followers_count);
    }
  }

  private postRow(id: string): number | undefined {
    const row = this.sql('SELECT rowid FROM posts WHERE id = ?').get(id) as { rowid: number } | undefined;
    return row?.rowid;
  }

  private forgetPostText(row: number): void {
    this.sql('DELETE FROM posts_fts WHERE rowid = ?').run(row);
    this.sql('DELETE FROM post_tags WHERE post = ?').run(row);
    this.sql('DELETE FROM post_mentions WHERE post = ?').run(row);
  }

  private putPost(post: PostDocument): void {
    const existing = this.postRow(post.id);
    if (existing !== undefined) this.forgetPostText(existing);
    const { rowid } = this.sql(
      `INSERT INTO posts (id, profile_id, username, kind, has_media, published_at, likes) VALUES (?, ?, ?, ?, ?, ?, ?)
       ON CONFLICT (id) DO UPDATE SET profile_id = excluded.profile_id, username = excluded.username, kind = excluded.kind,
         has_media = excluded.has_media, published_at = excluded.published_at, likes = excluded.likes
       RETURNING rowid`,
    ).get(
      post.id,
      post.profile_id,
      post.username,
      post.kind,
      post.has_media ? 1 : 0,
      post.published_at,
      post.likes_count,
    ) as { rowid: number };
    this.sql('INSERT INTO posts_fts (rowid, body) VALUES (?, ?)').run(rowid, post.body);
    for (const tag of post.hashtags)
      this.sql('INSERT OR IGNORE INTO post_tags (tag, post) VALUES (?, ?)').run(tag, rowid);
    for (const username of post.mentions)
      this.sql('INSERT OR IGNORE INTO post_mentions (username, post) VALUES (?, ?)').run(username, rowid);
  }

  private deletePost(id: string): void {
    const row = this.postRow(id);
    if (row === undefined) return;
    this.forgetPostText(row);
    this.sql('DELETE FROM posts WHERE rowid = ?').run(row);
  }

  private putProfile(profile: ProfileDocument): void {
    const existing = this.sql('SELECT rowid FROM profiles WHERE id = ?').get(profile.id) as
      { rowid: number } | undefined;
    if (existing) this.sql('DELETE FROM profiles_fts WHERE rowid = ?').run(existing.rowid);
    const { rowid } = this.sql(
      `INSERT INTO profiles (id, username, type, occupation, country_code) VALUES (?, ?, ?, ?, ?)
       ON CONFLICT (id) DO UPDATE SET username = excluded.username, type = excluded.type,
         occupation = excluded.occupation, country_code = excluded.country_code
       RETURNING rowid`,
    ).get(profile.id, profile.username, profile.type, profile.occupation, profile.country_code) as { rowid: number };
    this.sql('INSERT INTO profiles_fts (rowid, username, name, call_name) VALUES (?, ?, ?, ?)').run(
      rowid,
      profile.username,
      profile.name,
      profile.call_name,
    );
  }

  private deleteProfile(id: string): void {
    const existing = this.sql('SELECT rowid FROM profiles WHERE id = ?').get(id) as { rowid: number } | undefined;
    if (!existing) return;
    this.sql('DELETE FROM profiles_fts WHERE rowid = ?').run(existing.rowid);
    this.sql('DELETE FROM profiles WHERE rowid = ?').run(existing.rowid);
  }

  searchPosts(search: PostSearch): Promise<PostHit[]> {
    const { terms } = search;
    const positive = [...terms.words, ...terms.phrases].map(quoted).join(' ');
    const where: string[] = [];
    const args: SQLInputValue[] = [];
    const from = positive ? 'posts_fts JOIN posts p ON p.rowid = posts_fts.rowid' : 'posts p';
    if (positive) {
      where.push('posts_fts MATCH ?');
      args.push(positive);
    }
    if (terms.excluded.length > 0) {
      where.push('p.rowid NOT IN (SELECT rowid FROM posts_fts WHERE posts_fts MATCH ?)');
      args.push(terms.excluded.map(quoted).join(' OR '));
    }
    for (const tag of terms.hashtags) {
      where.push('p.rowid IN (SELECT post FROM post_tags WHERE tag = ?)');
      args.push(tag);
    }
    if (terms.from.length > 0) {
      where.push(`p.username IN (${list(terms.from)})`);
      args.push(...terms.from);
    }
    if (search.author_profile_id) {
      where.push('p.profile_id = ?');
      args.push(search.author_profile_id);
    }
    if (search.mentions) {
      where.push('p.rowid IN (SELECT post FROM post_mentions WHERE username = ?)');
      args.push(search.mentions);
    }
    if (search.since) {
      where.push('p.published_at >= ?');
      args.push(search.since);
    }
    if (search.until) {
      where.push('p.published_at < ?');
      args.push(search.until);
    }
    if (search.has_media !== undefined) {
      where.push('p.has_media = ?');
      args.push(search.has_media ? 1 : 0);
    }
    if (search.kind) {
      where.push('p.kind = ?');
      args.push(search.kind);
    }
    const position = search.position;
    if (position && 'after' in position) {
      where.push('(p.published_at < ? OR (p.published_at = ? AND p.id < ?))');
      args.push(position.after.published_at, position.after.published_at, position.after.id);
    }
    // bm25 is lower for better matches; without words every post is as relevant as another.
    const order =
      search.sort === 'top'
        ? `${positive ? 'bm25(posts_fts), ' : ''}p.likes DESC, p.published_at DESC, p.id DESC`
        : 'p.published_at DESC, p.id DESC';
    const offset = position && 'offset' in position ? position.offset : 0;
    const text = `SELECT p.id AS id, p.published_at AS published_at FROM ${from}
      ${where.length ? `WHERE ${where.join(' AND ')}` : ''} ORDER BY ${order} LIMIT ? OFFSET ?`;
    const rows = this.sql(text).all(...args, search.limit + 1, offset) as unknown as PostHit[];
    return Promise.resolve(rows.map((row) => ({ id: row.id, published_at: row.published_at })));
  }

  searchProfiles(search: ProfileSearch): Promise<string[]> {
    const where = ['profiles_fts MATCH ?'];
    const args: SQLInputValue[] = [search.prefixes.map((prefix) => `${quoted(prefix)}*`).join(' ')];
    if (search.type) {
      where.push('p.type = ?');
      args.push(search.type);
    }
    if (search.occupation) {
      where.push('p.occupation = ?');
      args.push(search.occupation);
    }
    if (search.country_code) {
      where.push('p.country_code = ?');
      args.push(search.country_code.toUpperCase());
    }
    const rows = this.sql(
      `SELECT p.id AS id FROM profiles_fts JOIN profiles p ON p.rowid = profiles_fts.rowid
       LEFT JOIN profile_followers f ON f.id = p.id
       WHERE ${where.join(' AND ')}
       ORDER BY p.username = ? DESC, COALESCE(f.followers, 0) DESC, p.username ASC LIMIT ? OFFSET ?`,
    ).all(...args, search.exact_username, search.limit + 1, search.offset) as { id: string }[];
    return Promise.resolve(rows.map((row) => row.id));
  }

  clear(): Promise<void> {
    this.db.exec(`DELETE FROM posts; DELETE FROM post_tags; DELETE FROM post_mentions; DELETE FROM posts_fts;
      DELETE FROM profiles; DELETE FROM profile_followers; DELETE FROM profiles_fts;`);
    return Promise.resolve();
  }

  /** Moves the write-ahead log into the file (its size on disk is then the index's). */
  checkpoint(): void {
    this.db.exec('PRAGMA wal_checkpoint(TRUNCATE)');
  }

  /** Rows this connection has inserted, updated or deleted, FTS index rows included (SQLite's total_changes()). */
  rowsChanged(): number {
    return (this.sql('SELECT total_changes() AS n').get() as { n: number }).n;
  }

  close(): void {
    this.db.close();
  }
}
