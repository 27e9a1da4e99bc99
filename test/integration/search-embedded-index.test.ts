/**
 * The embedded search index (node:sqlite FTS5) on its own: documents in, ids out, for each query
 * kind the routes ask, including a file under a data directory that keeps its documents.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { afterAll, describe, expect, it } from 'vitest';
import { SqliteSearchIndex } from '../../infra/local/sqlite-search-index.js';
import { parsePostQuery } from '../../shared/domain/search-query.js';
import type { PostDocument, PostSearch, ProfileDocument } from '../../shared/ports/search-index.js';

const at = (minute: number) => `2026-11-25T10:${String(minute).padStart(2, '0')}:00.000Z`;
const doc = (id: string, body: string, extra: Partial<PostDocument> = {}): PostDocument => ({
  id,
  profile_id: 'a1',
  username: 'ada',
  kind: 'post',
  body,
  hashtags: [],
  mentions: [],
  has_media: false,
  published_at: at(Number(id.slice(1))),
  likes_count: 0,
  ...extra,
});
const person = (id: string, username: string, name: string, extra: Partial<ProfileDocument> = {}): ProfileDocument => ({
  id,
  username,
  name,
  call_name: name.split(' ')[0]!,
  type: 'human',
  occupation: null,
  country_code: null,
  ...extra,
});

const search = (q: string, extra: Partial<PostSearch> = {}): PostSearch => ({
  terms: parsePostQuery(q),
  sort: 'latest',
  limit: 10,
  ...extra,
});

const dirs: string[] = [];
afterAll(() => dirs.forEach((dir) => rmSync(dir, { recursive: true, force: true })));

describe('the embedded search index', () => {
  it('matches words case- and accent-insensitively, phrases in order, and leaves exclusions out', async () => {
    const index = new SqliteSearchIndex(':memory:');
    await index.write([
      { kind: 'put_post', post: doc('p1', 'Crème brûlée recipes for the SOLAR panel crowd') },
      { kind: 'put_post', post: doc('p2', 'panel about solar, recipes later') },
      { kind: 'put_post', post: doc('p3', 'creme brulee without panels') },
    ]);
    const ids = async (q: string) => (await index.searchPosts(search(q))).map((hit) => hit.id);
    expect(await ids('creme BRULEE')).toEqual(['p3', 'p1']);
    expect(await ids('"solar panel"')).toEqual(['p1']);
    expect(await ids('recipes -brulee')).toEqual(['p2']);
    expect(await ids('-recipes')).toEqual(['p3']);
  });

  it('filters by tag, author username, mentions, kind, media and time; pages newest first after a post', async () => {
    const index = new SqliteSearchIndex(':memory:');
    await index.write([
      { kind: 'put_post', post: doc('p1', 'a', { hashtags: ['go'], mentions: ['bob'] }) },
      { kind: 'put_post', post: doc('p2', 'a', { username: 'cyd', profile_id: 'c1', kind: 'reply' }) },
      { kind: 'put_post', post: doc('p3', 'a', { has_media: true, hashtags: ['go'] }) },
    ]);
    const ids = async (extra: Partial<PostSearch>, q = '') =>
      (await index.searchPosts(search(q, extra))).map((h) => h.id);
    expect(await ids({}, '#Go')).toEqual(['p3', 'p1']);
    expect(await ids({}, 'from:cyd')).toEqual(['p2']);
    expect(await ids({ author_profile_id: 'a1' })).toEqual(['p3', 'p1']);
    expect(await ids({ mentions: 'bob' })).toEqual(['p1']);
    expect(await ids({ kind: 'reply' })).toEqual(['p2']);
    expect(await ids({ has_media: false })).toEqual(['p2', 'p1']);
    expect(await ids({ since: at(2), until: at(3) })).toEqual(['p2']);
    expect(await ids({ position: { after: { published_at: at(3), id: 'p3' } } })).toEqual(['p2', 'p1']);
    expect(await ids({ limit: 1 })).toEqual(['p3', 'p2']); // limit + 1: there is a next page
  });

  it('ranks top by relevance, then likes; an edit replaces the text and a delete takes the post out', async () => {
    const index = new SqliteSearchIndex(':memory:');
    await index.write([
      { kind: 'put_post', post: doc('p1', 'rust', { likes_count: 1 }) },
      { kind: 'put_post', post: doc('p2', 'rust', { likes_count: 5 }) },
      { kind: 'put_post', post: doc('p3', 'rust and many other words that dilute the match of rust here') },
    ]);
    const top = async (q: string) => (await index.searchPosts(search(q, { sort: 'top' }))).map((h) => h.id);
    expect((await top('rust')).slice(0, 2)).toEqual(['p2', 'p1']);
    await index.write([{ kind: 'put_post', post: doc('p2', 'golang', { likes_count: 5 }) }]);
    expect(await top('rust')).not.toContain('p2');
    expect(await top('golang')).toEqual(['p2']);
    await index.write([
      { kind: 'delete_post', id: 'p2' },
      { kind: 'delete_post', id: 'never-indexed' },
    ]);
    expect(await top('golang')).toEqual([]);
  });

  it('finds profiles by word prefixes, the exact username first, then by followers; filters; deletes', async () => {
    const index = new SqliteSearchIndex(':memory:');
    await index.write([
      { kind: 'followers', profile_id: 'x2', followers_count: 50 },
      { kind: 'put_profile', profile: person('x1', 'jo', 'Jo Doe', { country_code: 'FR' }) },
      { kind: 'put_profile', profile: person('x2', 'jordan_lee', 'Jördan Lee', { type: 'company' }) },
      { kind: 'put_profile', profile: person('x3', 'joseph', 'Joseph Ray', { occupation: 'Engineer' }) },
    ]);
    const find = (prefixes: string[], extra: Record<string, unknown> = {}) =>
      index.searchProfiles({ prefixes, exact_username: prefixes.join(' '), limit: 10, offset: 0, ...extra });
    expect(await find(['jo'])).toEqual(['x1', 'x2', 'x3']);
    expect(await find(['jord', 'le'])).toEqual(['x2']);
    expect(await find(['lee'])).toEqual(['x2']);
    expect(await find(['jo'], { type: 'company' })).toEqual(['x2']);
    expect(await find(['jo'], { occupation: 'Engineer' })).toEqual(['x3']);
    expect(await find(['jo'], { country_code: 'FR' })).toEqual(['x1']);
    expect(await find(['jo'], { offset: 1, limit: 1 })).toEqual(['x2', 'x3']);
    await index.write([{ kind: 'delete_profile', id: 'x1' }]);
    expect(await find(['jo'])).toEqual(['x2', 'x3']);
  });

  it('keeps its documents in its file under the data directory', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'search-'));
    dirs.push(dir);
    const path = join(dir, 'nested', 'search.sqlite');
    const first = new SqliteSearchIndex(path);
    await first.write([{ kind: 'put_post', post: doc('p1', 'persisted words') }]);
    first.close();
    const again = new SqliteSearchIndex(path);
    expect((await again.searchPosts(search('persisted'))).map((h) => h.id)).toEqual(['p1']);
    await again.clear();
    expect(await again.searchPosts(search('persisted'))).toEqual([]);
    again.close();
  });
});

describe("the embedded index's publication order and layout", () => {
  const page = async (index: SqliteSearchIndex, q: string, extra: Partial<PostSearch> = {}) =>
    (await index.searchPosts(search(q, extra))).map((hit) => hit.id);

  it('answers newest first whatever order posts were written in, and pages through posts of one millisecond once each', async () => {
    const index = new SqliteSearchIndex(':memory:');
    await index.write([
      { kind: 'put_post', post: doc('p9', 'late words') },
      { kind: 'put_post', post: doc('p1', 'early words') },
      { kind: 'put_post', post: doc('p5', 'middle words') },
    ]);
    expect(await page(index, 'words')).toEqual(['p9', 'p5', 'p1']);
    // An edit keeps the post's place.
    await index.write([{ kind: 'put_post', post: doc('p1', 'early words, edited') }]);
    expect(await page(index, 'words')).toEqual(['p9', 'p5', 'p1']);

    const same = Array.from({ length: 30 }, (_, i) => doc(`s${i}`, 'tied words', { published_at: at(20) }));
    await index.write(same.map((post) => ({ kind: 'put_post' as const, post })));
    const seen: string[] = [];
    let after: { published_at: string; id: string } | undefined;
    for (;;) {
      const hits = await index.searchPosts(search('tied', { limit: 7, position: after && { after } }));
      seen.push(...hits.slice(0, 7).map((hit) => hit.id));
      if (hits.length <= 7) break;
      after = hits[6]!;
    }
    expect(seen).toHaveLength(30);
    expect(new Set(seen)).toEqual(new Set(same.map((post) => post.id)));
  });

  it('finds posts by words with a rare or a common tag or mention, newest first', async () => {
    const index = new SqliteSearchIndex(':memory:');
    const common = Array.from({ length: 130 }, (_, i) =>
      doc(`c${i}`, 'alpha words', {
        published_at: new Date(Date.UTC(2026, 0, 1, 0, i)).toISOString(),
        hashtags: ['common'],
        mentions: ['many'],
      }),
    );
    await index.write([
      ...common.map((post) => ({ kind: 'put_post' as const, post })),
      { kind: 'put_post', post: doc('r1', 'alpha too', { hashtags: ['rare', 'common'], mentions: ['few'] }) },
      { kind: 'put_post', post: doc('r2', 'beta only', { hashtags: ['rare'], mentions: ['few'] }) },
    ]);
    expect(await page(index, 'alpha #rare')).toEqual(['r1']);
    expect(await page(index, 'alpha', { mentions: 'few' })).toEqual(['r1']);
    expect(await page(index, 'alpha #common', { limit: 3 })).toEqual(['r1', 'c129', 'c128', 'c127']);
    expect(await page(index, 'alpha', { mentions: 'many', limit: 2 })).toEqual(['c129', 'c128', 'c127']);
    expect(await page(index, 'alpha #common #rare')).toEqual(['r1']);
    expect(await page(index, 'alpha -too #common', { limit: 1, sort: 'top' })).toHaveLength(2);
  });

  it('matches a tag or a mention exactly: not its parts, not another accent', async () => {
    const index = new SqliteSearchIndex(':memory:');
    await index.write([
      { kind: 'put_post', post: doc('p1', 'one', { hashtags: ['machine_learning'], mentions: ['ada_l'] }) },
      { kind: 'put_post', post: doc('p2', 'two', { hashtags: ['machine', 'learning'], mentions: ['ada', 'l'] }) },
      { kind: 'put_post', post: doc('p3', 'three', { hashtags: ['café'] }) },
      { kind: 'put_post', post: doc('p4', 'four machine_learning', { hashtags: ['cafe'] }) },
    ]);
    expect(await page(index, '#machine_learning')).toEqual(['p1']);
    expect(await page(index, '#machine')).toEqual(['p2']);
    expect(await page(index, '', { mentions: 'ada_l' })).toEqual(['p1']);
    expect(await page(index, '', { mentions: 'ada' })).toEqual(['p2']);
    expect(await page(index, '#café')).toEqual(['p3']);
    expect(await page(index, '#cafe')).toEqual(['p4']);
    // A word is the body's, never a tag's.
    expect(await page(index, 'machine')).toEqual(['p4']);
  });

  it('lays a file of an older layout out again, empty, and keeps a file of its own layout', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'search-'));
    dirs.push(dir);
    const path = join(dir, 'search.sqlite');
    const older = new DatabaseSync(path);
    older.exec("CREATE TABLE posts (rowid INTEGER PRIMARY KEY, id TEXT); INSERT INTO posts (id) VALUES ('old');");
    older.close();
    const opened = new SqliteSearchIndex(path);
    expect(opened.created).toBe(true);
    await opened.write([{ kind: 'put_post', post: doc('p1', 'laid out again') }]);
    expect(await page(opened, 'again')).toEqual(['p1']);
    opened.close();
    const reopened = new SqliteSearchIndex(path);
    expect(reopened.created).toBe(false);
    expect(await page(reopened, 'again')).toEqual(['p1']);
    reopened.close();
  });
});
