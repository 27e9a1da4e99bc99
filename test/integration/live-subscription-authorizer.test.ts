/**
 * The AppSync Events authoriser against DynamoDB Local: this API's credentials, subscribing only
 * to the channels of one's own profiles, never publishing. Sessions, workspaces and profiles are
 * made through the local server as a user makes them (and OAuth tokens as an app gets them); keys
 * and an expired session are stored.
 */
import { describe, expect, it } from 'vitest';
import { handler } from '../../functions/live-subscriptions/authorize.js';
import type { EventsAuthorizerEvent } from '../../shared/auth/live-subscription.js';
import { newId } from '../../shared/domain/ids.js';
import { profileChannel } from '../../shared/domain/live-channels.js';
import { profileSuspensionItem } from '../../shared/store/moderation-effects.js';
import { transact } from '../../shared/store/transact.js';
import { createProfile, signUp } from '../support/api.js';
import { approvedCode, base, exchange, mcpResource } from '../support/oauth.js';
import { storedApiKey, storedProfile, storedSession } from '../support/stored.js';

const request = (
  authorizationToken: string,
  operation: EventsAuthorizerEvent['requestContext']['operation'],
  channel?: string,
): EventsAuthorizerEvent => ({
  authorizationToken,
  requestContext: {
    apiId: 'api',
    accountId: '111122223333',
    requestId: newId(),
    operation,
    ...(channel && { channelNamespaceName: channel.split('/')[1], channel }),
  },
  requestHeaders: {},
});

const subscribe = (token: string, channel: string) => handler(request(token, 'EVENT_SUBSCRIBE', channel));
const allowed = { isAuthorized: true, ttlOverride: 0 };
const denied = { isAuthorized: false, ttlOverride: 0 };

describe('the live events authoriser', () => {
  it("lets a session connect and subscribe to its own workspace's profile, not another workspace's", async () => {
    const me = await signUp();
    const mine = await createProfile(me.token);
    const other = await signUp();
    const theirs = await createProfile(other.token);
    expect(await handler(request(`Bearer ${me.token}`, 'EVENT_CONNECT'))).toEqual(allowed);
    expect(await subscribe(`Bearer ${me.token}`, profileChannel(mine.id))).toEqual(allowed);
    // The bare token, as a client may put it in its header.
    expect(await subscribe(me.token, profileChannel(mine.id))).toEqual(allowed);
    expect(await subscribe(`Bearer ${me.token}`, profileChannel(theirs.id))).toEqual(denied);
  });

  it('lets an API key with events:read subscribe to its attached profiles only', async () => {
    const workspace = newId();
    const attached = await storedProfile(workspace);
    const notAttached = await storedProfile(workspace);
    const elsewhere = await storedProfile(newId());
    const { token } = await storedApiKey(workspace, ['events:read'], [attached.id]);
    expect(await subscribe(token, profileChannel(attached.id))).toEqual(allowed);
    expect(await subscribe(token, profileChannel(notAttached.id))).toEqual(denied);
    expect(await subscribe(token, profileChannel(elsewhere.id))).toEqual(denied);
    expect(await subscribe(token, profileChannel(newId()))).toEqual(denied);
  });

  it("refuses the channel of a suspended profile of one's own, as the routes refuse acting as it", async () => {
    const workspace = newId();
    const profile = await storedProfile(workspace);
    const { token } = await storedApiKey(workspace, ['events:read'], [profile.id]);
    expect(await subscribe(token, profileChannel(profile.id))).toEqual(allowed);
    await transact([profileSuspensionItem(profile.id, new Date().toISOString())]);
    expect(await subscribe(token, profileChannel(profile.id))).toEqual(denied);
  });

  it("lets an OAuth access token with events:read subscribe to its grant's profiles, not the MCP endpoint's token", async () => {
    const me = await signUp();
    const granted = await createProfile(me.token);
    const other = await createProfile(me.token);
    const choice = { workspace_id: me.workspace.id, profile_ids: [granted.id], scopes: ['events:read'] };
    const forApi = await exchange(await approvedCode(me.token, choice, { resource: base() }));
    const token = forApi.body.access_token as string;
    expect(await subscribe(token, profileChannel(granted.id))).toEqual(allowed);
    expect(await subscribe(token, profileChannel(other.id))).toEqual(denied);
    const forMcp = await exchange(await approvedCode(me.token, choice, { resource: mcpResource() }));
    expect(await subscribe(forMcp.body.access_token as string, profileChannel(granted.id))).toEqual(denied);
  });

  it('refuses a key without events:read, even to connect', async () => {
    const workspace = newId();
    const profile = await storedProfile(workspace);
    const { token } = await storedApiKey(workspace, ['notifications:read', 'messages:read'], [profile.id]);
    expect(await handler(request(token, 'EVENT_CONNECT'))).toEqual(denied);
    expect(await subscribe(token, profileChannel(profile.id))).toEqual(denied);
    const { token: all } = await storedApiKey(workspace, ['all:read'], [profile.id]);
    expect(await subscribe(all, profileChannel(profile.id))).toEqual(allowed);
  });

  it('refuses forged, unknown, revoked and expired credentials', async () => {
    const me = await signUp();
    const mine = await createProfile(me.token);
    const channel = profileChannel(mine.id);
    const forged = `${me.token.slice(0, -4)}AAAA`;
    expect(await subscribe(forged, channel)).toEqual(denied);
    expect(await subscribe('st_not-a-token', channel)).toEqual(denied);
    expect(await subscribe('', channel)).toEqual(denied);

    const workspace = newId();
    const profile = await storedProfile(workspace);
    const { token: revoked } = await storedApiKey(workspace, ['events:read'], [profile.id], { revoked: true });
    expect(await subscribe(revoked, profileChannel(profile.id))).toEqual(denied);

    const { token: expired } = await storedSession(me.user.id, new Date(Date.now() - 60_000).toISOString());
    expect(await subscribe(expired, channel)).toEqual(denied);
  });

  it('refuses other channels than one profile, and any publish', async () => {
    const me = await signUp();
    const mine = await createProfile(me.token);
    expect(await subscribe(me.token, '/profiles/*')).toEqual(denied);
    expect(await subscribe(me.token, `/profiles/${mine.id}/more`)).toEqual(denied);
    expect(await subscribe(me.token, `/default/${mine.id}`)).toEqual(denied);
    expect(await handler(request(me.token, 'EVENT_PUBLISH', profileChannel(mine.id)))).toEqual(denied);
  });
});
