/** The SQS feed queue adapter: SendMessageBatch in tens, a few at once, and entries SQS refused sent again. */
import { SendMessageBatchCommand, SQSClient } from '@aws-sdk/client-sqs';
import { mockClient } from 'aws-sdk-client-mock';
import { beforeEach, describe, expect, it } from 'vitest';
import { SqsFeedQueue } from '../../shared/ports/aws/sqs-feed-queue.js';
import type { FeedMessage } from '../../shared/ports/feed-queue.js';

const sqs = mockClient(SQSClient);
beforeEach(() => {
  sqs.reset();
});

const QUEUE_URL = 'https://sqs.eu-west-1.amazonaws.com/123456789012/feed';
const walk = (n: number): FeedMessage => ({ kind: 'read_time_author', author_id: `author-${n}` });
const sentBodies = () =>
  sqs.commandCalls(SendMessageBatchCommand).flatMap((call) => call.args[0].input.Entries!.map((e) => e.MessageBody));

describe('SqsFeedQueue', () => {
  it('sends every message once, in calls of at most 10', async () => {
    sqs.on(SendMessageBatchCommand).resolves({ Successful: [], Failed: [] });
    await new SqsFeedQueue(QUEUE_URL, new SQSClient({})).send(Array.from({ length: 23 }, (_, i) => walk(i)));
    const calls = sqs.commandCalls(SendMessageBatchCommand);
    expect(calls.map((c) => c.args[0].input.Entries!.length).sort()).toEqual([10, 10, 3]);
    expect(calls.every((c) => c.args[0].input.QueueUrl === QUEUE_URL)).toBe(true);
    expect(new Set(sentBodies()).size).toBe(23);
  });

  it('sends only the refused entries again until SQS takes them', async () => {
    sqs
      .on(SendMessageBatchCommand)
      .resolvesOnce({ Failed: [{ Id: '1', Code: 'ServiceUnavailable', SenderFault: false }] })
      .resolves({ Failed: [] });
    await new SqsFeedQueue(QUEUE_URL, new SQSClient({})).send([walk(0), walk(1), walk(2)]);
    const calls = sqs.commandCalls(SendMessageBatchCommand);
    expect(calls).toHaveLength(2);
    expect(calls[1]!.args[0].input.Entries).toEqual([{ Id: '1', MessageBody: JSON.stringify(walk(1)) }]);
  });

  it('gives up after 4 calls with what SQS said, and does not retry an error of the call itself', async () => {
    sqs
      .on(SendMessageBatchCommand)
      .resolves({ Failed: [{ Id: '0', Code: 'KmsThrottled', Message: 'slow down', SenderFault: false }] });
    await expect(new SqsFeedQueue(QUEUE_URL, new SQSClient({})).send([walk(0)])).rejects.toThrow(
      'SQS refused 1 feed messages: slow down',
    );
    expect(sqs.commandCalls(SendMessageBatchCommand)).toHaveLength(4);

    sqs.reset();
    sqs.on(SendMessageBatchCommand).rejects(new Error('AccessDenied'));
    await expect(new SqsFeedQueue(QUEUE_URL, new SQSClient({})).send([walk(0)])).rejects.toThrow('AccessDenied');
    expect(sqs.commandCalls(SendMessageBatchCommand)).toHaveLength(1);
  });
});
