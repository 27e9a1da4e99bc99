/**
 * What an export archive holds (API.md "The archive is a ZIP"), written file by file through an
 * ArchiveWriter: every object in the API's own shapes, made by the presenters the routes use, and
 * read page by page through the stores the routes read, so the account is never in memory at once
 * (what is kept is the ids of the media its profiles show, a few dozen bytes each).
 */
import { CONVERSATION_BOXES } from '../domain/conversations.js';
import { ARCHIVE_README } from '../domain/exports.js';
import type { ProfileRecord, UserRecord } from '../domain/entities.js';
import type { CommentRecord, PostRecord } from '../domain/posts.js';
import { viewerFilterOf } from '../domain/safety.js';
import { presentComment } from '../http/present/comments.js';
import { presentMessage } from '../http/present/messages.js';
import { presentApiKey, presentUser } from '../http/present/identity.js';
import { presentMedia } from '../http/present/media.js';
import { presentNotification } from '../http/present/notifications.js';
import { presentPost } from '../http/present/posts.js';
import { presentProfileWithCounts } from '../http/present/profiles.js';
import { presentVersion } from '../http/present/versions.js';
import { presentWebhooks } from '../http/present/webhooks.js';
import { hydrateNotifications, visibleToRecipient } from '../notifications/hydrate.js';
import { mapLimit } from '../pipeline/concurrency.js';
import { listApiKeys } from '../store/api-keys.js';
import { likedComments, listProfileComments } from '../store/comments.js';
import { listConversations } from '../store/conversations.js';
import { listConversation } from '../store/messages.js';
import { followersOf, followingOf, getFollowCounts, type FollowListItem } from '../store/follows.js';
import { getMedia } from '../store/media.js';
import { listNotifications } from '../store/notifications.js';
import { likedPosts, listProfileDrafts, listProfilePosts } from '../store/posts.js';
import { listProfileLikes } from '../store/reactions.js';
import { listWorkspaceProfiles } from '../store/profiles.js';
import { listBlocks, listMutes, loadSafetySets, type SafetyListItem } from '../store/safety.js';
import { listVersions } from '../store/versions.js';
import { listWorkspaceEndpoints } from '../store/webhook-endpoints.js';
import { listMemberships } from '../store/workspaces.js';
import { endpointProfiles } from '../webhooks/workspace-endpoints.js';
import { operatorOf } from '../operators/operator-of.js';
import { getAgentDeclaration } from '../store/agent-cards.js';
import { getOperatorSlot } from '../store/operators.js';
import type { ArchiveWriter } from './archive-writer.js';
import { allPages, concatPages, mapPages } from './pages.js';

/** The media files as served (their public URLs), read as a stream. */
export type MediaReader = (url: string) => AsyncIterable<Uint8Array>;

/** Objects whose earlier versions are read at once (one Query each). */
const HISTORY_READS_AT_ONCE = 8;

/**
 * Every earlier version of a post or comment, as the history route answers them. One never edited
 * has none (an edit sets edited_at in the transaction that keeps the version): no Query for it.
 */
async function historyOf(object: { id: string; edited_at: string | null }) {
  if (object.edited_at === null) return [];
  const versions = [];
  for await (const page of allPages((request) => listVersions(object.id, request))) versions.push(...page);
  return versions.map(presentVersion);
}

/** The ids of the posts and comments a profile likes (ids only: a few dozen bytes each), by its likes path. */
async function likesOf(profileId: string): Promise<{ posts: string[]; comments: string[] }> {
  const likes = { posts: [] as string[], comments: [] as string[] };
  for await (const page of allPages((r) => listProfileLikes(profileId, r)))
    for (const like of page) (like.target === 'post' ? likes.posts : likes.comments).push(like.targetId);
  return likes;
}

/** An archive's list entry of a follow, block or mute: what an import reads back. */
const relation = (profile: ProfileRecord, since: string) => ({
  profile_id: profile.id,
  username: profile.username,
  since,
});
const followEntries = (items: FollowListItem[]) => items.map((i) => relation(i.profile, i.followed_at));
const safetyEntries = (items: SafetyListItem[]) => items.map((i) => relation(i.profile, i.created_at));

async function presentPosts(profile: ProfileRecord, posts: PostRecord[], mediaIds: Set<string>) {
  for (const post of posts) for (const image of post.images) mediaIds.add(image.id);
  const liked = await likedPosts(
    posts.map((p) => p.id),
    profile.id,
  );
  return mapLimit(posts, HISTORY_READS_AT_ONCE, async (post) => ({
    ...presentPost(post, liked.has(post.id)),
    history: await historyOf(post),
  }));
}

async function presentComments(profile: ProfileRecord, comments: CommentRecord[]) {
  const liked = await likedComments(
    comments.map((c) => c.id),
    profile.id,
  );
  return mapLimit(comments, HISTORY_READS_AT_ONCE, async (comment) => ({
    ...presentComment(comment, liked.has(comment.id)),
    history: await historyOf(comment),
  }));
}

/**
 * Every message of the profile's conversations, both directions, a conversation after another:
 * those of its inbox and its requests (one it hid is off both until its next message).
 */
async function* messagePages(profileId: string) {
  for (const box of CONVERSATION_BOXES)
    for await (const conversations of allPages((r) => listConversations(profileId, box, r)))
      for (const conversation of conversations)
        yield* mapPages(
          allPages((r) => listConversation(profileId, conversation.other_profile_id, r)),
          (messages) => messages.map(presentMessage),
        );
}

/** The media a profile shows: its avatar and banner variants. */
const profileMediaIds = (profile: ProfileRecord): string[] =>
  [profile.media_ids.avatar, profile.media_ids.banner].flatMap((slot) =>
    [slot.light, slot.dark].filter((id): id is string => id !== undefined),
  );

/** The last segment of a file's URL (`source.jpg`). */
const fileName = (url: string) => new URL(url).pathname.split('/').pop() || 'file';

async function writeMedia(writer: ArchiveWriter, dir: string, ids: string[], now: Date, read: MediaReader) {
  const records = (await mapLimit(ids, HISTORY_READS_AT_ONCE, (id) => getMedia(id, now))).filter(
    (m) => m !== undefined,
  );
  await writer.json(`${dir}media.json`, records.map(presentMedia));
  for (const media of records) {
    if (!media.urls) continue;
    await writer.file(`${dir}media/${media.id}/${fileName(media.urls.source_url)}`, read(media.urls.source_url), true);
  }
}

async function writeProfile(writer: ArchiveWriter, profile: ProfileRecord, now: Date, readMedia: MediaReader) {
  const dir = `profiles/${profile.username}/`;
  const id = profile.id;
  const [counts, slot, declaration] = await Promise.all([
    getFollowCounts(id),
    getOperatorSlot(id),
    profile.type === 'agent' ? getAgentDeclaration(id) : undefined,
  ]);
  await writer.json(
    `${dir}profile.json`,
    presentProfileWithCounts(profile, counts, await operatorOf(slot), declaration),
  );
  const mediaIds = new Set(profileMediaIds(profile));
  await writer.jsonArray(
    `${dir}posts.json`,
    mapPages(
      concatPages(
        allPages((r) => listProfilePosts(id, r)),
        allPages((r) => listProfileDrafts(id, r)),
      ),
      (posts) => presentPosts(profile, posts, mediaIds),
    ),
  );
  await writer.jsonArray(
    `${dir}comments.json`,
    mapPages(
      allPages((r) => listProfileComments(id, r)),
      (comments) => presentComments(profile, comments),
    ),
  );
  await writer.json(`${dir}likes.json`, await likesOf(id));
  await writer.jsonArray(
    `${dir}following.json`,
    mapPages(
      allPages((r) => followingOf(id, r)),
      followEntries,
    ),
  );
  await writer.jsonArray(
    `${dir}followers.json`,
    mapPages(
      allPages((r) => followersOf(id, r)),
      followEntries,
    ),
  );
  await writer.jsonArray(
    `${dir}blocks.json`,
    mapPages(
      allPages((r) => listBlocks(id, r)),
      safetyEntries,
    ),
  );
  await writer.jsonArray(
    `${dir}mutes.json`,
    mapPages(
      allPages((r) => listMutes(id, r)),
      safetyEntries,
    ),
  );
  await writer.jsonArray(`${dir}messages.json`, messagePages(id));
  // As the list answers them: the profile's blocks and mutes hide their actors there, and so here.
  const viewer = viewerFilterOf(await loadSafetySets(id));
  await writer.jsonArray(
    `${dir}notifications.json`,
    mapPages(
      allPages((r) => listNotifications(id, {}, r, now)),
      async (items) => (await hydrateNotifications(visibleToRecipient(items, viewer))).map(presentNotification),
    ),
  );
  await writeMedia(writer, dir, [...mediaIds], now, readMedia);
}

async function writeWorkspace(writer: ArchiveWriter, workspaceId: string) {
  const dir = `workspaces/${workspaceId}/`;
  const endpoints = await listWorkspaceEndpoints(workspaceId);
  const profiles = await endpointProfiles(endpoints);
  await writer.json(
    `${dir}webhook-endpoints.json`,
    endpoints.map((endpoint) => presentWebhooks.endpoint(endpoint, profiles)),
  );
  await writer.jsonArray(
    `${dir}api-keys.json`,
    mapPages(
      allPages((r) => listApiKeys(workspaceId, r)),
      (keys) => keys.map(presentApiKey),
    ),
  );
}

/** Writes the whole archive of the user's account (README, account, owned workspaces and their profiles). */
export async function writeAccountArchive(
  writer: ArchiveWriter,
  user: UserRecord,
  now: Date,
  readMedia: MediaReader,
): Promise<void> {
  const memberships = await listMemberships(user.id);
  await writer.file('README.txt', [new TextEncoder().encode(ARCHIVE_README)]);
  await writer.json('account.json', {
    user: presentUser(user),
    workspaces: memberships.map((m) => ({ id: m.workspace_id, name: m.workspace_name, role: m.role })),
  });
  for (const membership of memberships.filter((m) => m.role === 'owner')) {
    for await (const profiles of allPages((r) => listWorkspaceProfiles(membership.workspace_id, r)))
      for (const profile of profiles) await writeProfile(writer, profile, now, readMedia);
    await writeWorkspace(writer, membership.workspace_id);
  }
}
