import type { NotificationView } from '../../notifications/hydrate.js';
import { Notification } from '../contract/schemas/notifications.js';
import { presentComment } from './comments.js';
import { declaredWith } from './declared.js';
import { presentPost } from './posts.js';
import { presentProfile } from './profiles.js';

export const presentNotification = ({ notification: n, post, comment, actors }: NotificationView) =>
  declaredWith(Notification, n, {
    subject: { type: n.subject_type, id: n.subject_id },
    post: post ? presentPost(post) : null,
    comment: comment ? presentComment(comment) : null,
    actors: actors.map(presentProfile),
  });
