/**
 * The embedded search index, the local default: Node 24's built-in `node:sqlite` with FTS5 (nothing
 * to install), in one file under DATA_DIR or in memory. Words are matched by FTS5's unicode61
 * tokenizer with diacritics removed (case and accents ignored on both sides); a post's hashtags and
 * mentions are FTS5 columns of their own, the other filters plain columns beside it. Text is kept only in the FTS
 * indexes (contentless): the table is where records live, the index answers ids. A post's rowid is
 * its place in publication order (sqlite-post-query.ts), which is what makes a page cheap.
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
import { listToken, postSearchSql, publishedOrder, quoted } from './sqlite-post-query.js';

const TOKENIZE = "tokenize='unicode61 remove_diacritics 2'";

/**
 * The layout's version (`PRAGMA user_version`): a file of another version is emptied and laid out
 * again, and the local runtime fills it from the table (search-runtime.ts).
 */
const SCHEMA_VERSION = 3;

/** Every table any layout had: all are dropped before a file is laid out again. */
const TABLES = [
  'posts',
  'post_tags',
  'post_mentions',
  'posts_fts',
  'profiles',
  'profile_followers',
  'profiles_fts',
] as const;

const SCHEMA = `
CREATE TABLE posts (
  rowid INTEGER PRIMARY KEY, id TEXT NOT NULL UNIQUE, profile_id TEXT NOT NULL, username TEXT NOT NULL,
  kind TEXT NOT NULL, has_media INTEGER NOT NULL, published_at TEXT NOT NULL, likes INTEGER NOT NULL);
CREATE INDEX posts_author ON posts (profile_id);
CREATE INDEX posts_username ON posts (username);
CREATE VIRTUAL TABLE posts_fts USING fts5(body, tags, mentions, content='', contentless_delete=1, ${TOKENIZE});
CREATE TABLE profiles (
  rowid INTEGER PRIMARY KEY, id TEXT NOT NULL UNIQUE, username TEXT NOT NULL, type TEXT NOT NULL,
  occupation TEXT, country_code TEXT);
CREATE TABLE profile_followers (id TEXT PRIMARY KEY, followers INTEGER NOT NULL) WITHOUT ROWID;
CREATE VIRTUAL TABLE profiles_fts USING fts5(username, name, call_name, content='', contentless_delete=1, ${TOKENIZE});
PRAGMA user_version = ${SCHEMA_VERSION};
`;

export class SqliteSearchIndex implements SearchIndex {
  private readonly db: DatabaseSync;
  private readonly statements = new Map<string, StatementSync>();
  /** Whether the index was laid out when opened (a new file, memory, or a file of another version): it is empty. */
  readonly created: boolean;

  /** `path` ':memory:' keeps nothing (the local runtime's `--in-memory`). */
  constructor(readonly path: string) {
    if (path !== ':memory:') mkdirSync(dirname(path), { recursive: true });
    this.db = new DatabaseSync(path);
    this.db.exec('PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL;');
    const { user_version: version } = this.db.prepare('PRAGMA user_version').get() as { user_version: number };
    this.created = version !== SCHEMA_VERSION;
    if (this.created) {
      this.db.exec('BEGIN');
      this.db.exec(TABLES.map((table) => `DROP TABLE IF EXISTS ${table};`).join('\n') + SCHEMA);
      this.db.exec('COMMIT');
    }
  }

  /** A prepared statement of this SQL text, prepared once. */
  private sql(text: string): StatementSync {
    let statement = this.statements.get(text);
    if (!statement) {
      statement = this.db.prepare(text);
      // Post rowids are 63-bit (publication milliseconds and a tie-break), beyond a JS number's exact range.
      statement.setReadBigInts(true);
      this.statements.set(text, statement);
    }
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

  private postRow(id: string): bigint | undefined {
    const row = this.sql('SELECT rowid FROM posts WHERE id = ?').get(id) as { rowid: bigint } | undefined;
    return row?.rowid;
  }

  private forgetPost(row: bigint): void {
    this.sql('DELETE FROM posts_fts WHERE rowid = ?').run(row);
    this.sql('DELETE FROM posts WHERE rowid = ?').run(row);
  }

  private putPost(post: PostDocument): void {
    const existing = this.postRow(post.id);
    if (existing !== undefined) this.forgetPost(existing);
    let rowid = publishedOrder(post.published_at, post.id);
    // Two posts of one millisecond whose ids hash alike (one in a million): the later one goes next to it.
    while (this.sql('SELECT 1 FROM posts WHERE rowid = ?').get(rowid)) rowid += 1n;
    this.sql(
      `INSERT INTO posts (rowid, id, profile_id, username, kind, has_media, published_at, likes)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
    ).run(
      rowid,
      post.id,
      post.profile_id,
      post.username,
      post.kind,
      post.has_media ? 1 : 0,
      post.published_at,
      post.likes_count,
    );
    this.sql('INSERT INTO posts_fts (rowid, body, tags, mentions) VALUES (?, ?, ?, ?)').run(
      rowid,
      post.body,
      post.hashtags.map(listToken).join(' '),
      post.mentions.map(listToken).join(' '),
    );
  }

  private deletePost(id: string): void {
    const row = this.postRow(id);
    if (row !== undefined) this.forgetPost(row);
  }

  private putProfile(profile: ProfileDocument): void {
    const existing = this.sql('SELECT rowid FROM profiles WHERE id = ?').get(profile.id) as
      { rowid: bigint } | undefined;
    if (existing) this.sql('DELETE FROM profiles_fts WHERE rowid = ?').run(existing.rowid);
    const { rowid } = this.sql(
      `INSERT INTO profiles (id, username, type, occupation, country_code) VALUES (?, ?, ?, ?, ?)
       ON CONFLICT (id) DO UPDATE SET username = excluded.username, type = excluded.type,
         occupation = excluded.occupation, country_code = excluded.country_code
       RETURNING rowid`,
    ).get(profile.id, profile.username, profile.type, profile.occupation, profile.country_code) as { rowid: bigint };
    this.sql('INSERT INTO profiles_fts (rowid, username, name, call_name) VALUES (?, ?, ?, ?)').run(
      rowid,
      profile.username,
      profile.name,
      profile.call_name,
    );
  }

  /** The profile and its follower count go together, as the OpenSearch document holding both does. */
  private deleteProfile(id: string): void {
    this.sql('DELETE FROM profile_followers WHERE id = ?').run(id);
    const existing = this.sql('SELECT rowid FROM profiles WHERE id = ?').get(id) as { rowid: bigint } | undefined;
    if (!existing) return;
    this.sql('DELETE FROM profiles_fts WHERE rowid = ?').run(existing.rowid);
    this.sql('DELETE FROM profiles WHERE rowid = ?').run(existing.rowid);
  }

  searchPosts(search: PostSearch): Promise<PostHit[]> {
    const position = search.position;
    // The post a page follows, by its own rowid (a removed one by where it was).
    const after =
      position && 'after' in position
        ? (this.postRow(position.after.id) ?? publishedOrder(position.after.published_at, position.after.id))
        : undefined;
    const { text, args } = postSearchSql(search, after);
    const rows = this.sql(text).all(...args) as unknown as PostHit[];
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
    this.db.exec(`DELETE FROM posts; DELETE FROM posts_fts;
      DELETE FROM profiles; DELETE FROM profile_followers; DELETE FROM profiles_fts;`);
    return Promise.resolve();
  }

  /** Moves the write-ahead log into the file (its size on disk is then the index's). */
  checkpoint(): void {
    this.db.exec('PRAGMA wal_checkpoint(TRUNCATE)');
  }

  /** Rows this connection has inserted, updated or deleted, FTS index rows included (SQLite's total_changes()). */
  rowsChanged(): number {
    return Number((this.sql('SELECT total_changes() AS n').get() as { n: bigint }).n);
  }

  close(): void {
    this.db.close();
  }
}
