/** Who may message a profile (API.md "Message requests"): one item beside its conversations. */
import { DEFAULT_ALLOW_MESSAGES_FROM, type AllowMessagesFrom } from '../domain/conversations.js';
import { entities } from './entities.js';
import { getItem } from './items.js';
import { keys } from './keys.js';
import { sendUpdate } from './update.js';

const { messageSettings: layout } = entities;

/** Who may message the profile (`everyone` until changed). */
export async function getMessageSettings(profileId: string): Promise<AllowMessagesFrom> {
  const stored = await getItem(layout, keys.messageSettings(profileId), { consistent: true });
  return stored?.allow_messages_from ?? DEFAULT_ALLOW_MESSAGES_FROM;
}

export async function setMessageSettings(
  profileId: string,
  allowMessagesFrom: AllowMessagesFrom,
  updatedAt: string,
): Promise<void> {
  await sendUpdate({
    key: keys.messageSettings(profileId),
    set: {
      entity: layout.entity,
      profile_id: profileId,
      allow_messages_from: allowMessagesFrom,
      updated_at: updatedAt,
    },
  });
}
