/**
 * Instants as the table keeps them in numbers: the expiry attribute DynamoDB's TTL reads, and the
 * time on a stream watermark. One rounding, up: DynamoDB deletes an item once its expiry is at or
 * before now, so an expiry rounded up never lets an item (a session, a grant, a media slot, a
 * delivery still retried by hand) go before its instant, where rounded down it could vanish up to a
 * second early. A stored expiry is compared with now unrounded (`epochNow`): the item is expired
 * exactly from its second on.
 */
export const epochSeconds = (at: Date | string): number =>
  Math.ceil((typeof at === 'string' ? Date.parse(at) : at.getTime()) / 1000);

/** Now in epoch seconds, unrounded: what a stored expiry is compared with. */
export const epochNow = (now: Date): number => now.getTime() / 1000;
