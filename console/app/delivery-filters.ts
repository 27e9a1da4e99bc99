/** The delivery log's filters (names and shapes from API.md "Webhook recovery, filters, console"): the query the API takes. */
export type DeliveryStatus = 'pending' | 'delivering' | 'succeeded' | 'failed';
export const DELIVERY_STATUSES: readonly DeliveryStatus[] = ['pending', 'delivering', 'succeeded', 'failed'];

export interface DeliveryFilters {
  status?: DeliveryStatus;
  event_type?: string;
  webhook_endpoint_id?: string;
  /** ISO 8601 instants (inclusive since, exclusive until) on `updated_at`. */
  since?: string;
  until?: string;
}

export interface DeliveryQuery extends DeliveryFilters {
  limit?: number;
  cursor?: string;
}

/** The filters that are set, in the API's query names (empty values left out). */
export function deliveryQuery(filters: DeliveryFilters, page: { limit?: number; cursor?: string } = {}): DeliveryQuery {
  const query: DeliveryQuery = {};
  for (const key of ['status', 'event_type', 'webhook_endpoint_id', 'since', 'until'] as const) {
    const value = filters[key];
    if (value) (query as Record<string, string>)[key] = value;
  }
  if (page.limit !== undefined) query.limit = page.limit;
  if (page.cursor) query.cursor = page.cursor;
  return query;
}

export const hasFilters = (filters: DeliveryFilters) => Object.keys(deliveryQuery(filters)).length > 0;

/** A `datetime-local` input's value (local time, no zone) as an ISO instant, or undefined. */
export function fromLocalInput(value: string): string | undefined {
  if (!value) return undefined;
  const time = new Date(value).getTime();
  return Number.isNaN(time) ? undefined : new Date(time).toISOString();
}

/** An ISO instant as a `datetime-local` input's value in the browser's time zone. */
export function toLocalInput(iso: string | undefined): string {
  if (!iso) return '';
  const date = new Date(iso);
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}T${pad(date.getHours())}:${pad(date.getMinutes())}`;
}

export const RECOVER_MAX_DAYS = 14;

/**
 * Checks a recovery window before it is sent, with the API's rules (since required, until after
 * since, at most 14 days); the API checks again and its answer is shown if it disagrees.
 */
export function recoverWindowProblem(
  since: string | undefined,
  until: string | undefined,
  now: Date,
): string | undefined {
  if (!since) return 'Choose when the window starts.';
  const start = Date.parse(since);
  const end = until ? Date.parse(until) : now.getTime();
  if (start > now.getTime()) return 'The window cannot start in the future.';
  if (end <= start) return 'The window must end after it starts.';
  if (end - start > RECOVER_MAX_DAYS * 86_400_000) return `The window can be at most ${RECOVER_MAX_DAYS} days long.`;
  return undefined;
}
