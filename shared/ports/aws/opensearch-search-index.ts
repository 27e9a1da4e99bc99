/**
 * The search index in AWS: an Amazon OpenSearch Service domain, reached with `fetch` and signed by
 * SigV4 (the Lambda role's credentials, signed-fetch.ts). Two indexes (posts, profiles) created with their
 * mappings on first use; the stream consumer writes `_bulk` requests; queries are the query DSL.
 * Both indexes split words as the embedded index does (letters and digits, `_` and punctuation
 * separate words) and fold case and accents, so one query grammar answers alike on both.
 */
import { config } from '../../config.js';
import { signedFetch, type Credentials } from './signed-fetch.js';
import type { IndexChange, PostHit, PostSearch, ProfileSearch, SearchIndex } from '../search-index.js';

/** The analyzer of every text field: words of letters and digits, lower case, accents folded. */
const SETTINGS = {
  analysis: {
    tokenizer: { words: { type: 'pattern', pattern: '[^\\p{L}\\p{M}\\p{N}]+' } },
    analyzer: { folded: { type: 'custom', tokenizer: 'words', filter: ['lowercase', 'asciifolding'] } },
  },
};

export const POST_MAPPINGS = {
  dynamic: 'strict',
  properties: {
    id: { type: 'keyword' },
    profile_id: { type: 'keyword' },
    username: { type: 'keyword' },
    kind: { type: 'keyword' },
    body: { type: 'text', analyzer: 'folded' },
    hashtags: { type: 'keyword' },
    mentions: { type: 'keyword' },
    has_media: { type: 'boolean' },
    published_at: { type: 'date' },
    likes_count: { type: 'integer' },
  },
};

export const PROFILE_MAPPINGS = {
  dynamic: 'strict',
  properties: {
    id: { type: 'keyword' },
    username: { type: 'keyword', copy_to: 'names' },
    name: { type: 'keyword', index: false, copy_to: 'names' },
    call_name: { type: 'keyword', index: false, copy_to: 'names' },
    /** username, name and call_name together: each word of q must start a word of one of them. */
    names: { type: 'text', analyzer: 'folded' },
    type: { type: 'keyword' },
    occupation: { type: 'keyword' },
    country_code: { type: 'keyword' },
    followers_count: { type: 'integer' },
  },
};

/** The signed request the adapter sends (method, path, JSON or NDJSON body). */
export interface SearchTransport {
  request(params: {
    method: string;
    path: string;
    body?: unknown;
    bulkBody?: unknown[];
  }): Promise<{ body: unknown; statusCode: number | null }>;
}

interface SearchResponse {
  hits: { hits: { _id: string; _source?: { published_at?: string } }[] };
}

interface BulkResponse {
  errors: boolean;
  items: Record<string, { status: number; error?: unknown }>[];
}

const phrase = (text: string) => ({ match_phrase: { body: text } });

export class OpenSearchSearchIndex implements SearchIndex {
  private ready: Promise<void> | undefined;
  readonly posts: string;
  readonly profiles: string;

  constructor(
    private readonly transport: SearchTransport,
    prefix = 'social-',
  ) {
    this.posts = `${prefix}posts`;
    this.profiles = `${prefix}profiles`;
  }

  /** Creates each index with its mappings unless it exists (once per process; again after a failure). */
  private ensureIndexes(): Promise<void> {
    this.ready ??= (async () => {
      for (const [index, mappings] of [
        [this.posts, POST_MAPPINGS],
        [this.profiles, PROFILE_MAPPINGS],
      ] as const) {
        const exists = await this.transport.request({ method: 'HEAD', path: `/${index}` });
        if (exists.statusCode === 200) continue;
        await this.transport.request({ method: 'PUT', path: `/${index}`, body: { settings: SETTINGS, mappings } });
      }
    })().catch((error: unknown) => {
      this.ready = undefined;
      throw error;
    });
    return this.ready;
  }

  /** The `_bulk` lines of a batch of changes (action, then document). */
  bulkLines(changes: readonly IndexChange[]): unknown[] {
    return changes.flatMap((change): unknown[] => {
      switch (change.kind) {
        case 'put_post':
          return [{ index: { _index: this.posts, _id: change.post.id } }, change.post];
        case 'delete_post':
          return [{ delete: { _index: this.posts, _id: change.id } }];
        case 'put_profile':
          // An update, so the follower count folded beside it stays.
          return [
            { update: { _index: this.profiles, _id: change.profile.id } },
            { doc: change.profile, doc_as_upsert: true },
          ];
        case 'delete_profile':
          return [{ delete: { _index: this.profiles, _id: change.id } }];
        case 'followers':
          return [
            { update: { _index: this.profiles, _id: change.profile_id } },
            { doc: { followers_count: change.followers_count }, doc_as_upsert: true },
          ];
      }
    });
  }

  async write(changes: readonly IndexChange[]): Promise<void> {
    if (changes.length === 0) return;
    await this.ensureIndexes();
    const { body } = await this.transport.request({
      method: 'POST',
      path: '/_bulk',
      bulkBody: this.bulkLines(changes),
    });
    const response = body as BulkResponse;
    if (!response.errors) return;
    // Deleting what is not there is done already.
    const failed = response.items
      .map((item) => Object.entries(item)[0]!)
      .filter(([action, result]) => result.status >= 300 && !(action === 'delete' && result.status === 404));
    if (failed.length > 0)
      throw new Error(`_bulk refused ${failed.length} actions, the first: ${JSON.stringify(failed[0]![1].error)}`);
  }

  /** The query DSL of a post search. */
  postQuery(search: PostSearch): Record<string, unknown> {
    const { terms } = search;
    const must: unknown[] = [];
    if (terms.words.length > 0) must.push({ match: { body: { query: terms.words.join(' '), operator: 'and' } } });
    must.push(...terms.phrases.map(phrase));
    const filter: unknown[] = terms.hashtags.map((tag) => ({ term: { hashtags: tag } }));
    if (terms.from.length > 0) filter.push({ terms: { username: terms.from } });
    if (search.author_profile_id) filter.push({ term: { profile_id: search.author_profile_id } });
    if (search.mentions) filter.push({ term: { mentions: search.mentions } });
    if (search.since || search.until)
      filter.push({
        range: {
          published_at: { ...(search.since && { gte: search.since }), ...(search.until && { lt: search.until }) },
        },
      });
    if (search.has_media !== undefined) filter.push({ term: { has_media: search.has_media } });
    if (search.kind) filter.push({ term: { kind: search.kind } });
    const position = search.position;
    if (position && 'after' in position) {
      const { published_at, id } = position.after;
      filter.push({
        bool: {
          should: [
            { range: { published_at: { lt: published_at } } },
            { bool: { filter: [{ term: { published_at } }, { range: { id: { lt: id } } }] } },
          ],
          minimum_should_match: 1,
        },
      });
    }
    const mustNot: unknown[] = terms.excluded.map(phrase);
    const latest = [{ published_at: 'desc' }, { id: 'desc' }];
    return {
      query: { bool: { must, filter, must_not: mustNot } },
      sort: search.sort === 'top' ? [{ _score: 'desc' }, { likes_count: 'desc' }, ...latest] : latest,
      size: search.limit + 1,
      from: position && 'offset' in position ? position.offset : 0,
      _source: ['published_at'],
      track_total_hits: false,
    };
  }

  async searchPosts(search: PostSearch): Promise<PostHit[]> {
    await this.ensureIndexes();
    const { body } = await this.transport.request({
      method: 'POST',
      path: `/${this.posts}/_search`,
      body: this.postQuery(search),
    });
    return (body as SearchResponse).hits.hits.map((hit) => ({ id: hit._id, published_at: hit._source!.published_at! }));
  }

  /** The query DSL of a profile search. */
  profileQuery(search: ProfileSearch): Record<string, unknown> {
    const filter: unknown[] = [];
    if (search.type) filter.push({ term: { type: search.type } });
    if (search.occupation) filter.push({ term: { occupation: search.occupation } });
    if (search.country_code) filter.push({ term: { country_code: search.country_code } });
    return {
      query: {
        bool: {
          must: [{ match_bool_prefix: { names: { query: search.prefixes.join(' '), operator: 'and' } } }],
          filter,
        },
      },
      sort: [
        {
          _script: {
            type: 'number',
            order: 'asc',
            script: {
              source: "doc['username'].size() > 0 && doc['username'].value == params.exact ? 0 : 1",
              params: { exact: search.exact_username },
            },
          },
        },
        { followers_count: { order: 'desc', missing: 0 } },
        { username: 'asc' },
      ],
      size: search.limit + 1,
      from: search.offset,
      _source: false,
      track_total_hits: false,
    };
  }

  async searchProfiles(search: ProfileSearch): Promise<string[]> {
    await this.ensureIndexes();
    const { body } = await this.transport.request({
      method: 'POST',
      path: `/${this.profiles}/_search`,
      body: this.profileQuery(search),
    });
    return (body as SearchResponse).hits.hits.map((hit) => hit._id);
  }

  async clear(): Promise<void> {
    await this.ensureIndexes();
    for (const index of [this.posts, this.profiles])
      await this.transport.request({
        method: 'POST',
        path: `/${index}/_delete_by_query`,
        body: { query: { match_all: {} } },
      });
  }
}

/**
 * The transport to a domain endpoint: the signed `fetch` for the `es` service with these
 * credentials (the Lambda role's by default). The adapter's three request kinds (the index's
 * mappings, `_bulk`, `_search`) need nothing more, and the official client was 292 KiB of each
 * search route's bundle (docs/decisions.md). A refused request throws with the domain's answer,
 * but for `HEAD` whose 404 is the answer "no such index".
 */
export function signedFetchTransport(endpoint: string, getCredentials?: () => Promise<Credentials>): SearchTransport {
  const base = new URL(endpoint);
  const send = signedFetch('es', getCredentials);
  return {
    async request({ method, path, body, bulkBody }) {
      const url = new URL(path, base);
      const payload =
        bulkBody !== undefined
          ? { text: bulkBody.map((line) => `${JSON.stringify(line)}\n`).join(''), contentType: 'application/x-ndjson' }
          : body !== undefined
            ? { text: JSON.stringify(body), contentType: 'application/json' }
            : undefined;
      const response = await send({ method, url, ...(payload && { body: payload }) });
      const text = method === 'HEAD' ? '' : await response.text();
      if (response.status >= 400 && !(method === 'HEAD' && response.status === 404))
        throw new Error(`OpenSearch ${method} ${url.pathname} answered ${response.status}: ${text.slice(0, 500)}`);
      return { statusCode: response.status, body: text ? (JSON.parse(text) as unknown) : undefined };
    },
  };
}

let fromConfig: OpenSearchSearchIndex | undefined;

/** The domain named by SEARCH_ENDPOINT (one per process). */
export function openSearchIndexFromConfig(): OpenSearchSearchIndex {
  const endpoint = config.searchEndpoint;
  if (!endpoint) throw new Error('SEARCH_ENDPOINT is not set: the search routes need the OpenSearch domain');
  fromConfig ??= new OpenSearchSearchIndex(signedFetchTransport(endpoint));
  return fromConfig;
}
