/**
 * The live publisher on stream batches: INSERTs of event log items published to their profiles'
 * channels through the real AppSync adapter to a stand-in endpoint on 127.0.0.1 (each profile's
 * events in order, in requests of five, without the item's bookkeeping), every other record left
 * alone, and a profile whose publish fails reported as the stream consumers report failures. A
 * feed.post, logged by reference, goes out presented from its post in DynamoDB Local, or not at all.
 */
import { marshall } from '@aws-sdk/util-dynamodb';
import type { AttributeValue, DynamoDBRecord } from 'aws-lambda';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { publishEventsHandler } from '../../functions/live-publisher/handlers.js';
import { newProfile, type ProfileRecord } from '../../shared/domain/entities.js';
import { newId } from '../../shared/domain/ids.js';
import { newPost, type PostRecord } from '../../shared/domain/posts.js';
import { newMute } from '../../shared/domain/safety.js';
import { presentPostWithProfile } from '../../shared/http/present/posts.js';
import { AppSyncEventPublisher } from '../../shared/ports/aws/appsync-event-publisher.js';
import { signedFetch } from '../../shared/ports/aws/signed-fetch.js';
import { keys } from '../../shared/store/keys.js';
import { createPost } from '../../shared/store/posts.js';
import { mute } from '../../shared/store/safety.js';
import { unique } from '../support/api.js';
import { bySession } from '../support/disclosure.js';
import { startAwsEndpoint, type AwsEndpoint } from '../support/aws-endpoint.js';
import { TEST_CREDENTIALS } from '../support/sigv4.js';

let endpoint: AwsEndpoint;
beforeAll(async () => {
  endpoint = await startAwsEndpoint();
});
afterAll(() => endpoint.close());
beforeEach(() => endpoint.reset());

const handler = () =>
  publishEventsHandler(new AppSyncEventPublisher(endpoint.url, signedFetch('appsync', TEST_CREDENTIALS)));

/** An item as a stream record carries it. */
const image = (item: Record<string, unknown>) => marshall(item) as Record<string, AttributeValue>;

let sequence = 100;
const record = (eventName: DynamoDBRecord['eventName'], item: Record<string, unknown>): DynamoDBRecord => ({
  eventName,
  dynamodb: {
    SequenceNumber: String(sequence++),
    Keys: image({ pk: item.pk, sk: item.sk }),
    NewImage: image(item),
  },
});

/** An event as every transport answers it. */
const event = (profileId: string, n: number) => ({
  id: `000000000000000${n}-abcdef01`,
  type: 'notification.created',
  profile_id: profileId,
  created_at: '2026-11-27T18:00:00.000Z',
  data: { id: `n${n}`, reason: 'like', count: n },
});
/** Its log item, with the bookkeeping the publisher leaves out. */
const logItem = (profileId: string, n: number) => {
  const e = event(profileId, n);
  return { pk: keys.eventLog(profileId), sk: e.id, entity: 'live_event', ...e, source: `like#${n}`, expires_at: 1 };
};

const sent = () => endpoint.seen.map((request) => JSON.parse(request.body) as { channel: string; events: string[] });

describe('the live publisher', () => {
  it('publishes each inserted event to its profile channel, in order, and nothing else', async () => {
    const records = [
      ...[1, 2, 3, 4, 5, 6, 7].map((n) => record('INSERT', logItem('pa', n))),
      record('INSERT', logItem('pb', 1)),
      // Not this consumer's: a modified log item, another partition's insert.
      record('MODIFY', logItem('pa', 8)),
      record('INSERT', { pk: 'NOTIF#pa', sk: 'x', entity: 'notification', id: 'n1' }),
    ];
    const answer = await handler()({ Records: records });
    expect(answer.batchItemFailures).toEqual([]);
    const byChannel = new Map<string, unknown[]>();
    for (const body of sent())
      byChannel.set(body.channel, [
        ...(byChannel.get(body.channel) ?? []),
        ...body.events.map((text) => JSON.parse(text) as unknown),
      ]);
    expect([...byChannel.keys()].sort()).toEqual(['/profiles/pa', '/profiles/pb']);
    expect(byChannel.get('/profiles/pa')).toEqual([1, 2, 3, 4, 5, 6, 7].map((n) => event('pa', n)));
    expect(byChannel.get('/profiles/pb')).toEqual([event('pb', 1)]);
    expect(
      sent()
        .filter((body) => body.channel === '/profiles/pa')
        .map((body) => body.events.length),
    ).toEqual([5, 2]);
  });

  it("reports the earliest record of a profile whose publish failed (after its tries); other profiles' go out", async () => {
    endpoint.answers['POST /event'] = (_n, request) =>
      (JSON.parse(request.body) as { channel: string }).channel === '/profiles/pb'
        ? { status: 500, body: { message: 'Internal failure' } }
        : { status: 200 };
    const records = [
      record('INSERT', logItem('pa', 1)),
      record('INSERT', logItem('pb', 1)),
      record('INSERT', logItem('pb', 2)),
    ];
    const answer = await handler()({ Records: records });
    expect(answer.batchItemFailures).toEqual([{ itemIdentifier: records[1]!.dynamodb!.SequenceNumber }]);
    const channels = sent().map((body) => body.channel);
    expect(channels.filter((c) => c === '/profiles/pa')).toHaveLength(1);
    // Tried three times in process before it is reported.
    expect(channels.filter((c) => c === '/profiles/pb')).toHaveLength(3);
  });

  it('reports a malformed event log item rather than dropping it', async () => {
    const malformed = record('INSERT', { ...logItem('pa', 1), data: 'not an object' });
    const answer = await handler()({ Records: [malformed, record('INSERT', logItem('pa', 2))] });
    expect(answer.batchItemFailures).toEqual([{ itemIdentifier: malformed.dynamodb!.SequenceNumber }]);
  });
});

describe('the live publisher on a feed.post', () => {
  async function published(body: string): Promise<{ post: PostRecord; author: ProfileRecord }> {
    const author = newProfile(new Date(), {
      workspace_id: newId(),
      username: unique('pub').toLowerCase(),
      type: 'human',
      name: 'Live Author',
      call_name: 'Author',
    });
    const post = newPost(new Date(), author, { body, images: [], status: 'published' }, bySession);
    await createPost(post, author, [], []);
    return { post, author };
  }

  /** The log item of a feed.post of `postId` in `profileId`'s log: the post by id alone. */
  const feedPostItem = (profileId: string, n: number, postId: string) => ({
    ...logItem(profileId, n),
    type: 'feed.post',
    data: { post_id: postId },
    source: `feed:${postId}`,
  });

  it('publishes it presented from its post and author card, as the poll answers it', async () => {
    const reader = newId();
    const { post, author } = await published('Published by reference');
    const records = [
      record('INSERT', logItem(reader, 1)),
      record('INSERT', feedPostItem(reader, 2, post.id)),
      // A post gone since it was logged: left out, as the reads leave it out.
      record('INSERT', feedPostItem(reader, 3, newId())),
    ];
    const answer = await handler()({ Records: records });
    expect(answer.batchItemFailures).toEqual([]);
    expect(sent()).toHaveLength(1);
    const events_ = sent()[0]!.events.map((text) => JSON.parse(text) as unknown);
    expect(events_).toEqual([
      event(reader, 1),
      {
        id: feedPostItem(reader, 2, post.id).id,
        type: 'feed.post',
        profile_id: reader,
        created_at: '2026-11-27T18:00:00.000Z',
        data: JSON.parse(JSON.stringify(presentPostWithProfile(post, author))) as unknown,
      },
    ]);
  });

  it('publishes nothing of a post whose author the profile mutes, nor a request of a batch that had only that', async () => {
    const reader = newId();
    const { post, author } = await published('Muted since');
    await mute(newMute(new Date(), reader, author.id));
    const answer = await handler()({ Records: [record('INSERT', feedPostItem(reader, 1, post.id))] });
    expect(answer.batchItemFailures).toEqual([]);
    expect(endpoint.seen).toEqual([]);
  });
});
