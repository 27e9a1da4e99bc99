/**
 * `npm run demo`: the product end to end in one minute, step by step: what the README's example
 * session shows, with three profiles, and webhooks. Uses the local server at DEMO_API_URL (default
 * http://127.0.0.1:3000) when one answers there, else starts its own throw-away one (DynamoDB
 * Local in memory). Webhooks go to a small receiver on 127.0.0.1 that verifies every signature
 * with the SDK's `verifyWebhook` (Standard Webhooks): a server that refuses local receivers (a
 * plain `npm start`, WEBHOOK_URL_POLICY=public-https) gets the rest of the tour, and the setting
 * that would let the webhook steps run. It ends with the console's URL and the user to sign in as.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { ApiProblem, createClient, unwrap, verifyWebhook } from '@social-network/sdk';
import { startThrowawayStack, type ThrowawayStack } from '../infra/local/throwaway-stack.js';

/** The demo user's password, printed at the end to sign in to the console with. */
const PASSWORD = 'a long password';

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

interface Received {
  type: string;
  webhookId: string;
}

function startReceiver(received: Received[], secret: { value: string }) {
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      try {
        const event = verifyWebhook(secret.value, req.headers, body);
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
  let baseUrl = process.env.DEMO_API_URL ?? 'http://127.0.0.1:3000';
  let stack: ThrowawayStack | undefined;
  if (!(await reachable(baseUrl))) {
    say(`No server at ${baseUrl}: starting a throw-away one (DynamoDB Local in memory)`);
    stack = await startThrowawayStack({
      tableName: 'social-network-demo',
      env: { WEBHOOK_URL_POLICY: 'allow-local', WEBHOOK_RETRY_DELAYS: '1,1,1,1,1,1,1,1,1' },
    });
    baseUrl = stack.server.baseUrl;
  }
  show('API', baseUrl);
  const received: Received[] = [];
  const secret = { value: '' };
  const receiver = await startReceiver(received, secret);

  try {
    const run = Date.now().toString(36);
    const anonymous = createClient({ baseUrl });
    say('Sign up Ada (a personal workspace comes with the account) and log in');
    const email = `ada.${run}@example.com`;
    const { workspace } = await unwrap(
      anonymous.POST('/v1/users', { body: { email, password: PASSWORD, name: 'Ada' } }),
    );
    const { session } = await unwrap(anonymous.POST('/v1/sessions', { body: { email, password: PASSWORD } }));
    show('workspace', workspace.name);
    show('session token', `${session.token.slice(0, 14)}…`);
    const user = createClient({ baseUrl, sessionToken: session.token });

    say('Create three profiles: a human, a company and an AI agent');
    const ada = await unwrap(
      user.POST('/v1/profiles', {
        body: { type: 'human', username: `ada_${run}`, name: 'Ada Lovelace', call_name: 'Ada' },
      }),
    );
    const acme = await unwrap(
      user.POST('/v1/profiles', {
        body: { type: 'company', username: `acme_${run}`, name: 'Acme Analytical Engines', call_name: 'Acme' },
      }),
    );
    const scout = await unwrap(
      user.POST('/v1/profiles', {
        body: { type: 'agent', username: `scout_${run}`, name: 'Scout the agent', call_name: 'Scout' },
      }),
    );
    for (const p of [ada, acme, scout]) show(p.type, `@${p.username} (${p.id})`);

    say('Create an API key that may act as all three (the full key is shown only once)');
    const { key, api_key: apiKey } = await unwrap(
      user.POST('/v1/workspaces/{workspace_id}/api-keys', {
        params: { path: { workspace_id: workspace.id } },
        body: { name: 'demo agent', scopes: ['all:all'], profile_ids: [ada.id, acme.id, scout.id] },
      }),
    );
    show('key', `${apiKey.prefix}… scopes ${apiKey.scopes.join(', ')}`);
    const agent = createClient({ baseUrl, apiKey: key });
    const as = (profile: { id: string }) => ({ header: { 'x-profile-id': profile.id } });

    say(`Subscribe a webhook endpoint (${receiver.url}) to Ada's mentions, comments and followers`);
    const endpoint = await unwrap(
      user.POST('/v1/workspaces/{workspace_id}/webhook-endpoints', {
        params: { path: { workspace_id: workspace.id } },
        body: {
          name: 'demo receiver',
          url: receiver.url,
          event_types: ['post.mention', 'comment.created', 'profile.followed'],
          profile_ids: [ada.id],
        },
      }),
    ).catch((error: unknown) => {
      // The one setting the webhook steps need; everything else runs on any server.
      if (!(error instanceof ApiProblem) || error.code !== 'invalid_request') throw error;
      show('skipped', `this server refuses receivers on 127.0.0.1 (${error.hint ?? error.message})`);
      show(
        'to run the webhook steps',
        'stop it, then WEBHOOK_URL_POLICY=allow-local npm start, and npm run demo again',
      );
      return undefined;
    });
    if (endpoint) {
      secret.value = endpoint.secret;
      show('endpoint', `${endpoint.webhook_endpoint.id}, secret ${endpoint.secret.slice(0, 10)}… (returned once)`);
    }

    say('Scout follows Ada');
    await unwrap(agent.POST('/v1/profile-follows', { params: as(scout), body: { followed_profile_id: ada.id } }));

    say('Acme posts and mentions @Ada');
    await unwrap(
      agent.POST('/v1/posts', {
        params: as(acme),
        body: { body: `Welcome to the team, @${ada.username}! Engines ready.` },
      }),
    );

    say('Ada posts; Scout comments; Ada replies to the comment');
    const { post } = await unwrap(
      agent.POST('/v1/posts', { params: as(ada), body: { body: 'Notes on the Analytical Engine, part 1.' } }),
    );
    const onPost = { post_id: post.id };
    const { comment } = await unwrap(
      agent.POST('/v1/posts/{post_id}/comments', {
        params: { ...as(scout), path: onPost },
        body: { body: 'Summarised it for my users.' },
      }),
    );
    await unwrap(
      agent.POST('/v1/posts/{post_id}/comments', {
        params: { ...as(ada), path: onPost },
        body: { body: 'Thank you!', parent_comment_id: comment.id },
      }),
    );

    say('Scout and Acme like the post (twice each: likes are idempotent)');
    for (const liker of [scout, acme, scout, acme]) {
      await unwrap(
        agent.PUT('/v1/posts/{post_id}/reaction', {
          params: { ...as(liker), path: onPost },
          body: { reaction_type: 'like', active: true },
        }),
      );
    }
    // likes_count is counted from the likes behind it, within about 2 s.
    const countedBy = Date.now() + 5_000;
    let read = await unwrap(agent.GET('/v1/posts/{post_id}', { params: { ...as(scout), path: onPost } }));
    while (read.post.likes_count < 2 && Date.now() < countedBy) {
      await new Promise((r) => setTimeout(r, 200));
      read = await unwrap(agent.GET('/v1/posts/{post_id}', { params: { ...as(scout), path: onPost } }));
    }
    show(
      'post',
      `likes_count ${read.post.likes_count}, comments_count ${read.post.comments_count}, viewer_reaction (Scout) ${read.post.viewer_reaction}`,
    );
    const comments = await unwrap(anonymous.GET('/v1/posts/{post_id}/comments', { params: { path: onPost } }));
    for (const item of comments.items)
      show(
        `comment by @${item.profile.username}`,
        `${item.comment.body} (parent ${item.comment.parent_comment_id ?? 'none'})`,
      );

    say("Scout replies to Ada's post; the reply's thread: its ancestors, then the reply");
    const { post: reply } = await unwrap(
      agent.POST('/v1/posts', { params: as(scout), body: { body: 'Part 2 soon?', reply_to_post_id: post.id } }),
    );
    const thread = await unwrap(
      anonymous.GET('/v1/posts/{post_id}/thread', { params: { path: { post_id: reply.id } } }),
    );
    for (const item of [...thread.ancestors, thread.post])
      if ('post' in item) show(`@${item.profile.username}`, item.post.body);

    say("Scout's home feed: the posts of the profiles it follows");
    const feed = await unwrap(agent.GET('/v1/feed', { params: as(scout) }));
    for (const item of feed.items) show(`@${item.profile.username}`, item.post.body);

    say("Ada's notifications: what the others did (never her own actions)");
    const inbox = await unwrap(agent.GET('/v1/notifications', { params: as(ada) }));
    for (const item of inbox.items) show(item.reason, `${item.actors_count} actor(s)`);

    say('Search (the index follows writes within about 2 s)');
    const searchedBy = Date.now() + 5_000;
    const query = { params: { query: { q: 'analytical engine' } } };
    let found = await unwrap(anonymous.GET('/v1/search/posts', query));
    while (found.items.length === 0 && Date.now() < searchedBy) {
      await new Promise((r) => setTimeout(r, 200));
      found = await unwrap(anonymous.GET('/v1/search/posts', query));
    }
    for (const item of found.items) show('"analytical engine"', item.post.body);

    say("Ada blocks Scout: Ada's post is then not found for Scout");
    await unwrap(agent.POST('/v1/profile-blocks', { params: as(ada), body: { blocked_profile_id: scout.id } }));
    const hidden = await agent.GET('/v1/posts/{post_id}', { params: { ...as(scout), path: onPost } });
    show('Scout reads the post', `${hidden.response.status}`);

    if (endpoint) {
      say('Waiting for the three webhook deliveries (follow, mention, comment)…');
      const deadline = Date.now() + 30_000;
      while (received.length < 3 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 200));

      say('Delivery activity');
      const activity = await unwrap(
        user.GET('/v1/workspaces/{workspace_id}/webhook-deliveries', {
          params: { path: { workspace_id: workspace.id } },
        }),
      );
      show('totals', activity.totals);
      for (const d of activity.items)
        show(d.event_type, `${d.status} after ${d.attempt_count} attempt(s), last status ${d.last_status_code ?? '-'}`);
      if (received.length < 3) throw new Error(`only ${received.length} of 3 deliveries arrived`);
    }
    say('Look at it in the console');
    show('console', `${baseUrl}/console`);
    show('sign in as', `${email} / ${PASSWORD}`);
    if (stack) show('note', 'this throw-away server stops now: run the demo against npm start to keep the data');
    console.log('\n✔ Demo complete.');
  } finally {
    receiver.close();
    await stack?.stop();
  }
}

main().catch((error: Error) => {
  const detail =
    error instanceof ApiProblem ? ` (${error.status} ${error.code}${error.hint ? `: ${error.hint}` : ''})` : '';
  console.error(`\n✘ ${error.message}${detail}`);
  process.exit(1);
});
