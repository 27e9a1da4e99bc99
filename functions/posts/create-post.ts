import { newId } from '../../shared/domain/ids.js';
import { extractMentions } from '../../shared/domain/mentions.js';
import { rootOf, type PostRecord } from '../../shared/domain/posts.js';
import { ApiError } from '../../shared/http/errors.js';
import { httpHandler } from '../../shared/http/handler.js';
import { presentSocial } from '../../shared/http/present-social.js';
import { socialEvents } from '../../shared/http/social-events.js';
import { profilesByUsername } from '../../shared/store/mentions.js';
import { createPost, getPost } from '../../shared/store/posts.js';
import { routes } from './routes.js';

const parentNotFound = () =>
  new ApiError('not_found', {
    message: 'The post replied to was not found.',
    hint: 'reply_to_post_id must name a published post; drafts and removed posts cannot be replied to.',
  });

export const handler = httpHandler(routes.createPost, async ({ body, auth, now }) => {
  const author = auth.actingProfile!;
  const parent = body.reply_to_post_id ? await getPost(body.reply_to_post_id) : undefined;
  if (body.reply_to_post_id && parent?.status !== 'published') throw parentNotFound();

  const at = now.toISOString();
  const post: PostRecord = {
    id: newId(),
    profile_id: author.id,
    author_workspace_id: author.workspace_id,
    kind: parent ? 'reply' : 'post',
    body: body.body,
    images: body.images.map((image) => ({ id: newId(), url: image.url, width: image.width, height: image.height, alt_text: image.alt_text ?? null })),
    reply_to_post_id: parent?.id ?? null,
    root_post_id: parent ? rootOf(parent) : null,
    reply_to_profile_id: parent?.profile_id ?? null,
    reply_to_workspace_id: parent?.author_workspace_id ?? null,
    visibility: 'public',
    status: body.status,
    published_at: body.status === 'published' ? at : null,
    reply_count: 0,
    likes_count: 0,
    comments_count: 0,
    quotes_count: 0,
    created_at: at,
    updated_at: at,
  };
  const mentioned = post.status === 'published' ? await profilesByUsername(extractMentions(post.body)) : [];
  await createPost(post, post.status === 'published' ? socialEvents.postPublished(post, author, mentioned) : []);
  return presentSocial.postWithProfile(post, author);
});
