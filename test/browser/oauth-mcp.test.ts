/**
 * An agent connects from the URL alone: the official MCP clients' OAuth support (the 1.x SDK and
 * the 2.x client, each registering itself) drives the whole flow against the local server, and a
 * person completes the consent page in headless Chromium; then the console's Connected apps
 * disconnects it.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  Client as ClientV2,
  StreamableHTTPClientTransport as TransportV2,
  UnauthorizedError as UnauthorizedV2,
} from '@modelcontextprotocol/client';
import { UnauthorizedError as UnauthorizedV1 } from '@modelcontextprotocol/sdk/client/auth.js';
import { Client as ClientV1 } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as TransportV1 } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { call, createProfile, signUp, type SignedUp } from '../support/api.js';
import { launchBrowser, type Browser } from './browser.js';

/** A 127.0.0.1 server: the client's redirect URI, where the browser brings the code. */
interface ClientSide {
  base: string;
  callbacks: URLSearchParams[];
  nextCallback(): Promise<URLSearchParams>;
  close(): Promise<void>;
}

async function clientSide(): Promise<ClientSide> {
  const callbacks: URLSearchParams[] = [];
  const waiting: ((params: URLSearchParams) => void)[] = [];
  let base = '';
  const server: Server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', base);
    callbacks.push(url.searchParams);
    waiting.shift()?.(url.searchParams);
    res.writeHead(200, { 'content-type': 'text/plain' });
    res.end('You can close this page.');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    base,
    callbacks,
    nextCallback: () => new Promise((resolve) => waiting.push(resolve)),
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

/** The OAuth client state an agent keeps, in memory. */
class MemoryProvider {
  private client: any;
  private saved: any;
  private verifier = '';
  authorizationUrl: URL | undefined;
  constructor(
    private readonly redirect: string,
    private readonly name: string,
  ) {}
  get redirectUrl() {
    return this.redirect;
  }
  get clientMetadata() {
    return {
      client_name: this.name,
      redirect_uris: [this.redirect],
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      token_endpoint_auth_method: 'none',
    };
  }
  clientInformation() {
    return this.client;
  }
  saveClientInformation(info: unknown) {
    this.client = info;
  }
  tokens() {
    return this.saved;
  }
  saveTokens(tokens: unknown) {
    this.saved = tokens;
  }
  redirectToAuthorization(url: URL) {
    this.authorizationUrl = url;
  }
  saveCodeVerifier(verifier: string) {
    this.verifier = verifier;
  }
  codeVerifier() {
    return this.verifier;
  }
}

type Kind = 'sdk 1.x (2025-11-25)' | 'client 2.x (2026-07-28)';

interface Connected {
  callTool(name: string, args: Record<string, unknown>): Promise<{ isError?: boolean; structuredContent?: any }>;
  listTools(): Promise<{ tools: { name: string }[] }>;
  close(): Promise<void>;
}

/** Connects with the provider; undefined when the client must first send the person to sign in. */
async function connect(
  kind: Kind,
  provider: MemoryProvider,
  headers: Record<string, string>,
): Promise<Connected | undefined> {
  const url = new URL('/mcp', inject('baseUrl'));
  const info = { name: 'oauth-e2e', version: '1.0.0' };
  try {
    if (kind.startsWith('sdk')) {
      const client = new ClientV1(info);
      await client.connect(new TransportV1(url, { authProvider: provider, requestInit: { headers } }));
      return {
        callTool: (name, args) => client.callTool({ name, arguments: args }) as never,
        listTools: () => client.listTools(),
        close: () => client.close(),
      };
    }
    const client = new ClientV2(info, { versionNegotiation: { mode: 'auto' } });
    await client.connect(new TransportV2(url, { authProvider: provider as never, requestInit: { headers } }));
    return {
      callTool: (name, args) => client.callTool({ name, arguments: args }),
      listTools: () => client.listTools(),
      close: () => client.close(),
    };
  } catch (error) {
    if (error instanceof UnauthorizedV1 || error instanceof UnauthorizedV2) return undefined;
    throw error;
  }
}

async function finishAuth(kind: Kind, provider: MemoryProvider, callback: URLSearchParams): Promise<void> {
  const url = new URL('/mcp', inject('baseUrl'));
  if (kind.startsWith('sdk')) await new TransportV1(url, { authProvider: provider }).finishAuth(callback.get('code')!);
  else await new TransportV2(url, { authProvider: provider as never }).finishAuth(callback);
}

let browser: Browser;
let page: Page;
let side: ClientSide;
let owner: SignedUp;
let profile: { id: string; username: string };
const pageErrors: string[] = [];

beforeAll(async () => {
  owner = await signUp('Agent Owner');
  profile = await createProfile(owner.token);
  side = await clientSide();
  browser = await launchBrowser();
  page = browser.context.pages()[0] ?? (await browser.context.newPage());
  page.on('pageerror', (error) => pageErrors.push(error.message));
  page.setDefaultTimeout(10_000);
});

afterAll(async () => {
  await browser?.close();
  await side?.close();
});

/** The person's part: sign in if asked, choose the workspace, the profile and two scopes, Approve. */
async function consent(authorizationUrl: URL, expectedClient: string): Promise<void> {
  await page.goto(authorizationUrl.href);
  const email = page.getByLabel('Email');
  if (await email.isVisible().catch(() => false)) {
    await email.fill(owner.email);
    await page.getByLabel('Password').fill(owner.password);
    await page.getByRole('button', { name: 'Log in' }).click();
  }
  await expect
    .poll(() => page.getByRole('heading', { level: 1 }).textContent())
    .toBe(`${expectedClient} asks for access`);
  await page.getByRole('radio', { name: owner.workspace.name }).check();
  await page.getByRole('checkbox', { name: `@${profile.username}` }).check();
  for (const box of await page.getByRole('group', { name: 'What it may do' }).getByRole('checkbox').all())
    await box.uncheck();
  await page.getByRole('checkbox', { name: /\bposts:read$/ }).check();
  await page.getByRole('checkbox', { name: /\bposts:write$/ }).check();
  await page.getByRole('button', { name: 'Approve' }).click();
}

describe.each<Kind>(['sdk 1.x (2025-11-25)', 'client 2.x (2026-07-28)'])('an agent with the %s', (kind) => {
  it('signs in through the consent page, calls tools as the approved profile, and stops once disconnected', async () => {
    // Dynamic Client Registration: both clients accept a metadata document's URL only over https
    // (client metadata documents are tested over raw HTTP, served from 127.0.0.1).
    const name = `Agent ${kind}`;
    const provider = new MemoryProvider(`${side.base}/callback`, name);
    const headers = { 'X-Profile-Id': profile.id };

    expect(await connect(kind, provider, headers)).toBeUndefined();
    expect(provider.authorizationUrl?.href).toMatch(new RegExp(`^${inject('baseUrl')}/oauth/authorize\\?`));
    expect(provider.authorizationUrl?.searchParams.get('code_challenge_method')).toBe('S256');

    const callback = side.nextCallback();
    await consent(provider.authorizationUrl!, name);
    const params = await callback;
    // The receiver has the request before the page has loaded its answer: a navigation started now would be cut off.
    await page.waitForURL((url) => url.pathname === '/callback');
    expect(params.get('iss')).toBe(inject('baseUrl'));
    expect(params.get('code')).toBeTruthy();
    await finishAuth(kind, provider, params);

    const mcp = await connect(kind, provider, headers);
    expect(mcp).toBeDefined();
    const names = (await mcp!.listTools()).tools.map((t) => t.name);
    expect(names).toContain('create_post');
    expect(names).not.toContain('follow_profile');
    const created = await mcp!.callTool('create_post', { body: `hello over OAuth (${kind})` });
    expect(created.isError).toBeFalsy();
    expect(created.structuredContent.post.profile_id).toBe(profile.id);

    // The owner disconnects it in the console; its next call is refused.
    await page.goto(`${inject('baseUrl')}/console/#/w/${owner.workspace.id}/apps`);
    const row = page.getByRole('row', { name });
    await row.getByRole('button', { name: 'Disconnect' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Disconnect' }).click();
    await expect.poll(() => page.getByRole('status').textContent()).toMatch(/is disconnected/);
    await expect(mcp!.callTool('create_post', { body: 'after disconnect' })).rejects.toThrow();
    await mcp!.close().catch(() => undefined);

    const grants = await call('GET', `/v1/workspaces/${owner.workspace.id}/oauth-grants`, { token: owner.token });
    expect(grants.body.data.items).toEqual([]);
    expect(pageErrors).toEqual([]);
  });
});
