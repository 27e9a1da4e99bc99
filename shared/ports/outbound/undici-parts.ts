/**
 * undici's HTTP/1.1 client and its request call, without the package index. The index also loads
 * fetch, WebSocket, EventSource, the cache stores, the interceptors and the mock agents: 524 KiB of
 * the sender's 861 KiB bundle, against about 280 KiB for these two parts. undici has no `exports`
 * map, so its files are importable by path; their types are the package's own (undici-lib.d.ts).
 */
import type { Client as UndiciClient, Dispatcher } from 'undici';
import Client from 'undici/lib/dispatcher/client.js';
import requestWith from 'undici/lib/api/api-request.js';

export type { UndiciClient };

/** `client.request(options)` as the package index wires it (it copies the API onto Dispatcher's prototype). */
export const request = (client: UndiciClient, options: Dispatcher.RequestOptions): Promise<Dispatcher.ResponseData> =>
  requestWith.call(client, options);

export { Client };
