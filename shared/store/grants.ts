import type { OutboxEvent } from '../domain/events.js';
import {
  ALLOWED_FROM,
  type GrantAccessRecord,
  type GrantAction,
  type GrantRecord,
  type GrantStatus,
} from '../domain/grants.js';
import { AppError } from '../errors.js';
import { entities } from './entities.js';
import { conditionRequest, updateRequest, when } from './expressions.js';
import { batchGetItems, getItem, putItem, putTransactItem } from './items.js';
import { keys } from './keys.js';
import { outboxItem } from './outbox.js';
import { queryPath } from './paths.js';
import { transactConditional } from './transact.js';
import type { TransactItem } from './transact.js';

export async function createGrant(grant: GrantRecord): Promise<void> {
  await putItem(entities.grant, grant);
}

export function getGrant(id: string, consistent = false): Promise<GrantRecord | undefined> {
  return getItem(entities.grant, keys.grant(id), { consistent });
}

const invalidState = (action: GrantAction) =>
  new AppError('invalid_state', {
    message: `The access grant cannot be ${action === 'resend' ? 'resent' : `${action}ed`} in its current status.`,
    hint: `Only a grant with status ${ALLOWED_FROM[action].join(' or ')} allows this; read the grant to see its status.`,
  });

const TARGET: Record<GrantAction, GrantStatus | undefined> = {
  accept: 'accepted',
  decline: 'declined',
  revoke: 'revoked',
  resend: undefined,
};

/**
 * Moves the grant from the status the caller read (which must allow `action`) in one transaction
 * with the grant-access item (written on accept, deleted on revoke) and the events. A concurrent
 * change of status makes it 409 invalid_state rather than a lost update.
 */
export async function transitionGrant(
  before: GrantRecord,
  action: GrantAction,
  at: string,
  events: OutboxEvent[],
): Promise<GrantRecord> {
  if (!ALLOWED_FROM[action].includes(before.status)) throw invalidState(action);
  const target = TARGET[action];
  const items: TransactItem[] = [
    {
      Update: updateRequest({
        key: keys.grant(before.id),
        ...(target
          ? { set: { status: target, [`${target}_at`]: at, updated_at: at } }
          : { set: { resent_at: at, updated_at: at }, add: { resend_count: 1 } }),
        when: when.is('status', before.status),
      }),
    },
  ];
  const accessKey = keys.grantAccess(before.profile_id, before.manager_profile_id);
  if (action === 'accept') {
    const access: GrantAccessRecord = {
      grant_id: before.id,
      managed_profile_id: before.profile_id,
      manager_profile_id: before.manager_profile_id,
      manager_workspace_id: before.manager_workspace_id,
      permissions: before.permissions,
    };
    // Another accepted grant for the same pair must be revoked first.
    items.push(putTransactItem(entities.grantAccess, access));
  }
  if (action === 'revoke' && before.status === 'accepted') {
    items.push({
      Delete: { ...conditionRequest(when.any(when.absent(), when.is('grant_id', before.id))), Key: accessKey },
    });
  }
  items.push(...events.map(outboxItem));
  const outcome = await transactConditional(items);
  if (!outcome.ok) {
    if (outcome.failed[0]) throw invalidState(action);
    throw new AppError('invalid_state', {
      message: 'Another accepted grant already gives this manager access to the profile.',
      hint: 'Ask the managed profile to revoke the other grant first.',
    });
  }
  return (await getGrant(before.id, true))!;
}

/** The accepted grants of `managedId` whose manager is one of `managerIds`: key lookups. */
export async function grantAccessFor(managedId: string, managerIds: readonly string[]): Promise<GrantAccessRecord[]> {
  if (managerIds.length === 0) return [];
  const found = await batchGetItems(
    entities.grantAccess,
    managerIds.map((m) => keys.grantAccess(managedId, m)),
  );
  return [...found.values()];
}

/** Every accepted grant over `managedId` (a profile has few managers): one Query on its partition. */
export function grantAccessAll(managedId: string): Promise<GrantAccessRecord[]> {
  return queryPath(entities.grantAccess, 'managersOf', { managed_profile_id: managedId });
}
