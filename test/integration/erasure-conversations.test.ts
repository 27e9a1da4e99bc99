/**
 * The erasure's conversations path on DynamoDB Local: a conversation longer than a step's share of
 * messages is walked over several steps, each reading a page of its pair from where the last
 * stopped, and its item goes only in the step that reads the last of them; shorter ones beside it
 * go in one step. The steps' items are deleted as the erasure deletes them (the subject's own).
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { ensureTable } from '../../infra/local/dynamodb-local.js';
import type { ConversationRecord } from '../../shared/domain/conversations.js';
import { newId } from '../../shared/domain/ids.js';
import { conversationId, type MessageRecord } from '../../shared/domain/social.js';
import { batchWrite } from '../../shared/store/batch.js';
import { entities } from '../../shared/store/entities.js';
import { conversationsPage } from '../../shared/store/erasure-paths.js';
import { itemKeyOf, partitionItems } from '../../shared/store/erasure-walk.js';
import { putItem } from '../../shared/store/items.js';
import { entityTags, keys } from '../../shared/store/keys.js';
import { queryPathItems } from '../../shared/store/paths.js';
import { unique } from '../support/api.js';

beforeAll(async () => {
  process.env.TABLE_NAME = unique('erasure_conversations');
  await ensureTable(process.env.DYNAMODB_ENDPOINT!, process.env.TABLE_NAME);
});

type Item = Record<string, unknown>;

/** A pair's messages (senders alternating from `first`) and the subject's conversation item of it. */
async function conversation(subject: string, other: string, count: number, first: string): Promise<void> {
  const start = Date.parse('2026-11-01T00:00:00.000Z');
  let last: MessageRecord | undefined;
  for (let i = 0; i < count; i++) {
    const sender = i % 2 === 0 ? first : first === subject ? other : subject;
    last = {
      id: newId(),
      sender_profile_id: sender,
      recipient_profile_id: sender === subject ? other : subject,
      body: `message ${i}`,
      created_at: new Date(start + i * 1000).toISOString(),
    } as MessageRecord;
    await putItem(entities.message, last);
  }
  const record: ConversationRecord = {
    id: conversationId(subject, other),
    profile_id: subject,
    other_profile_id: other,
    box: 'inbox',
    hidden: false,
    last_message_id: last!.id,
    last_message_at: last!.created_at,
    unread_count: 0,
    updated_at: last!.created_at,
  };
  await putItem(entities.conversation, record);
}

/** The subject's messages of the pair still in the table. */
const ownMessages = async (subject: string, other: string) =>
  (
    await queryPathItems(entities.message, 'conversation', { sender_profile_id: subject, recipient_profile_id: other })
  ).filter((m) => m.sender_profile_id === subject);

describe('the erasure walking a long conversation', () => {
  it('reads a page of the pair a step, and lets its conversation go with the last page', async () => {
    const [subject, long, short] = [newId(), newId(), newId()];
    await conversation(subject, long, 7, long);
    await conversation(subject, short, 2, subject);

    const steps: { messages: Item[]; conversations: string[]; reached: string[] }[] = [];
    let cursor: Record<string, unknown> | undefined;
    do {
      const page = await conversationsPage(subject, cursor, 3);
      steps.push({
        messages: page.items.filter((i) => i.entity === entityTags.message),
        conversations: page.items
          .filter((i) => i.entity === entityTags.conversation)
          .map((i) => i.other_profile_id as string),
        reached: page.reach.profile_ids,
      });
      // As the erasure does: the subject's own go (its messages, its conversation items); the other's messages stay.
      const own = page.items.filter((i) => i.entity !== entityTags.message || i.sender_profile_id === subject);
      await batchWrite(own.map((i) => ({ DeleteRequest: { Key: itemKeyOf(i) } })));
      cursor = page.cursor;
      expect(steps.length).toBeLessThan(10);
    } while (cursor);

    // 7 messages of the long pair, 3 a step: three steps, whichever conversation the partition lists first.
    const pairOf = (m: Item) => [m.sender_profile_id, m.recipient_profile_id].find((id) => id !== subject);
    expect(steps).toHaveLength(3);
    expect(steps.map((s) => s.messages.filter((m) => pairOf(m) === long).length)).toEqual([3, 3, 1]);
    expect(new Set(steps.flatMap((s) => s.messages.map((m) => m.id))).size).toBe(9);
    // The long conversation's item goes with its last page; the short one's with its messages.
    expect(steps.findIndex((s) => s.conversations.includes(long))).toBe(2);
    const shortStep = steps.findIndex((s) => s.conversations.includes(short));
    expect(steps[shortStep]!.messages.filter((m) => pairOf(m) === short)).toHaveLength(2);
    expect(steps.flatMap((s) => s.conversations).sort()).toEqual([long, short].sort());
    // Each other side is reached once, with the step its conversation goes in.
    expect(steps.map((s) => s.reached.sort())).toEqual(steps.map((s) => s.conversations.sort()));
    expect(await ownMessages(subject, long)).toEqual([]);
    expect(await ownMessages(subject, short)).toEqual([]);
    expect(await partitionItems(keys.messageSettings(subject).pk)).toEqual([]);
    // The other's messages stay theirs.
    const kept = await queryPathItems(entities.message, 'conversation', {
      sender_profile_id: subject,
      recipient_profile_id: long,
    });
    expect(kept.map((m) => m.sender_profile_id)).toEqual([long, long, long, long]);
  });
});
