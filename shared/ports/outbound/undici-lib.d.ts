/** The two undici files undici-parts.ts imports by path, typed with the package's own declarations. */
declare module 'undici/lib/dispatcher/client.js' {
  import type { Client } from 'undici';
  const ClientClass: typeof Client;
  export default ClientClass;
}

declare module 'undici/lib/api/api-request.js' {
  import type { Dispatcher } from 'undici';
  /** Called with the dispatcher as `this`. */
  function request(this: Dispatcher, options: Dispatcher.RequestOptions): Promise<Dispatcher.ResponseData>;
  export default request;
}
