import { afterAll, describe, expect, it } from 'vitest';
import { call } from '../support/api.js';
import { startReceiver, type Receiver } from '../support/webhook-receiver.js';
import { createEndpoint, waitFor, workspaceWithProfiles } from '../support/webhooks.js';

let receiver: Receiver | undefined;
afterAll(async () => {
  await receiver?.close();
});

describe('real API actions reach webhook receivers', () => {
  it('a follow of a selected profile is delivered, signed, as profile.followed', async () => {
    const owner = await workspaceWithProfiles(1);
    const follower = await workspaceWithProfiles(1);
    receiver = await startReceiver(() => 200);
    receiver.secrets.push(
      (await createEndpoint(owner, { url: receiver.url, event_types: ['profile.followed'] })).secret,
    );

    const followed = await call('POST', '/v1/profile-follows', {
      token: follower.token,
      profileId: follower.profiles[0]!.id,
      body: { followed_profile_id: owner.profiles[0]!.id },
    });
    expect(followed.status).toBe(201);
    const request = await waitFor('the follow event', () => receiver!.received[0]);
    expect(request.verified).toBe(true);
    expect(JSON.parse(request.body)).toMatchObject({ type: 'profile.followed', profile_id: owner.profiles[0]!.id });
  });
});
