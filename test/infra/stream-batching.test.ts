/**
 * The local runtime batches each table-stream consumer as the deployed stack's event source
 * mapping does (batch size, batching window): the synthesised template against the consumers the
 * local runtime hands its stream poller. Drift on either side fails here.
 */
import type { IFunction } from 'aws-cdk-lib/aws-lambda';
import { beforeAll, describe, expect, it } from 'vitest';
import { deliveryRuntime } from '../../infra/local/delivery-runtime.js';
import type { StreamConsumers, StreamHandler } from '../../infra/local/stream-poller.js';
import type { StreamConsumerName } from '../../infra/stream-batching.js';
import { keyOf, type Located, ServiceTemplates } from './service-templates.js';

let templates: ServiceTemplates;
let local: StreamConsumers;

beforeAll(() => {
  templates = new ServiceTemplates();
  const unused: StreamHandler = () => Promise.resolve();
  // Built, not started: nothing is read or served.
  local = deliveryRuntime('http://127.0.0.1:1', {
    'media-clean-up': unused,
    'home-feed': unused,
    'search-index': unused,
    mail: unused,
  }).streamConsumers;
});

/** Every event source mapping on the table stream (an SQS one has no starting position), by the function it feeds. */
function streamMappings(): Map<string, Located[]> {
  const byFunction = new Map<string, Located[]>();
  for (const mapping of templates.ofType('AWS::Lambda::EventSourceMapping')) {
    const props = templates.resource(mapping)!.Properties;
    if (!props.StartingPosition) continue;
    const fn = keyOf({ at: mapping.at, id: (props.FunctionName as { Ref: string }).Ref });
    byFunction.set(fn, [...(byFunction.get(fn) ?? []), mapping]);
  }
  return byFunction;
}

describe('the table stream consumers, local and deployed', () => {
  it('are batched locally as their event sources batch them in the stack (batch size, batching window)', () => {
    const { stack } = templates;
    const deployed: Record<StreamConsumerName, IFunction> = {
      'webhook-fan-out': stack.webhooks.fanOut,
      'author-cards': stack.authorCards.fn,
      'fold-counts': stack.counters.fn,
      notify: stack.notifications.fn,
      'media-clean-up': stack.media.cleanUp,
      'home-feed': stack.feed.fanOut,
      'search-index': stack.search.fn,
      mail: stack.mail.sender,
      'audit-log': stack.auditLog.fn,
      'live-publisher': stack.liveEvents.publisher,
    };
    const mappings = streamMappings();
    // The same consumers on both sides: a new one is wired in both, or this fails.
    expect(Object.keys(local).sort()).toEqual(Object.keys(deployed).sort());
    expect(mappings.size).toBe(Object.keys(deployed).length);

    for (const [name, fn] of Object.entries(deployed)) {
      const found = mappings.get(keyOf(templates.locate(fn))) ?? [];
      expect(found, name).toHaveLength(1);
      const props = templates.resource(found[0]!)!.Properties;
      expect(
        { batchSize: props.BatchSize, batchingWindowSeconds: props.MaximumBatchingWindowInSeconds ?? 0 },
        name,
      ).toEqual({ batchSize: local[name]!.batchSize, batchingWindowSeconds: local[name]!.batchingWindowSeconds });
    }
  });

  it('give the counter fold and the notifications a window of a second, the others none', () => {
    // What the benches measure about hot keys follows from these: see docs/performance-and-cost.md.
    expect(local['fold-counts']).toMatchObject({ batchSize: 1000, batchingWindowSeconds: 1 });
    expect(local.notify).toMatchObject({ batchSize: 1000, batchingWindowSeconds: 1 });
    expect(local['search-index']).toMatchObject({ batchingWindowSeconds: 0 });
  });
});
