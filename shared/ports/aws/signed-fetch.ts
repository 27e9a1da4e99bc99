/**
 * `fetch`, signed with SigV4 (the Lambda role's credentials by default): the one signer of the
 * adapters that call an AWS endpoint over plain HTTP (the OpenSearch domain, the AppSync Events
 * publish endpoint). Their few request kinds need nothing more than a signed `fetch`, and the
 * official clients weigh hundreds of KiB of each bundle (docs/decisions.md).
 */
import { defaultProvider } from '@aws-sdk/credential-provider-node';
import { createHash, createHmac, type Hash, type Hmac } from 'node:crypto';
import { SignatureV4 } from '@smithy/signature-v4';
import { config } from '../../config.js';

/** SHA-256 (and its HMAC, given a secret) as the signer asks for it, from node:crypto. */
class Sha256 {
  private hash: Hash | Hmac;
  constructor(private readonly secret?: string | ArrayBuffer | ArrayBufferView) {
    this.hash = this.fresh();
  }
  private fresh(): Hash | Hmac {
    if (this.secret === undefined) return createHash('sha256');
    const secret = this.secret;
    const key =
      typeof secret === 'string'
        ? secret
        : ArrayBuffer.isView(secret)
          ? new Uint8Array(secret.buffer, secret.byteOffset, secret.byteLength)
          : new Uint8Array(secret);
    return createHmac('sha256', key);
  }
  update(data: Uint8Array | string): void {
    this.hash.update(data);
  }
  digest(): Promise<Uint8Array> {
    return Promise.resolve(new Uint8Array(this.hash.digest()));
  }
  reset(): void {
    this.hash = this.fresh();
  }
}

export interface Credentials {
  accessKeyId: string;
  secretAccessKey: string;
  sessionToken?: string;
}

/** One request to sign and send: its body as sent (JSON or NDJSON text) with its content type. */
export interface SignedRequest {
  method: string;
  url: URL;
  body?: { text: string; contentType: string };
}

export type SignedFetch = (request: SignedRequest) => Promise<Response>;

/** A `fetch` that signs each request for `service` (`es`, `appsync`) in the configured region. */
export function signedFetch(
  service: string,
  getCredentials: () => Promise<Credentials> = defaultProvider(),
): SignedFetch {
  const signer = new SignatureV4({ credentials: getCredentials, region: config.region, service, sha256: Sha256 });
  return async ({ method, url, body }) => {
    const headers: Record<string, string> = { host: url.host };
    if (body) headers['content-type'] = body.contentType;
    const signed = await signer.sign({
      method,
      protocol: url.protocol,
      hostname: url.hostname,
      ...(url.port && { port: Number(url.port) }),
      path: url.pathname,
      query: Object.fromEntries(url.searchParams),
      headers,
      ...(body && { body: body.text }),
    });
    // fetch sets the host itself (from the URL, the same value that was signed).
    const { host: _host, ...sent } = signed.headers;
    return fetch(url, { method, headers: sent, ...(body && { body: body.text }) });
  };
}
