import { marshall } from '@aws-sdk/util-dynamodb';
import type { DynamoDBRecord } from 'aws-lambda';
import { beforeAll, describe, expect, it } from 'vitest';
import { notifyHandler } from '../../functions/notifications-pipeline/notify.js';
import { NOTIFY_WATERMARK_KEEP_SECONDS } from '../../shared/notifications/from-stream.js';
import { entityTags } from '../../shared/store/keys.js';
import { getReport, getReportedSubject } from '../../shared/store/reports.js';
import { call } from '../support/api.js';
import { moderatorCommand, report, resolve } from '../support/moderation.js';
import { actor, ok, post, type Actor } from '../support/social.js';

const inbox = async (a: Actor, reasons: string) =>
  ok(await call('GET', `/v1/notifications?reasons=${reasons}`, { token: a.key, profileId: a.profile.id }))
    .items as any[];
const unread = async (a: Actor) =>
  ok(await call('GET', '/v1/notifications/unread-count', { token: a.key, profileId: a.profile.id })).count as number;

/** Reads the inbox until `done` holds of it (notifications are written from the stream, within 2 s). */
async function eventually(a: Actor, reasons: string, done: (list: any[]) => boolean): Promise<any[]> {
  const deadline = Date.now() + 10_000;
  let list = await inbox(a, reasons);
  while (!done(list)) {
    if (Date.now() > deadline) throw new Error(`inbox never settled: ${JSON.stringify(list)}`);
    await new Promise((r) => setTimeout(r, 100));
    list = await inbox(a, reasons);
  }
  return list;
}

/** Waits long enough for anything that would be written from the stream to be written. */
const quiet = () => new Promise((r) => setTimeout(r, 1500));

const filed = async (a: Actor, subject_type: string, subject_id: string) =>
  ok(await report(a, { subject_type, subject_id, reason: 'harassment' }), 201).report as { id: string };

let moderator: Actor;
let author: Actor;
let reporters: Actor[];
beforeAll(async () => {
  [moderator, author, ...reporters] = await Promise.all([actor(), actor(), actor(), actor()]);
  const granted = await moderatorCommand('grant', moderator.user.email);
  expect(granted.code, granted.output).toBe(0);
});

describe('moderation notices', () => {
  it('report_resolved to each reporter, content_removed to the author of a removed post or comment', async () => {
    const [first, second] = reporters as [Actor, Actor];
    const { post: removedPost } = await post(author, { body: 'to be removed' });
    const { post: keptPost } = await post(author, { body: 'to be kept' });
    const comment = ok(
      await call('POST', `/v1/posts/${keptPost.id}/comments`, {
        token: author.key,
        profileId: author.profile.id,
        body: { body: 'a comment to be removed' },
      }),
      201,
    ).comment;
    const reportsOfPost = [await filed(first, 'post', removedPost.id), await filed(second, 'post', removedPost.id)];
    const reportOfComment = await filed(first, 'comment', comment.id);
    const reportOfKept = await filed(second, 'post', keptPost.id);

    ok(await resolve(moderator.session, 'post', removedPost.id, { action: 'remove_content' }));
    ok(await resolve(moderator.session, 'comment', comment.id, { action: 'remove_content' }));
    ok(await resolve(moderator.session, 'post', keptPost.id, { action: 'dismiss' }));

    // Each reporter hears of each of its reports, whatever the resolution, from no profile.
    const firstList = await eventually(first, 'report_resolved', (l) => l.length === 2);
    const secondList = await eventually(second, 'report_resolved', (l) => l.length === 2);
    const reportIds = (list: any[]) => list.map((n) => n.subject.id).sort();
    expect(reportIds(firstList)).toEqual([reportsOfPost[0]!.id, reportOfComment.id].sort());
    expect(reportIds(secondList)).toEqual([reportsOfPost[1]!.id, reportOfKept.id].sort());
    for (const n of [...firstList, ...secondList]) {
      expect(n).toMatchObject({
        reason: 'report_resolved',
        subject: { type: 'report' },
        post: null,
        comment: null,
        actors: [],
        actors_count: 0,
        seen: false,
      });
    }
    // The report itself reads resolved, as the notice says.
    const mine = ok(await call('GET', '/v1/reports', { token: first.key, profileId: first.profile.id })).items as any[];
    expect(mine.find((r) => r.id === reportOfComment.id)).toMatchObject({
      status: 'resolved',
      resolution: 'content_removed',
    });

    // The author hears of the removed post and the removed comment, and sees them as removed by moderation.
    const removals = await eventually(author, 'content_removed', (l) => l.length === 2);
    const about = (type: string) => removals.find((n) => n.subject.type === type);
    expect(about('post')).toMatchObject({
      subject: { type: 'post', id: removedPost.id },
      post: { id: removedPost.id, status: 'removed', removed_by: 'moderation' },
      comment: null,
      actors: [],
      actors_count: 0,
    });
    expect(about('comment')).toMatchObject({
      subject: { type: 'comment', id: comment.id },
      post: { id: keptPost.id, status: 'published' },
      comment: { id: comment.id, status: 'removed', removed_by: 'moderation' },
      actors: [],
      actors_count: 0,
    });
    // The dismissed post notifies its author of nothing.
    await quiet();
    expect(await inbox(author, 'content_removed')).toHaveLength(2);
  });

  it('a replayed record notifies no one twice', async () => {
    const [first] = reporters as [Actor];
    const { post: p } = await post(author, { body: 'replayed removal' });
    const filedReport = await filed(first, 'post', p.id);
    ok(await resolve(moderator.session, 'post', p.id, { action: 'remove_content' }));
    await eventually(first, 'report_resolved', (l) => l.some((n) => n.subject.id === filedReport.id));
    await eventually(author, 'content_removed', (l) => l.some((n) => n.subject.id === p.id));
    const [reporterUnread, authorUnread] = [await unread(first), await unread(author)];

    // The stream's records of the resolution, as the table wrote them, delivered again twice.
    const resolvedReport = (await getReport(filedReport.id))!;
    const summary = (await getReportedSubject({ subject_type: 'post', subject_id: p.id }))!;
    const modify = (sequence: string, image: Record<string, unknown>) =>
      ({
        eventName: 'MODIFY',
        dynamodb: {
          SequenceNumber: sequence,
          Keys: marshall({ pk: 'replayed', sk: sequence }),
          NewImage: marshall(image, { removeUndefinedValues: true }),
        },
      }) as DynamoDBRecord;
    const records = [
      modify('1', { ...resolvedReport, entity: entityTags.report }),
      modify('2', { ...summary, entity: entityTags.reportedSubject }),
    ];
    const handler = notifyHandler(NOTIFY_WATERMARK_KEEP_SECONDS);
    for (let i = 0; i < 2; i++) {
      expect(await handler({ Records: records, shardId: 'shardId-replayed' })).toEqual({ batchItemFailures: [] });
    }

    expect((await inbox(first, 'report_resolved')).filter((n) => n.subject.id === filedReport.id)).toHaveLength(1);
    expect((await inbox(author, 'content_removed')).filter((n) => n.subject.id === p.id)).toHaveLength(1);
    expect([await unread(first), await unread(author)]).toEqual([reporterUnread, authorUnread]);
  });

  it('a post its author removed before the resolution notifies its author of nothing; preferences apply', async () => {
    const [first] = reporters as [Actor];
    const { post: p } = await post(author, { body: 'removed by its author first' });
    const filedReport = await filed(first, 'post', p.id);
    ok(await call('DELETE', `/v1/posts/${p.id}`, { token: author.key, profileId: author.profile.id }));
    ok(await resolve(moderator.session, 'post', p.id, { action: 'remove_content' }));

    // A reporter that turned report_resolved off hears nothing of its next report.
    const quietReporter = reporters[1]!;
    ok(
      await call('PUT', '/v1/notifications/preferences', {
        token: quietReporter.key,
        profileId: quietReporter.profile.id,
        body: { report_resolved: 'none' },
      }),
    );
    const before = (await inbox(quietReporter, 'report_resolved')).length;
    const { post: other } = await post(author, { body: 'reported by a quiet reporter' });
    await filed(quietReporter, 'post', other.id);
    ok(await resolve(moderator.session, 'post', other.id, { action: 'dismiss' }));

    // The reporter hears of it all the same; by then the author's notice would have been written.
    await eventually(first, 'report_resolved', (l) => l.some((n) => n.subject.id === filedReport.id));
    await quiet();
    expect((await inbox(author, 'content_removed')).filter((n) => n.subject.id === p.id)).toEqual([]);
    expect(await inbox(quietReporter, 'report_resolved')).toHaveLength(before);
  });
});
