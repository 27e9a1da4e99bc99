import { createClient, unwrap, verifyWebhook } from '@social-network/sdk';

const api = createClient({ baseUrl: 'http://127.0.0.1:3000', apiKey: 'sk_…', profileId: '<profile id>' });
const { post } = await unwrap(api.POST('/v1/posts', { body: { body: 'Hello from the typed SDK.' } }));
const read = await unwrap(api.GET('/v1/posts/{post_id}', { params: { path: { post_id: post.id } } }));
console.log(read.post.body, read.post.likes_count);

// A webhook receiver (any server with fetch's Request): the raw body, verified before it is trusted.
export async function receive(request: Request): Promise<Response> {
  const event = verifyWebhook('whsec_…', request.headers, await request.text()); // throws when forged
  // `type` tells the events apart: each branch knows its `data` (here a Post and its author's Profile).
  if (event.type === 'post.mention') console.log(`@${event.data.profile.username}:`, event.data.post.body_preview);
  return new Response(null, { status: 204 });
}
