/**
 * The OpenSearch adapter on its exact requests: a local HTTP server on 127.0.0.1 stands in for the
 * domain, the adapter's `fetch` transport signs with SigV4 as in Lambda (static test credentials), and each
 * test asserts the method, path, body and signature of what was sent. No network.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { parsePostQuery } from '../../shared/domain/search-query.js';
import {
  OpenSearchSearchIndex,
  POST_MAPPINGS,
  PROFILE_MAPPINGS,
  signedFetchTransport,
} from '../../shared/ports/aws/opensearch-search-index.js';
import type { PostDocument } from '../../shared/ports/search-index.js';
import { startAwsEndpoint, type AwsEndpoint } from '../support/aws-endpoint.js';
import { expectSigV4, TEST_CREDENTIALS, type SignedRequestSeen } from '../support/sigv4.js';

type Seen = SignedRequestSeen;

let endpoint: AwsEndpoint;
let seen: Seen[] = [];
/** What the stand-in answers, by method and path; 200 `{}` otherwise. */
let answers: AwsEndpoint['answers'] = {};

beforeAll(async () => {
  endpoint = await startAwsEndpoint();
});
afterAll(() => endpoint.close());
beforeEach(() => {
  endpoint.reset();
  seen = endpoint.seen;
  answers = endpoint.answers;
});

const adapter = () => new OpenSearchSearchIndex(signedFetchTransport(endpoint.url, TEST_CREDENTIALS), 'test-');

const expectValidSignature = (request: Seen) => expectSigV4(request, 'es');

const emptyTerms = parsePostQuery('');
const post: PostDocument = {
  id: 'p1',
  profile_id: 'a1',
  username: 'ada',
  kind: 'post',
  body: 'Hello #World',
  hashtags: ['world'],
  mentions: [],
  has_media: false,
  published_at: '2026-11-25T10:00:00.000Z',
  likes_count: 3,
};

describe('the OpenSearch adapter', () => {
  it('creates each missing index with its mappings on first use, signed with SigV4, once per process', async () => {
    answers['HEAD /test-posts'] = { status: 404 };
    answers['HEAD /test-profiles'] = { status: 200 };
    const index = adapter();
    answers['POST /_bulk'] = { status: 200, body: { errors: false, items: [] } };
    await index.write([{ kind: 'delete_post', id: 'p0' }]);
    await index.write([{ kind: 'delete_post', id: 'p0' }]);
    expect(seen.map((s) => `${s.method} ${s.path}`)).toEqual([
      'HEAD /test-posts',
      'PUT /test-posts',
      'HEAD /test-profiles',
      'POST /_bulk',
      'POST /_bulk',
    ]);
    const created = JSON.parse(seen[1]!.body);
    expect(created.mappings).toEqual(POST_MAPPINGS);
    expect(created.settings.analysis.analyzer.folded).toEqual({
      type: 'custom',
      tokenizer: 'words',
      filter: ['lowercase', 'asciifolding'],
    });
    for (const request of seen) {
      expect(request.headers['x-amz-date']).toMatch(/^\d{8}T\d{6}Z$/);
      expectValidSignature(request);
    }
  });

  it('throws with the domain answer on a refused request, and tries the indexes again after', async () => {
    answers['HEAD /test-posts'] = { status: 403 };
    const index = adapter();
    await expect(index.write([{ kind: 'delete_post', id: 'p0' }])).rejects.toThrow(/HEAD \/test-posts answered 403/);
    answers['HEAD /test-posts'] = { status: 200 };
    answers['HEAD /test-profiles'] = { status: 200 };
    answers['POST /test-posts/_search'] = { status: 400, body: { error: { type: 'parsing_exception' } } };
    await expect(index.searchPosts({ terms: emptyTerms, sort: 'latest', limit: 1 })).rejects.toThrow(
      /POST \/test-posts\/_search answered 400: .*parsing_exception/,
    );
    expect(seen.map((s) => `${s.method} ${s.path}`)).toEqual([
      'HEAD /test-posts',
      'HEAD /test-posts',
      'HEAD /test-profiles',
      'POST /test-posts/_search',
    ]);
  });

  it('writes one _bulk of NDJSON: posts indexed, profiles and follower counts upserted, deletions', async () => {
    const index = adapter();
    answers['POST /_bulk'] = { status: 200, body: { errors: false, items: [] } };
    const profile = {
      id: 'a1',
      username: 'ada',
      name: 'Ada',
      call_name: 'Ada',
      type: 'human' as const,
      occupation: null,
      country_code: 'GB',
    };
    await index.write([
      { kind: 'put_post', post },
      { kind: 'delete_post', id: 'p2' },
      { kind: 'put_profile', profile },
      { kind: 'followers', profile_id: 'a1', followers_count: 7 },
      { kind: 'delete_profile', id: 'a2' },
    ]);
    const bulk = seen.find((s) => s.path === '/_bulk')!;
    expect(bulk.headers['content-type']).toBe('application/x-ndjson');
    expectValidSignature(bulk);
    expect(bulk.body.endsWith('\n')).toBe(true);
    expect(
      bulk.body
        .trim()
        .split('\n')
        .map((line) => JSON.parse(line)),
    ).toEqual([
      { index: { _index: 'test-posts', _id: 'p1' } },
      post,
      { delete: { _index: 'test-posts', _id: 'p2' } },
      { update: { _index: 'test-profiles', _id: 'a1' } },
      { doc: profile, doc_as_upsert: true },
      { update: { _index: 'test-profiles', _id: 'a1' } },
      { doc: { followers_count: 7 }, doc_as_upsert: true },
      { delete: { _index: 'test-profiles', _id: 'a2' } },
    ]);
  });

  it('takes a missing document on delete as done, and throws on any other refused action', async () => {
    const index = adapter();
    answers['POST /_bulk'] = {
      status: 200,
      body: { errors: true, items: [{ delete: { status: 404 } }, { index: { status: 201 } }] },
    };
    await expect(index.write([{ kind: 'delete_post', id: 'p2' }])).resolves.toBeUndefined();
    answers['POST /_bulk'] = {
      status: 200,
      body: { errors: true, items: [{ index: { status: 429, error: { type: 'es_rejected_execution_exception' } } }] },
    };
    await expect(index.write([{ kind: 'put_post', post }])).rejects.toThrow(/es_rejected_execution_exception/);
  });

  it('asks posts in the query DSL: words, phrases, exclusions, tags, from:, filters, latest after a post', async () => {
    const index = adapter();
    answers['POST /test-posts/_search'] = {
      status: 200,
      body: { hits: { hits: [{ _id: 'p1', _source: { published_at: post.published_at } }] } },
    };
    const hits = await index.searchPosts({
      terms: parsePostQuery('green energy "solar panel" -coal #Climate from:ada'),
      author_profile_id: 'a1',
      mentions: 'bob',
      since: '2026-01-01T00:00:00.000Z',
      until: '2026-12-01T00:00:00.000Z',
      has_media: true,
      kind: 'post',
      sort: 'latest',
      limit: 20,
      position: { after: { published_at: '2026-11-25T09:00:00.000Z', id: 'p9' } },
    });
    expect(hits).toEqual([{ id: 'p1', published_at: post.published_at }]);
    const request = seen.find((s) => s.path === '/test-posts/_search')!;
    expect(request.method).toBe('POST');
    expect(request.headers['content-type']).toBe('application/json');
    expectValidSignature(request);
    expect(JSON.parse(request.body)).toEqual({
      query: {
        bool: {
          must: [
            { match: { body: { query: 'green energy', operator: 'and' } } },
            { match_phrase: { body: 'solar panel' } },
          ],
          filter: [
            { term: { hashtags: 'climate' } },
            { terms: { username: ['ada'] } },
            { term: { profile_id: 'a1' } },
            { term: { mentions: 'bob' } },
            { range: { published_at: { gte: '2026-01-01T00:00:00.000Z', lt: '2026-12-01T00:00:00.000Z' } } },
            { term: { has_media: true } },
            { term: { kind: 'post' } },
            {
              bool: {
                should: [
                  { range: { published_at: { lt: '2026-11-25T09:00:00.000Z' } } },
                  {
                    bool: {
                      filter: [{ term: { published_at: '2026-11-25T09:00:00.000Z' } }, { range: { id: { lt: 'p9' } } }],
                    },
                  },
                ],
                minimum_should_match: 1,
              },
            },
          ],
          must_not: [{ match_phrase: { body: 'coal' } }],
        },
      },
      sort: [{ published_at: 'desc' }, { id: 'desc' }],
      size: 21,
      from: 0,
      _source: ['published_at'],
      track_total_hits: false,
    });
  });

  it('ranks top by score, then likes, and pages it by offset', () => {
    const query = adapter().postQuery({ terms: emptyTerms, sort: 'top', limit: 10, position: { offset: 30 } });
    expect(query).toMatchObject({
      query: { bool: { must: [], filter: [], must_not: [] } },
      sort: [{ _score: 'desc' }, { likes_count: 'desc' }, { published_at: 'desc' }, { id: 'desc' }],
      size: 11,
      from: 30,
    });
  });

  it('asks profiles as prefixes of the words of their names, the exact username first, then by followers', async () => {
    const index = adapter();
    answers['POST /test-profiles/_search'] = { status: 200, body: { hits: { hits: [{ _id: 'a1' }, { _id: 'a2' }] } } };
    const ids = await index.searchProfiles({
      prefixes: ['ada', 'lov'],
      exact_username: 'ada lov',
      type: 'human',
      occupation: 'Engineer',
      country_code: 'GB',
      limit: 5,
      offset: 10,
    });
    expect(ids).toEqual(['a1', 'a2']);
    const request = seen.find((s) => s.path === '/test-profiles/_search')!;
    expect(JSON.parse(request.body)).toEqual({
      query: {
        bool: {
          must: [{ match_bool_prefix: { names: { query: 'ada lov', operator: 'and' } } }],
          filter: [{ term: { type: 'human' } }, { term: { occupation: 'Engineer' } }, { term: { country_code: 'GB' } }],
        },
      },
      sort: [
        {
          _script: {
            type: 'number',
            order: 'asc',
            script: {
              source: "doc['username'].size() > 0 && doc['username'].value == params.exact ? 0 : 1",
              params: { exact: 'ada lov' },
            },
          },
        },
        { followers_count: { order: 'desc', missing: 0 } },
        { username: 'asc' },
      ],
      size: 6,
      from: 10,
      _source: false,
      track_total_hits: false,
    });
    expect(PROFILE_MAPPINGS.properties.names).toEqual({ type: 'text', analyzer: 'folded' });
  });

  it('empties both indexes for a rebuild', async () => {
    await adapter().clear();
    expect(seen.filter((s) => s.method === 'POST').map((s) => [s.path, JSON.parse(s.body)] as const)).toEqual([
      ['/test-posts/_delete_by_query', { query: { match_all: {} } }],
      ['/test-profiles/_delete_by_query', { query: { match_all: {} } }],
    ]);
  });
});
