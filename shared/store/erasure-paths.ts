/**
 * The erasure's access paths (domain/erasure.ts PROFILE_PATHS, USER_PATHS, WORKSPACE_PATHS): for
 * each, one page of the items it holds, read by the named paths of entities.ts or a partition the
 * subject's key names, and what the page reaches beyond them (erasure-reach.ts). What the erasure
 * then does to each item is erasure-items.ts's. Every page starts from a key of a subject: the cost
 * of an erasure follows the subject's data, not the table's size.
 */
import { AUDIT_RETENTION_DAYS } from '../domain/audit.js';
import { extractMentions } from '../domain/mentions.js';
import type { AccountTokenPurpose } from '../domain/account-tokens.js';
import type { ErasurePath } from '../domain/erasure.js';
import { mapLimit } from '../pipeline/concurrency.js';
import { batchGet, keyId, type ItemKey } from './batch.js';
import type { ErasureTarget } from './erasure-items.js';
import { noReach, type ErasureReach } from './erasure-reach.js';
import { itemKeyOf, partitionItems, partitionQuery, walkPage, type WalkPage } from './erasure-walk.js';
import { entities } from './entities.js';
import { recordOf, type EntityLayout, type PathParams } from './items.js';
import { entityTags, keyParts, keys } from './keys.js';
import { profilesByUsername } from './mentions.js';
import { profileLikesLayout } from './reactions.js';
import { pathQuery, queryPathItems } from './paths.js';

type Item = Record<string, unknown>;
type Cursor = Record<string, unknown> | undefined;

/** One page of a path: its items, what it reached, and where the next page starts. */
export interface PathPage extends WalkPage {
  reach: ErasureReach;
}

/** Partitions read at once for one page (a delivery's attempts, a day of the audit log). */
const PARTITIONS_AT_ONCE = 8;

const ACCOUNT_TOKEN_PURPOSES: readonly AccountTokenPurpose[] = ['verify_email', 'change_email', 'reset_password'];

type PathsOf<L> = L extends { paths: infer Ps } ? Ps : never;

/** One page of a named path. */
const onPath = <L extends EntityLayout<never, object>, N extends keyof PathsOf<L> & string>(
  layout: L,
  name: N,
  params: PathParams<PathsOf<L>[N]>,
  cursor: Cursor,
) => walkPage(pathQuery(layout, name, params).input, cursor);

const plain = async (page: Promise<WalkPage>, reach: ErasureReach = noReach()): Promise<PathPage> => ({
  ...(await page),
  reach,
});

const present = <T>(values: readonly (T | null | undefined)[]): T[] => values.filter((v): v is T => v != null);

/** The page of `path` of `subject` from `cursor`. */
export async function erasurePathPage(
  path: ErasurePath,
  subject: string,
  cursor: Cursor,
  target: ErasureTarget,
): Promise<PathPage> {
  switch (path) {
    case 'followers': {
      // A follower's partitions hold nothing naming the subject (erasure-reach.ts), but its set of
      // read-time authors names it when the subject's posts were merged at read time.
      const page = await onPath(entities.follow, 'followersOf', { followed_profile_id: subject }, cursor);
      const followers = page.items.map((f) => f.follower_profile_id as string);
      return { ...page, reach: { profile_ids: [], keys: followers.map((id) => keys.feedLargeAuthors(id)) } };
    }
    case 'following': {
      const page = await onPath(entities.follow, 'followedBy', { follower_profile_id: subject }, cursor);
      const followed = page.items.map((f) => f.followed_profile_id as string);
      return {
        ...page,
        reach: { profile_ids: followed, keys: followed.map((id) => keys.notificationGroup(id, 'follow', id)) },
      };
    }
    case 'conversations':
      return conversationsPage(subject, cursor);
    case 'likes':
      return likesPage(subject, cursor);
    case 'posts':
      return postsPage(onPath(entities.post, 'byAuthor', { profile_id: subject }, cursor));
    case 'drafts':
      return postsPage(onPath(entities.post, 'draftsOf', { profile_id: subject }, cursor));
    case 'comments':
      return commentsPage(subject, cursor);
    case 'safety':
      return safetyPage(subject, cursor);
    case 'muted_by':
      return plain(onPath(entities.mute, 'byMuted', { muted_profile_id: subject }, cursor));
    case 'media': {
      const page = await onPath(entities.media, 'byProfile', { profile_id: subject }, cursor);
      return { ...page, reach: { profile_ids: [], keys: page.items.map((m) => keys.postImageClaim(m.id as string)) } };
    }
    case 'profile':
      return profilePage(subject, cursor, target);
    case 'inbox':
      return plain(walkPage(partitionQuery(keys.notificationInbox(subject)), cursor));
    case 'event_log':
      return plain(walkPage(partitionQuery(keys.eventLog(subject)), cursor));
    case 'feed':
      return plain(walkPage(partitionQuery(keys.feedInbox(subject)), cursor));
    case 'events':
      return plain(onPath(entities.event, 'byProfile', { profile_id: subject }, cursor));
    case 'grants': {
      const page = await onPath(entities.grant, 'byProfile', { profile_id: subject }, cursor);
      // The managers' side of its grants: a small partition, read with the first page.
      const managers = cursor ? [] : await partitionItems(keys.grantManagers(subject));
      return { ...page, items: [...page.items, ...managers], reach: noReach() };
    }
    case 'managed_grants': {
      const page = await onPath(entities.grant, 'byManager', { manager_profile_id: subject }, cursor);
      const managed = page.items.map((g) => keys.grantAccess(g.profile_id as string, subject));
      return { ...page, reach: { profile_ids: [], keys: managed } };
    }
    case 'agents':
      return agentsPage(subject, cursor);
    case 'operator_links': {
      // Each link naming it as operator, and the agent's slot a pending or accepted one holds.
      const page = await onPath(entities.operatorLink, 'byOperator', { operator_profile_id: subject }, cursor);
      const slots = page.items.map((l) => keys.operatorSlot(l.agent_profile_id as string));
      return { ...page, reach: { profile_ids: [], keys: slots } };
    }
    case 'sessions':
      return plain(onPath(entities.session, 'byUser', { user_id: subject }, cursor));
    case 'passkeys':
      return plain(onPath(entities.passkey, 'byUser', { user_id: subject }, cursor));
    case 'memberships':
      return plain(onPath(entities.membership, 'byUser', { user_id: subject }, cursor));
    case 'user':
      return userPage(subject, cursor, target);
    case 'exports':
      return plain(onPath(entities.dataExport, 'byUser', { user_id: subject }, cursor));
    case 'mails':
      return target.subjects.user
        ? plain(onPath(entities.mail, 'toAddress', { to: target.subjects.user.email }, cursor))
        : plain(Promise.resolve({ items: [] }));
    case 'workspace':
      return plain(walkPage(partitionQuery(keys.workspace(subject).pk), cursor));
    case 'api_keys':
      return plain(onPath(entities.apiKey, 'byWorkspace', { workspace_id: subject }, cursor));
    case 'endpoints':
      return withPartitions(
        onPath(entities.webhookEndpoint, 'byWorkspace', { workspace_id: subject }, cursor),
        (e) => keys.webhookEndpoint(e.id as string).pk,
      );
    case 'deliveries':
      return withPartitions(onPath(entities.webhookDelivery, 'activity', { workspace_id: subject }, cursor), (d) =>
        keys.webhookDeliveryPartition(d.id as string),
      );
    case 'oauth_grants':
      return withPartitions(
        onPath(entities.oauthGrant, 'byWorkspace', { workspace_id: subject }, cursor),
        (g) => keys.oauthGrant(g.id as string).pk,
      );
    case 'audit':
      return auditPage(subject);
    case 'revisit':
      return revisitPage(subject, cursor);
  }
}

/** The page's items and every item of the partition each one heads (an endpoint's sending state, a delivery's attempts, a grant's tokens). */
async function withPartitions(read: Promise<WalkPage>, partitionOf: (item: Item) => string): Promise<PathPage> {
  const page = await read;
  const heads = await mapLimit(page.items, PARTITIONS_AT_ONCE, (item) => partitionItems(partitionOf(item)));
  return { ...page, items: [...page.items, ...heads.flat()], reach: noReach() };
}

/** Messages of one pair read in one step: a conversation of any length is erased over as many steps as it takes. */
export const CONVERSATION_MESSAGES_PER_STEP = 500;
/** Conversations read in one step (each with up to CONVERSATION_MESSAGES_PER_STEP messages). */
const CONVERSATIONS_PER_STEP = 20;

/**
 * Where the conversations path stands: the page of its conversation partition it is on (null:
 * the first), and, while one pair's messages take more than a step, that pair and where its
 * messages go on.
 */
type ConversationsCursor = {
  conversations: Cursor | null;
  messages?: { other_profile_id: string; after: Cursor };
};

/**
 * Its conversations (and message settings), the messages of each pair, and the other sides
 * reached. A conversation's item goes in the step that reads the last of its pair's messages
 * (the other side is settled after the erased side's messages went), so a long one is read
 * a page a step, from where the step before stopped, and the same conversation page is read
 * again (without the conversations already gone) until each of its pairs is through.
 */
export async function conversationsPage(
  profileId: string,
  cursor: Cursor,
  messagesPerStep = CONVERSATION_MESSAGES_PER_STEP,
): Promise<PathPage> {
  const at = cursor as ConversationsCursor | undefined;
  const from = at?.conversations ?? undefined;
  const pairPage = (other: string, after: Cursor) =>
    walkPage(
      pathQuery(
        entities.message,
        'conversation',
        { sender_profile_id: profileId, recipient_profile_id: other },
        { pageSize: messagesPerStep, consistent: true },
      ).input,
      after,
    );
  // The conversations and the settings share the profile's conversation partition.
  const page = await walkPage(
    { ...partitionQuery(keys.messageSettings(profileId).pk), Limit: CONVERSATIONS_PER_STEP },
    from,
  );
  const conversations = page.items
    .filter((item) => item.entity === entityTags.conversation)
    .map((item) => ({ item, record: recordOf(entities.conversation, item) }));
  const going = at?.messages;
  const reads = await mapLimit(conversations, PARTITIONS_AT_ONCE, ({ record }) =>
    pairPage(record.other_profile_id, going?.other_profile_id === record.other_profile_id ? going.after : undefined),
  );
  const unfinished = reads.findIndex((read) => read.cursor !== undefined);
  // The other sides are reached once, with the step their conversation goes in (not with each page of a long one).
  const reach = (through: typeof conversations) => ({
    profile_ids: through.map((c) => c.record.other_profile_id),
    keys: [],
  });
  if (unfinished >= 0) {
    // The pairs before it are through: their conversations go; its messages read so far go, and it goes on.
    const done = conversations.slice(0, unfinished);
    const next: ConversationsCursor = {
      conversations: from ?? null,
      messages: {
        other_profile_id: conversations[unfinished]!.record.other_profile_id,
        after: reads[unfinished]!.cursor,
      },
    };
    return {
      items: [...done.map((c) => c.item), ...reads.slice(0, unfinished + 1).flatMap((read) => read.items)],
      cursor: next,
      reach: reach(done),
    };
  }
  const rest = page.cursor ? { cursor: { conversations: page.cursor } satisfies ConversationsCursor } : {};
  return { items: [...page.items, ...reads.flatMap((read) => read.items)], ...rest, reach: reach(conversations) };
}

/** Its likes; the targets' authors reached, with their notification groups of the targets. */
async function likesPage(profileId: string, cursor: Cursor): Promise<PathPage> {
  const page = await onPath(profileLikesLayout, 'byProfile', { profile_id: profileId }, cursor);
  const targets = present(page.items.map((item) => keyParts.reaction(itemKeyOf(item))));
  const targetKeys = targets.map((t) => (t.target === 'post' ? keys.post(t.targetId) : keys.comment(t.targetId)));
  const found = await batchGet(targetKeys);
  const reach = noReach();
  targets.forEach((t, i) => {
    const author = found.get(keyId(targetKeys[i]!))?.profile_id as string | undefined;
    if (!author) return;
    reach.profile_ids.push(author);
    reach.keys.push(keys.notificationGroup(author, t.target === 'post' ? 'like' : 'comment_like', t.targetId));
  });
  return { ...page, reach };
}

/**
 * Its posts (or drafts), with others' replies and quotes of them (they stay, and forget whom they
 * answered); the profiles they answered, quoted or mentioned reached (their notifications name
 * it), and its notification group of each.
 */
async function postsPage(read: Promise<WalkPage>): Promise<PathPage> {
  const page = await read;
  const posts = page.items.map((item) => recordOf(entities.post, item));
  const answers = await mapLimit(posts, PARTITIONS_AT_ONCE, async (post) => [
    ...(post.reply_count > 0 ? await queryPathItems(entities.post, 'repliesOf', { reply_to_post_id: post.id }) : []),
    // Quotes whatever the count says: the quote count folds from the stream, so a quote written just before
    // the erasure can still read 0, and once the post is gone no later pass finds its quotes again.
    ...(await queryPathItems(entities.post, 'quotesOf', { quoted_post_id: post.id })),
  ]);
  const mentioned = await profilesByUsername([...new Set(posts.flatMap((p) => extractMentions(p.body)))]);
  return {
    ...page,
    items: [...page.items, ...answers.flat()],
    reach: {
      profile_ids: [
        ...present(posts.flatMap((p) => [p.reply_to_profile_id, p.quoted_profile_id])),
        ...mentioned.map((p) => p.id),
      ],
      keys: posts.map((p) => keys.notificationGroup(p.profile_id, 'like', p.id)),
    },
  };
}

/** Its comments; the commented posts' authors reached, and its notification group of each comment. */
async function commentsPage(profileId: string, cursor: Cursor): Promise<PathPage> {
  const page = await onPath(entities.comment, 'byAuthor', { profile_id: profileId }, cursor);
  const comments = page.items.map((item) => recordOf(entities.comment, item));
  const posts = await batchGet(comments.map((c) => keys.post(c.post_id)));
  return {
    ...page,
    reach: {
      profile_ids: present([...posts.values()].map((p) => p.profile_id as string | undefined)),
      keys: comments.map((c) => keys.notificationGroup(profileId, 'comment_like', c.id)),
    },
  };
}

/** Its safety partition (blocks both ways, mutes), and the other side's item of each block. */
async function safetyPage(profileId: string, cursor: Cursor): Promise<PathPage> {
  const page = await walkPage(
    pathQuery(entities.block, 'safetyOf', { profile_id: profileId }, { consistent: true }).input,
    cursor,
  );
  const reach = noReach();
  for (const item of page.items) {
    if (item.entity === entityTags.block) {
      const other = item.blocked_profile_id as string;
      reach.profile_ids.push(other);
      reach.keys.push(keys.blockedBy(other, profileId));
    } else if (item.entity === entityTags.blockedBy) {
      const other = item.blocker_profile_id as string;
      reach.profile_ids.push(other);
      reach.keys.push(keys.block(other, profileId));
    }
  }
  return { ...page, reach };
}

/**
 * Its own partition (the profile, its counts, its agent's items; the tombstone stays), the marks
 * of its feed, its follow notifications' group, its operator's link and item of it (its slot
 * names them); and, when its workspace stays, the workspace's keys and endpoints that select it.
 */
async function profilePage(profileId: string, cursor: Cursor, target: ErasureTarget): Promise<PathPage> {
  const page = await walkPage(partitionQuery(keys.profile(profileId).pk), cursor);
  const slot = page.items.find((item) => item.entity === entityTags.operatorSlot);
  const operated = slot
    ? (await partitionItems(keys.operatedAgents(slot.operator_profile_id as string))).filter(
        (item) => item.agent_profile_id === profileId,
      )
    : [];
  const profile = page.items.find((item) => item.entity === entityTags.profile);
  const workspaceId = profile?.workspace_id as string | undefined;
  const selecting =
    workspaceId && !target.workspaceIds.has(workspaceId)
      ? [
          ...(await queryPathItems(entities.apiKey, 'byWorkspace', { workspace_id: workspaceId })),
          ...(await queryPathItems(entities.webhookEndpoint, 'byWorkspace', { workspace_id: workspaceId })),
        ].filter((item) => ((item.profile_ids as string[] | undefined) ?? []).includes(profileId))
      : [];
  return {
    ...page,
    items: [...page.items, ...operated, ...selecting],
    reach: {
      profile_ids: [],
      keys: [
        ...(slot ? [keys.operatorLink(slot.link_id as string)] : []),
        keys.feedAuthorMode(profileId),
        keys.feedLargeAuthors(profileId),
        keys.notificationGroup(profileId, 'follow', profileId),
      ],
    },
  };
}

/** The agents it operates (its operated-agents partition), with each link and the agent's slot. */
async function agentsPage(profileId: string, cursor: Cursor): Promise<PathPage> {
  const page = await walkPage(partitionQuery(keys.operatedAgents(profileId)), cursor);
  return {
    ...page,
    reach: {
      profile_ids: [],
      keys: page.items.flatMap((a) => [
        keys.operatorLink(a.link_id as string),
        keys.operatorSlot(a.agent_profile_id as string),
      ]),
    },
  };
}

/** The user's own partition, its email's claim and suppression, its account tokens and their slots. */
async function userPage(userId: string, cursor: Cursor, target: ErasureTarget): Promise<PathPage> {
  const page = await walkPage(partitionQuery(keys.user(userId).pk), cursor);
  const email = target.subjects.user?.email;
  const slots = ACCOUNT_TOKEN_PURPOSES.flatMap((purpose) =>
    present([userId, email]).map((subject) => keys.accountTokenSlot(purpose, subject)),
  );
  const held = await batchGet(slots, { consistent: true });
  const tokens: ItemKey[] = [...held.values()].map((slot) => keys.accountToken(slot.token_id as string));
  return {
    ...page,
    reach: {
      profile_ids: [],
      keys: [...slots, ...tokens, ...(email ? [keys.email(email), keys.mailSuppression(email)] : [])],
    },
  };
}

/** The workspace's audit log, every day it may still hold (one page: its days are few). */
async function auditPage(workspaceId: string): Promise<PathPage> {
  const today = Date.now();
  const days = Array.from({ length: AUDIT_RETENTION_DAYS + 2 }, (_, i) =>
    new Date(today - i * 86_400_000).toISOString().slice(0, 10),
  );
  const items = await mapLimit(days, PARTITIONS_AT_ONCE, (day) => partitionItems(keys.auditDay(workspaceId, day)));
  return { items: items.flat(), reach: noReach() };
}

/** The second pass: what the first pass's pages reached, reached again. */
async function revisitPage(jobId: string, cursor: Cursor): Promise<PathPage> {
  const page = await walkPage(
    pathQuery(entities.erasureReach, 'ofJob', { job_id: jobId }, { consistent: true }).input,
    cursor,
  );
  const reached = page.items.map((item) => recordOf(entities.erasureReach, item));
  return {
    ...(page.cursor ? { cursor: page.cursor } : {}),
    items: [],
    reach: { profile_ids: reached.flatMap((r) => r.profile_ids), keys: reached.flatMap((r) => r.keys) },
  };
}
