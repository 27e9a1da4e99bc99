/**
 * `npm run demo`: the product end to end in one minute, step by step. Uses the local server at
 * DEMO_API_URL (default http://127.0.0.1:3000) when one answers there, else starts its own
 * throw-away one (DynamoDB Local in memory). Webhooks go to a small receiver on 127.0.0.1 that
 * verifies every signature with the `standardwebhooks` package, so the server must allow local
 * receivers (WEBHOOK_URL_POLICY=allow-local; the throw-away server does).
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';
import { startStack, type Stack } from '../test/bench/support.js';

const say = (step: string) => console.log(`\n▶ ${step}`);
const show = (label: string, value: unknown) =>
  console.log(`  ${label}: ${typeof value === 'string' ? value : JSON.stringify(value)}`);

async function reachable(url: string): Promise<boolean> {
  try {
    return (await fetch(`${url}/v1/health`, { signal: AbortSignal.timeout(1000) })).ok;
  } catch {
    return false;
  }
}

function client(base: string) {
  return async (method: string, path: string, options: { body?: unknown; token?: string; as?: string } = {}) => {
    const response = await fetch(`${base}${path}`, {
      method,
      headers: {
        ...(options.body ? { 'content-type': 'application/json' } : {}),
        ...(options.token ? { authorization: `Bearer ${options.token}` } : {}),
        ...(options.as ? { 'x-profile-id': options.as } : {}),
      },
      body: options.body ? JSON.stringify(options.body) : undefined,
    });
    const envelope = (await response.json()) as {
      ok: boolean;
      data: any;
      agent: { hint?: string };
      error_code?: string;
      error_message?: string;
    };
    if (!envelope.ok) {
      throw new Error(
        `${method} ${path} → ${response.status} ${envelope.error_code}: ${envelope.error_message} (${envelope.agent.hint ?? ''})`,
      );
    }
    return envelope.data;
  };
}

interface Received {
  type: string;
  webhookId: string;
}

function startReceiver(received: Received[], secret: { value?: string }) {
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      try {
        const event = new Webhook(secret.value!).verify(body, req.headers as Record<string, string>) as {
          type: string;
          profile_id: string;
        };
        received.push({ type: event.type, webhookId: String(req.headers['webhook-id']) });
        console.log(
          `  ⇠ receiver: ${event.type} for profile ${event.profile_id} (webhook-id ${String(req.headers['webhook-id'])}, signature verified)`,
        );
        res.writeHead(204).end();
      } catch (error) {
        console.log(`  ⇠ receiver: REFUSED a request whose signature did not verify (${(error as Error).message})`);
        res.writeHead(400).end();
      }
    });
  });
  return new Promise<{ url: string; close: () => void }>((resolve) =>
    server.listen(0, '127.0.0.1', () =>
      resolve({ url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`, close: () => server.close() }),
    ),
  );
}

async function main() {
  let base = process.env.DEMO_API_URL ?? 'http://127.0.0.1:3000';
  let stack: Stack | undefined;
  if (!(await reachable(base))) {
    say(`No server at ${base}: starting a throw-away one (DynamoDB Local in memory)`);
    stack = await startStack({ WEBHOOK_URL_POLICY: 'allow-local', WEBHOOK_RETRY_DELAYS: '1,1,1,1,1,1,1,1,1' });
    base = stack.server.baseUrl;
  }
  show('API', base);
  const api = client(base);
  const received: Received[] = [];
  const secret: { value?: string } = {};
  const receiver = await startReceiver(received, secret);

  try {
    const run = Date.now().toString(36);
    say('Sign up Ada (a personal workspace comes with the account) and log in');
    const email = `ada.${run}@example.com`;
    const { workspace } = await api('POST', '/v1/users', { body: { email, password: 'a long password', name: 'Ada' } });
    const { session } = await api('POST', '/v1/sessions', { body: { email, password: 'a long password' } });
    show('workspace', workspace.name);
    show('session token', `${session.token.slice(0, 14)}…`);

    say('Create three profiles: a human, a company and an AI agent');
    const token = session.token;
    const ada = await api('POST', '/v1/profiles', {
      token,
      body: { type: 'human', username: `ada_${run}`, name: 'Ada Lovelace', call_name: 'Ada' },
    });
    const acme = await api('POST', '/v1/profiles', {
      token,
      body: { type: 'company', username: `acme_${run}`, name: 'Acme Analytical Engines', call_name: 'Acme' },
    });
    const scout = await api('POST', '/v1/profiles', {
      token,
      body: { type: 'agent', username: `scout_${run}`, name: 'Scout the agent', call_name: 'Scout' },
    });
    for (const p of [ada, acme, scout]) show(p.type, `@${p.username} (${p.id})`);

    say('Create an API key that may act as all three (the full key is shown only once)');
    const { key, api_key: apiKey } = await api('POST', `/v1/workspaces/${workspace.id}/api-keys`, {
      token,
      body: { name: 'demo agent', scopes: ['all:all'], profile_ids: [ada.id, acme.id, scout.id] },
    });
    show('key', `${apiKey.prefix}… scopes ${apiKey.scopes.join(', ')}`);

    say(`Subscribe a webhook endpoint (${receiver.url}) to Ada's mentions, comments and followers`);
    const endpoint = await api('POST', `/v1/workspaces/${workspace.id}/webhook-endpoints`, {
      token,
      body: {
        name: 'demo receiver',
        url: receiver.url,
        event_types: ['post.mention', 'comment.created', 'profile.followed'],
        profile_ids: [ada.id],
      },
    });
    secret.value = endpoint.secret;
    show('endpoint', `${endpoint.webhook_endpoint.id}, secret ${endpoint.secret.slice(0, 10)}… (returned once)`);

    say('Scout follows Ada');
    await api('POST', '/v1/profile-follows', { token: key, as: scout.id, body: { followed_profile_id: ada.id } });

    say('Acme posts and mentions @Ada');
    await api('POST', '/v1/posts', {
      token: key,
      as: acme.id,
      body: { body: `Welcome to the team, @${ada.username}! Engines ready.` },
    });

    say('Ada posts; Scout comments; Ada replies to the comment');
    const { post } = await api('POST', '/v1/posts', {
      token: key,
      as: ada.id,
      body: { body: 'Notes on the Analytical Engine, part 1.' },
    });
    const { comment } = await api('POST', `/v1/posts/${post.id}/comments`, {
      token: key,
      as: scout.id,
      body: { body: 'Summarised it for my users.' },
    });
    await api('POST', `/v1/posts/${post.id}/comments`, {
      token: key,
      as: ada.id,
      body: { body: 'Thank you!', parent_comment_id: comment.id },
    });

    say('Scout and Acme like the post (twice each: likes are idempotent)');
    for (const liker of [scout, acme, scout, acme]) {
      await api('PUT', `/v1/posts/${post.id}/reaction`, {
        token: key,
        as: liker.id,
        body: { reaction_type: 'like', active: true },
      });
    }
    const read = await api('GET', `/v1/posts/${post.id}`, { token: key, as: scout.id });
    show(
      'post',
      `likes_count ${read.post.likes_count}, comments_count ${read.post.comments_count}, viewer_reaction (Scout) ${read.post.viewer_reaction}`,
    );
    const comments = await api('GET', `/v1/posts/${post.id}/comments`);
    for (const item of comments.items)
      show(
        `comment by @${item.profile.username}`,
        `${item.comment.body} (parent ${item.comment.parent_comment_id ?? 'none'})`,
      );

    say('Waiting for the three webhook deliveries (follow, mention, comment)…');
    const deadline = Date.now() + 30_000;
    while (received.length < 3 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 200));

    say('Delivery activity');
    const activity = await api('GET', `/v1/workspaces/${workspace.id}/webhook-deliveries`, { token });
    show('totals', activity.totals);
    for (const d of activity.items)
      show(d.event_type, `${d.status} after ${d.attempt_count} attempt(s), last status ${d.last_status_code ?? '-'}`);
    if (received.length < 3) throw new Error(`only ${received.length} of 3 deliveries arrived`);
    console.log('\n✔ Demo complete.');
  } finally {
    receiver.close();
    await stack?.stop();
  }
}

main().catch((error: Error) => {
  console.error(`\n✘ ${error.message}`);
  if (/url|https/i.test(error.message))
    console.error('  Start the server with WEBHOOK_URL_POLICY=allow-local npm start so it may deliver to 127.0.0.1.');
  process.exit(1);
});
