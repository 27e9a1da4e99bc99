/**
 * The event publisher in AWS: AppSync Events' HTTP endpoint, `POST https://<http domain>/event`
 * `{ channel, events: [JSON strings] }`, signed with SigV4 for `appsync` by the Lambda role (whose
 * only grant there is appsync:EventPublish on the API). AppSync takes at most five events a
 * request, so a longer run goes in requests of five, one after the other (subscribers see them in
 * order). AppSync answers 200 with the events it refused under `failed`: any is a failure here.
 */
import { config } from '../../config.js';
import type { EventPublisher } from '../event-publisher.js';
import { signedFetch, type SignedFetch } from './signed-fetch.js';

/** Events AppSync Events accepts in one publish request. */
export const EVENTS_PER_REQUEST = 5;

interface PublishAnswer {
  successful?: { identifier: string; index: number }[];
  failed?: { identifier: string; index: number; code?: number; message?: string }[];
}

export class AppSyncEventPublisher implements EventPublisher {
  private readonly url: URL;

  /** `endpoint`: the API's HTTP endpoint, `https://<http domain>` (its `/event` path is added). */
  constructor(
    endpoint: string,
    private readonly send: SignedFetch = signedFetch('appsync'),
  ) {
    this.url = new URL('/event', endpoint);
  }

  async publish(channel: string, events: readonly unknown[]): Promise<void> {
    for (let start = 0; start < events.length; start += EVENTS_PER_REQUEST) {
      const batch = events.slice(start, start + EVENTS_PER_REQUEST).map((event) => JSON.stringify(event));
      const response = await this.send({
        method: 'POST',
        url: this.url,
        body: { text: JSON.stringify({ channel, events: batch }), contentType: 'application/json' },
      });
      const text = await response.text();
      if (response.status >= 400)
        throw new Error(`AppSync Events publish to ${channel} answered ${response.status}: ${text.slice(0, 500)}`);
      const failed = (JSON.parse(text) as PublishAnswer).failed ?? [];
      if (failed.length > 0)
        throw new Error(
          `AppSync Events refused ${failed.length} of ${batch.length} events on ${channel}, the first: ${JSON.stringify(failed[0])}`,
        );
    }
  }
}

let fromConfig: AppSyncEventPublisher | undefined;

/** The API named by APPSYNC_EVENTS_ENDPOINT (one per process). */
export function appSyncEventPublisherFromConfig(): AppSyncEventPublisher {
  const endpoint = config.appSyncEventsEndpoint;
  if (!endpoint) throw new Error('APPSYNC_EVENTS_ENDPOINT is not set: the live publisher needs the AppSync Events API');
  fromConfig ??= new AppSyncEventPublisher(endpoint);
  return fromConfig;
}
