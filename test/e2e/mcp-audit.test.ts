/**
 * The audit log of an MCP request (API.md "Accountable agents"): each tool call's write is an
 * entry of its own, and every entry carries the X-Request-Id the MCP request was answered with.
 * A stream record delivered again (the audit consumer's event source retries whole batches)
 * writes the same entries again, not new ones.
 */
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { marshall } from '@aws-sdk/util-dynamodb';
import type { DynamoDBStreamEvent } from 'aws-lambda';
import { describe, expect, inject, it } from 'vitest';
import { handler as recordAudit } from '../../functions/audit/record-audit.js';
import { db, tableName } from '../../shared/store/client.js';
import { keys } from '../../shared/store/keys.js';
import { auditLog } from '../support/audit.js';
import { actor } from '../support/social.js';
import { waitFor } from '../support/webhooks.js';

const createPost = (id: number, body: string) => ({
  jsonrpc: '2.0',
  id,
  method: 'tools/call',
  params: { name: 'create_post', arguments: { body } },
});

/** The JSON-RPC answers of an MCP response, as JSON or as the events of an event stream. */
async function answersOf(response: Response): Promise<{ id: number; result: { structuredContent: any } }[]> {
  const text = await response.text();
  const bodies = response.headers.get('content-type')?.startsWith('text/event-stream')
    ? text
        .split('\n')
        .filter((line) => line.startsWith('data: '))
        .map((line) => JSON.parse(line.slice('data: '.length)) as unknown)
    : [JSON.parse(text) as unknown];
  return bodies.flat() as never;
}

describe('the audit log of an MCP request', () => {
  it("lists each tool call's write as an entry of its own under the request's id, once even when its stream record comes again", async () => {
    const me = await actor();
    const response = await fetch(new URL('/mcp', inject('baseUrl')), {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        authorization: `Bearer ${me.key}`,
        'x-profile-id': me.profile.id,
        'mcp-protocol-version': '2025-06-18',
      },
      // Two writes in one HTTP request: a JSON-RPC batch of two tool calls.
      body: JSON.stringify([createPost(1, 'first of the batch'), createPost(2, 'second of the batch')]),
    });
    expect(response.status).toBe(200);
    const requestId = response.headers.get('x-request-id')!;
    expect(requestId).toMatch(/.+/);
    const answers = await answersOf(response);
    const postIds = answers.map((answer) => answer.result.structuredContent.post.id as string).sort();
    expect(postIds).toHaveLength(2);

    const ofRequest = async () =>
      (await auditLog(me.session, me.workspaceId)).filter((e) => e.request_id === requestId);
    const entries = await waitFor('both entries of the MCP request', async () => {
      const listed = await ofRequest();
      return listed.length >= 2 ? listed : undefined;
    });
    expect(entries).toHaveLength(2);
    expect(entries.map((e) => e.target.id).sort()).toEqual(postIds);
    expect(entries.map((e) => e.action)).toEqual(['createPost', 'createPost']);
    expect(new Set(entries.map((e) => e.id)).size).toBe(2);

    // The posts' stream records delivered again, twice over: the same two entries, no more.
    const items = await Promise.all(
      postIds.map(
        async (id) =>
          (await db().send(new GetCommand({ TableName: tableName(), Key: keys.post(id), ConsistentRead: true }))).Item!,
      ),
    );
    expect(items.map((item) => (item.written_by as { request_id: string }).request_id)).toEqual([requestId, requestId]);
    const replay = {
      Records: items.map((item) => ({
        eventName: 'INSERT',
        dynamodb: { NewImage: marshall(item, { removeUndefinedValues: true }) },
      })),
    } as unknown as DynamoDBStreamEvent;
    await recordAudit(replay);
    await recordAudit(replay);
    const after = await ofRequest();
    expect(after.map((e) => e.id).sort()).toEqual(entries.map((e) => e.id).sort());
    expect(after).toHaveLength(2);
  });
});
