import { batchGet, keyId, type ItemKey } from './batch.js';

type Item = Record<string, unknown>;

/**
 * The point reads of one request, coalesced: every `get` issued before the request next waits
 * for I/O (the credential, the acting profile, the route's own keys, asked for by different
 * middlewares in one pass through the stack) goes out as ONE strongly consistent BatchGetItem, and
 * a key read again later in the request is answered from that result. The batch leaves on the
 * next tick, once the pending promise continuations have run: at once, not after the other
 * callbacks the event loop has ready (a busy server's other requests). Consistent, because the credential is among them:
 * a revoked key or a logged-out session is refused on the very next request.
 * Scoped to one request: nothing is cached across requests.
 */
export class ReadBatch {
  private readonly results = new Map<string, Promise<Item | undefined>>();
  private queued: { key: ItemKey; resolve: (item: Item | undefined) => void; reject: (error: unknown) => void }[] = [];

  get(key: ItemKey): Promise<Item | undefined> {
    const id = keyId(key);
    let result = this.results.get(id);
    if (!result) {
      result = new Promise((resolve, reject) => {
        if (this.queued.length === 0) process.nextTick(() => void this.flush());
        this.queued.push({ key, resolve, reject });
      });
      this.results.set(id, result);
    }
    return result;
  }

  private async flush(): Promise<void> {
    const queued = this.queued;
    this.queued = [];
    try {
      const found = await batchGet(
        queued.map((q) => q.key),
        { consistent: true },
      );
      for (const q of queued) q.resolve(found.get(keyId(q.key)));
    } catch (error) {
      for (const q of queued) q.reject(error);
    }
  }
}
