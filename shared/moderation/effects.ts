/**
 * What a moderator's action changes on the subject, as transaction items built from the subject as
 * it is now (read consistently), to join the transaction that resolves its reports. An action that
 * has nothing left to change (a post its author removed meanwhile, a profile already suspended)
 * changes nothing and still resolves the reports.
 */
import { isSuspended, type ModerationAction, type ReportSubject } from '../domain/reports.js';
import { getComment } from '../store/comments.js';
import { commentRemovalItems, profileSuspensionItem } from '../store/moderation-effects.js';
import { getPost, moderationRemovalItems } from '../store/posts.js';
import { getProfile } from '../store/profiles.js';
import type { TransactItem } from '../store/transact.js';

export async function actionItems(
  subject: ReportSubject & { owner_profile_id: string },
  action: ModerationAction,
  now: Date,
): Promise<TransactItem[]> {
  const at = now.toISOString();
  if (action === 'suspend_profile') {
    const profile = await getProfile(subject.owner_profile_id, { consistent: true });
    return profile && !isSuspended(profile) ? [profileSuspensionItem(profile.id, at)] : [];
  }
  if (action === 'remove_content' && subject.subject_type === 'post') {
    const post = await getPost(subject.subject_id, true);
    return post && post.status !== 'removed' ? moderationRemovalItems(post, at) : [];
  }
  if (action === 'remove_content' && subject.subject_type === 'comment') {
    const comment = await getComment(subject.subject_id, true);
    return comment?.status === 'published' ? commentRemovalItems(comment, at) : [];
  }
  return [];
}
