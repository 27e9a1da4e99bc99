/**
 * Erasure's proof (issue 33, "Erasure is the feature"): a busy account built through the API on a
 * server of the test's own (its own table, media directory and search file), and a scan of all
 * three for any trace of it. When a later issue adds a place where a profile's data lives, the
 * account here must leave a trace there too, and the scan must look there.
 */
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { afterAll, beforeAll, inject } from 'vitest';
import { startLocalServer, type LocalServer } from '../../infra/local/server-process.js';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, ScanCommand } from '@aws-sdk/lib-dynamodb';
import { itemText } from '../../shared/domain/erasure.js';
import { call, unique, type ApiResponse, type CallOptions } from './api.js';
import { postUpload, type Upload } from './media.js';
import { solidImage } from './uploads.js';
import { TEST_SERVER_SETTINGS } from './global-setup.js';

type Item = Record<string, unknown>;

function ok<T = any>(response: ApiResponse<T>, status = 200): T {
  if (response.status !== status || !response.body.ok)
    throw new Error(`expected ${status}, got ${response.status} ${JSON.stringify(response.body)}`);
  return response.body.data;
}

/** A person on the test's server: a user, its session, one profile and an all-scopes key for it. */
export interface Person {
  email: string;
  password: string;
  name: string;
  userId: string;
  workspaceId: string;
  session: string;
  key: string;
  profile: { id: string; username: string };
}

/** The calls of one server. */
export function client(baseUrl: string) {
  const send = <T = any>(method: string, path: string, options: CallOptions = {}) =>
    call<T>(method, path, { ...options, baseUrl });
  const as = (p: Person) => ({ token: p.key, profileId: p.profile.id });

  async function person(name: string, bio: string): Promise<Person> {
    const email = `${unique('erasure')}@example.com`;
    const password = 'correct horse battery';
    const created = ok(await send('POST', '/v1/users', { body: { email, password, name } }), 201);
    const session = ok(await send('POST', '/v1/sessions', { body: { email, password } }), 201).session.token as string;
    const username = unique('u');
    const profile = ok(
      await send('POST', '/v1/profiles', {
        token: session,
        body: { type: 'human', username, name, call_name: name.split(' ')[0] },
      }),
      201,
    );
    const { key } = ok(
      await send('POST', `/v1/workspaces/${created.workspace.id}/api-keys`, {
        token: session,
        body: { name: 'erasure test', scopes: ['all:all'], profile_ids: [profile.id] },
      }),
      201,
    );
    ok(await send('PATCH', `/v1/profiles/${profile.id}`, { token: key, profileId: profile.id, body: { bio } }));
    return {
      email,
      password,
      name,
      userId: created.user.id,
      workspaceId: created.workspace.id,
      session,
      key,
      profile: { id: profile.id, username: profile.username },
    };
  }

  async function image(p: Person, purpose: 'post_image' | 'avatar'): Promise<string> {
    const file = await solidImage(640, 480);
    const { media, upload } = ok<{ media: { id: string }; upload: Upload }>(
      await send('POST', '/v1/media', {
        ...as(p),
        body: { purpose, content_type: 'image/png', content_length: file.length },
      }),
      201,
    );
    const sent = await postUpload(upload, file, { fileType: 'image/png' });
    if (sent.status >= 300) throw new Error(`upload refused: ${sent.status} ${sent.text}`);
    const deadline = Date.now() + 20_000;
    for (;;) {
      const read = ok(await send('GET', `/v1/media/${media.id}`, as(p)));
      if (read.status === 'ready') return media.id;
      if (read.status === 'failed' || Date.now() > deadline) throw new Error(`media ${media.id}: ${read.status}`);
      await new Promise((r) => setTimeout(r, 100));
    }
  }

  const post = async (p: Person, body: Record<string, unknown>) =>
    ok(await send('POST', '/v1/posts', { ...as(p), body }), 201).post as { id: string };
  const comment = async (p: Person, postId: string, body: string) =>
    ok(await send('POST', `/v1/posts/${postId}/comments`, { ...as(p), body: { body } }), 201).comment as {
      id: string;
    };
  const like = async (p: Person, postId: string) =>
    ok(await send('PUT', `/v1/posts/${postId}/reaction`, { ...as(p), body: { reaction_type: 'like', active: true } }));
  const follow = async (p: Person, q: Person) =>
    ok(await send('POST', '/v1/profile-follows', { ...as(p), body: { followed_profile_id: q.profile.id } }), 201);
  const message = async (p: Person, q: Person, body: string) =>
    ok(await send('POST', '/v1/messages', { ...as(p), body: { recipient_profile_id: q.profile.id, body } }), 201);

  return { send, as, person, image, post, comment, like, follow, message };
}

export type Client = ReturnType<typeof client>;

/** What the busy account wrote, and the other people and posts its erasure must leave as they were. */
export interface BusyAccount {
  subject: Person;
  other: Person;
  third: Person;
  /** Connected by nothing but following the subject: its feed (inbox and event log) holds the subject's posts. */
  follower: Person;
  /** Texts only the subject wrote (bodies, a comment, messages, its bio): none may stay anywhere. */
  texts: string[];
  mediaIds: string[];
  /** The subject's export archive (a file under DATA_DIR/exports, in a folder named by its id). */
  exportId: string;
  /** The other's post the subject replied to, commented on, liked and quoted. */
  othersPost: string;
  /** The other's reply to the subject's post: it stays. */
  othersReply: string;
}

/**
 * Posts (with an image, a draft, an edit), replies both ways, a quote both ways, comments both
 * ways (one edited), likes both ways, follows both ways, a block and a mute (and one of it),
 * messages both ways in a conversation the other started, an avatar, an export archive, and with
 * them the notifications, search documents and feed entries they make.
 */
export async function busyAccount(c: Client): Promise<BusyAccount> {
  const tag = unique('t');
  const bio = `bio of the subject ${tag}`;
  const subject = await c.person(`Subject ${tag}`, bio);
  const other = await c.person('Other Person', 'the one who stays');
  const third = await c.person('Third Person', 'also stays');
  // Connected by nothing but the subject's mention of it: its notification of the mention is reached from the post.
  const mentioned = await c.person('Mentioned Person', 'mentioned once');
  const follower = await c.person('Follower Person', 'only follows');
  const t = (what: string) => `${what} by the subject ${tag}`;
  const texts = [bio, subject.name];

  // Follows both ways first, so the posts after them fan out into feeds.
  await c.follow(subject, other);
  await c.follow(other, subject);
  await c.follow(third, subject);
  await c.follow(follower, subject);

  const imageId = await c.image(subject, 'post_image');
  const avatarId = await c.image(subject, 'avatar');
  await c.send('PUT', `/v1/profiles/${subject.profile.id}/media/avatar/light`, {
    ...c.as(subject),
    body: { media_id: avatarId },
  });
  const first = await c.post(subject, { body: t('first post'), images: [{ media_id: imageId, alt_text: t('alt') }] });
  texts.push(t('first post'), t('alt'));
  const second = await c.post(subject, { body: t('second post before edit') });
  await c.send('PATCH', `/v1/posts/${second.id}`, { ...c.as(subject), body: { body: t('second post edited') } });
  texts.push(t('second post before edit'), t('second post edited'));
  await c.post(subject, { body: t('a draft'), status: 'draft' });
  texts.push(t('a draft'));
  await c.post(subject, { body: `${t('a mention')} of @${mentioned.profile.username}` });
  texts.push(t('a mention'));

  const othersPost = await c.post(other, { body: `other's post ${tag}, mentioning @${subject.profile.username}` });
  const othersReply = await c.post(other, { body: `other's reply ${tag}`, reply_to_post_id: first.id });
  await c.post(other, { body: `other's quote ${tag}`, quote_of_post_id: second.id });
  await c.post(subject, { body: t('reply'), reply_to_post_id: othersPost.id });
  await c.post(subject, { body: t('quote'), quote_of_post_id: othersPost.id });
  texts.push(t('reply'), t('quote'));

  const myComment = await c.comment(subject, othersPost.id, t('comment before edit'));
  await c.send('PATCH', `/v1/comments/${myComment.id}`, { ...c.as(subject), body: { body: t('comment edited') } });
  texts.push(t('comment before edit'), t('comment edited'));
  const othersComment = await c.comment(other, first.id, `other's comment ${tag}`);
  await c.send('PUT', `/v1/comments/${othersComment.id}/reaction`, {
    ...c.as(subject),
    body: { reaction_type: 'like', active: true },
  });

  await c.like(subject, othersPost.id);
  await c.like(other, first.id);
  await c.send('POST', '/v1/profile-mutes', { ...c.as(subject), body: { muted_profile_id: third.profile.id } });
  await c.send('POST', '/v1/profile-blocks', { ...c.as(third), body: { blocked_profile_id: subject.profile.id } });

  // The conversation started by the other side: its side stays, the subject's messages go.
  await c.message(other, subject, `other's message ${tag}`);
  await c.message(subject, other, t('message'));
  texts.push(t('message'));

  const exported = ok(await c.send('POST', '/v1/me/exports', { token: subject.session }), 201).export as { id: string };
  const deadline = Date.now() + 30_000;
  for (;;) {
    const read = ok(await c.send('GET', `/v1/me/exports/${exported.id}`, { token: subject.session })).export;
    if (read.status === 'ready') break;
    if (read.status === 'failed' || Date.now() > deadline) throw new Error(`export ${exported.id}: ${read.status}`);
    await new Promise((r) => setTimeout(r, 100));
  }

  return {
    subject,
    other,
    third,
    follower,
    texts,
    mediaIds: [imageId, avatarId],
    exportId: exported.id,
    othersPost: othersPost.id,
    othersReply: othersReply.id,
  };
}

/** The strings that must be nowhere once the subject is erased. */
export const needlesOf = (account: BusyAccount): string[] => [
  account.subject.profile.id,
  account.subject.userId,
  account.subject.email,
  account.subject.workspaceId,
  ...account.texts,
  ...account.mediaIds,
  account.exportId,
];

/** Every item of the table (a Scan of the whole of it). */
export async function scanTable(endpoint: string, tableName: string): Promise<Item[]> {
  const db = DynamoDBDocumentClient.from(
    new DynamoDBClient({ endpoint, region: 'us-east-1', credentials: { accessKeyId: 'x', secretAccessKey: 'x' } }),
  );
  const items: Item[] = [];
  let start: Record<string, unknown> | undefined;
  do {
    const page = await db.send(
      new ScanCommand({ TableName: tableName, ExclusiveStartKey: start, ConsistentRead: true }),
    );
    items.push(...(page.Items ?? []));
    start = page.LastEvaluatedKey;
  } while (start);
  return items;
}

/**
 * What may still name the subject: its tombstone, the username claim it keeps, the messages the
 * other wrote to it and the other's side of their conversation (they stay the other's; they name
 * the subject by its id alone, which reads as a deleted profile), the `profile.deleted` events
 * that announce the erasure to connected profiles (their data is the tombstone's), and another
 * workspace's audit entries of its own acts on the subject (the target's id alone).
 */
function allowed(item: Item, account: BusyAccount): boolean {
  if (item.entity === 'tombstone' || item.entity === 'username') return true;
  if (item.entity === 'event' && item.type === 'profile.deleted') return true;
  const byIdAlone = (without: Item) => !needlesOf(account).some((n) => itemText(without).includes(n));
  if (item.entity === 'conversation' && item.profile_id !== account.subject.profile.id)
    return byIdAlone({ ...item, other_profile_id: null });
  if (item.entity === 'audit_entry' && (item.target as { id?: string } | undefined)?.id === account.subject.profile.id)
    return byIdAlone({ ...item, target: null });
  return item.entity === 'message' && item.sender_profile_id === account.other.profile.id;
}

/** The table's items that still hold a trace of the subject, but those allowed. */
export async function tableTraces(endpoint: string, tableName: string, account: BusyAccount): Promise<Item[]> {
  const needles = needlesOf(account);
  return (await scanTable(endpoint, tableName)).filter(
    (item) => needles.some((n) => itemText(item).includes(n)) && !allowed(item, account),
  );
}

/** Every row of every table of the local search index that holds a needle. */
export function searchTraces(dataDir: string, account: BusyAccount): string[] {
  const db = new DatabaseSync(join(dataDir, 'search.sqlite'), { readOnly: true });
  try {
    const tables = db.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").all() as { name: string }[];
    const needles = needlesOf(account);
    return tables.flatMap(({ name }) => {
      const rows = db.prepare(`SELECT * FROM "${name}"`);
      // The full-text index's shadow tables hold 64-bit integers.
      rows.setReadBigInts(true);
      return (rows.all() as Item[])
        .map((row) =>
          JSON.stringify(row, (_key, value: unknown) => (typeof value === 'bigint' ? String(value) : value)),
        )
        .filter((row) => needles.some((n) => row.includes(n)));
    });
  } finally {
    db.close();
  }
}

/** The media store's files (processed and uploads) whose path names one of the subject's media. */
export function mediaTraces(dataDir: string, account: BusyAccount): string[] {
  return filesNaming(join(dataDir, 'media'), account.mediaIds);
}

/** The export store's files (and folders) whose path names the subject's export. */
export function exportTraces(dataDir: string, account: BusyAccount): string[] {
  return filesNaming(join(dataDir, 'exports'), [account.exportId]);
}

function filesNaming(root: string, ids: readonly string[]): string[] {
  if (!existsSync(root)) return [];
  const files = readdirSync(root, { recursive: true }) as string[];
  return files.filter((file) => ids.some((id) => file.includes(id)));
}

/** The grants and operator links `accessAndOperators` made, and the agents whose operator the subject was. */
export interface AccessLinks {
  grants: string[];
  links: string[];
  /** The agent of another workspace that accepted the subject as its operator. */
  agent: Person;
  /** Another agent there whose request to the subject is still pending. */
  pendingAgent: Person;
}

/**
 * Access grants on both sides of the subject (it grants the other and the third, the other and the
 * third grant it; one of each accepted, one pending), and the accepted operator link of an agent
 * of another workspace (the other's) naming the subject, and a second agent's link to it still
 * pending. Issue 33's paths `grants`, `managed_grants`, `agents` and `operator_links`, which the
 * busy account alone leaves untested.
 */
export async function accessAndOperators(c: Client, account: BusyAccount): Promise<AccessLinks> {
  const { subject, other, third } = account;
  const grant = async (managed: Person, manager: Person) =>
    ok(
      await c.send('POST', '/v1/profile-access', {
        ...c.as(managed),
        body: { profile_id: managed.profile.id, manager_profile_id: manager.profile.id, permissions: ['posting'] },
      }),
      201,
    ).access_grant.id as string;
  const accept = async (grantId: string, manager: Person) =>
    ok(await c.send('POST', `/v1/profile-access/invitations/${grantId}/accept`, c.as(manager)));
  const granted = await grant(subject, other);
  await accept(granted, other);
  const grantedPending = await grant(subject, third);
  // Grants the subject manages: accepted from the other, pending from the third.
  const manages = await grant(other, subject);
  await accept(manages, subject);
  const managesPending = await grant(third, subject);

  // Agents of the other's workspace: a key of their own in it, so each acts as itself.
  const agent = async (): Promise<Person> => {
    const username = unique('bot');
    const profile = ok(
      await c.send('POST', '/v1/profiles', {
        token: other.session,
        body: { type: 'agent', username, name: 'An Agent', call_name: 'Agent' },
      }),
      201,
    );
    const { key } = ok(
      await c.send('POST', `/v1/workspaces/${other.workspaceId}/api-keys`, {
        token: other.session,
        body: { name: 'agent', scopes: ['all:all'], profile_ids: [profile.id] },
      }),
      201,
    );
    return { ...other, key, profile: { id: profile.id, username } };
  };
  const request = async (a: Person) =>
    ok(
      await c.send('POST', `/v1/profiles/${a.profile.id}/operator`, {
        ...c.as(a),
        body: { operator_profile_id: subject.profile.id },
      }),
      201,
    ).link.id as string;
  const operated = await agent();
  const link = await request(operated);
  ok(await c.send('POST', `/v1/operator-links/${link}/accept`, c.as(subject)));
  const pendingAgent = await agent();
  const pending = await request(pendingAgent);
  return {
    grants: [granted, grantedPending, manages, managesPending],
    links: [link, pending],
    agent: operated,
    pendingAgent,
  };
}

/** Polls `read` until `done` holds of it (the erasure and the folds run behind the answer), then answers it. */
export async function until<T>(what: string, read: () => Promise<T>, done: (value: T) => boolean, timeoutMs = 60_000) {
  const deadline = Date.now() + timeoutMs;
  let last = await read();
  while (!done(last)) {
    if (Date.now() > deadline) throw new Error(`${what}: still ${JSON.stringify(last).slice(0, 2000)}`);
    await new Promise((r) => setTimeout(r, 250));
    last = await read();
  }
  return last;
}

/**
 * An erasure test file's own local server, on a table and data directory of its own (the scans
 * read them whole): started before the file's tests, stopped and its directory removed after.
 */
export function erasureServer(name: string) {
  const dataDir = mkdtempSync(join(tmpdir(), `${name}-`));
  const env = {
    DYNAMODB_ENDPOINT: inject('dynamodbEndpoint'),
    TABLE_NAME: unique(name),
    DATA_DIR: dataDir,
    ...TEST_SERVER_SETTINGS,
  };
  let server: LocalServer | undefined;
  const stack = { env, dataDir, client: undefined as unknown as Client };
  beforeAll(async () => {
    server = await startLocalServer(env);
    stack.client = client(server.baseUrl);
  }, 60_000);
  afterAll(async () => {
    await server?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });
  return stack;
}
