/**
 * A reported subject as its reporter may see it: reports name only what the reporter can read (a
 * post, comment or profile visible to it; a message it sent or received), so an unknown or
 * invisible subject answers 404 like its read does.
 */
import type { ProfileRecord } from '../domain/entities.js';
import { isVisibleTo, type CommentRecord, type PostRecord } from '../domain/posts.js';
import { isSuspended, type ReportSubject } from '../domain/reports.js';
import type { MessageRecord } from '../domain/social.js';
import { getComment } from '../store/comments.js';
import { entities } from '../store/entities.js';
import { queryPath } from '../store/paths.js';
import { getPost, getPostWithReaction } from '../store/posts.js';
import { getProfile } from '../store/profiles.js';

export type ReportableSubject =
  | { subject_type: 'post'; post: PostRecord; author: ProfileRecord }
  | { subject_type: 'comment'; comment: CommentRecord; author: ProfileRecord }
  | { subject_type: 'profile'; profile: ProfileRecord }
  | { subject_type: 'message'; message: MessageRecord };

const visibleProfile = async (id: string) => {
  const profile = await getProfile(id, { consistent: true });
  return profile && !isSuspended(profile) ? profile : undefined;
};

/** The profile whose content (or self) the subject is: the one a suspension suspends. */
export function ownerOf(subject: ReportableSubject): string {
  switch (subject.subject_type) {
    case 'post':
      return subject.post.profile_id;
    case 'comment':
      return subject.comment.profile_id;
    case 'profile':
      return subject.profile.id;
    case 'message':
      return subject.message.sender_profile_id;
  }
}

async function findMessage(id: string): Promise<MessageRecord | undefined> {
  const [message] = await queryPath(entities.message, 'byId', { id }, { max: 1 });
  return message;
}

/** The subject as `viewer` may read it, or undefined (unknown, removed, suspended, not its message). */
export async function readReportable(
  subject: ReportSubject,
  viewer: ProfileRecord,
): Promise<ReportableSubject | undefined> {
  switch (subject.subject_type) {
    case 'post': {
      const { post, author } = await getPostWithReaction(subject.subject_id, undefined);
      if (!post || !isVisibleTo(post, viewer.id) || isSuspended(author)) return undefined;
      return { subject_type: 'post', post, author };
    }
    case 'comment': {
      const comment = await getComment(subject.subject_id, true);
      if (!comment || (comment.status !== 'published' && comment.profile_id !== viewer.id)) return undefined;
      const [post, author] = await Promise.all([getPost(comment.post_id), visibleProfile(comment.profile_id)]);
      if (post?.status !== 'published' || !author) return undefined;
      return { subject_type: 'comment', comment, author };
    }
    case 'profile': {
      const profile = await visibleProfile(subject.subject_id);
      return profile && { subject_type: 'profile', profile };
    }
    case 'message': {
      const message = await findMessage(subject.subject_id);
      const party = message && [message.sender_profile_id, message.recipient_profile_id].includes(viewer.id);
      return party ? { subject_type: 'message', message } : undefined;
    }
  }
}
