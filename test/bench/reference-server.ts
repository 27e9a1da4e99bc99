/**
 * The bare reference for the post read: `node:http` and ONE BatchGetItem of the post item on the
 * same DynamoDB Local, answering the same JSON (post + the author card the item carries) with no
 * middleware, validation or auth. Run as a child process by http.bench.ts; prints its URL.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { BatchGetCommand } from '@aws-sdk/lib-dynamodb';
import { db, tableName } from '../../shared/store/client.js';
import { keys } from '../../shared/store/keys.js';

const serve = async (req: IncomingMessage, res: ServerResponse) => {
  const id = /^\/v1\/posts\/([^/]+)$/.exec(req.url ?? '')?.[1];
  if (!id) return res.writeHead(404).end();
  const result = await db().send(new BatchGetCommand({ RequestItems: { [tableName()]: { Keys: [keys.post(id)] } } }));
  const { pk, sk, gsi1pk, gsi1sk, entity, author_card, ...post } = result.Responses?.[tableName()]?.[0] ?? {};
  res.writeHead(200, { 'content-type': 'application/json; charset=utf-8' });
  res.end(
    JSON.stringify({ ok: true, data: { post: { ...post, viewer_reaction: null }, profile: author_card }, agent: {} }),
  );
};
const server = createServer((req, res) => void serve(req, res));
server.listen(0, '127.0.0.1', () =>
  console.log(`reference listening on http://127.0.0.1:${(server.address() as AddressInfo).port}`),
);
