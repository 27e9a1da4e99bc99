import { GetCommand } from '@aws-sdk/lib-dynamodb';
import type { MembershipRecord, WorkspaceRecord } from '../domain/entities.js';
import { AppError } from '../errors.js';
import { db, tableName } from './client.js';
import { keys, timeSortKey } from './keys.js';
import { queryAll } from './pagination.js';
import { stripKeys } from './records.js';
import { transact, type TransactItem } from './transact.js';

export const workspaceItem = (workspace: WorkspaceRecord): TransactItem => ({
  Put: {
    TableName: tableName(),
    Item: { ...keys.workspace(workspace.id), entity: 'workspace', ...workspace },
    ConditionExpression: 'attribute_not_exists(pk)',
  },
});

export const membershipItem = (member: MembershipRecord): TransactItem => ({
  Put: {
    TableName: tableName(),
    Item: {
      ...keys.membership(member.workspace_id, member.user_id),
      gsi1pk: keys.userWorkspaces(member.user_id),
      gsi1sk: timeSortKey(member.created_at, member.workspace_id),
      entity: 'membership',
      ...member,
    },
    ConditionExpression: 'attribute_not_exists(pk)',
  },
});

export async function createWorkspace(workspace: WorkspaceRecord, owner: MembershipRecord): Promise<void> {
  await transact([workspaceItem(workspace), membershipItem(owner)]);
}

export async function addMember(member: MembershipRecord): Promise<void> {
  await transact(
    [
      membershipItem(member),
      // The workspace must still exist when the membership is written.
      { ConditionCheck: { TableName: tableName(), Key: keys.workspace(member.workspace_id), ConditionExpression: 'attribute_exists(pk)' } },
    ],
    (index) =>
      index === 0
        ? new AppError('invalid_state', { message: 'This user is already a member of the workspace.', hint: 'Nothing to do; members keep the role they were given.' })
        : new AppError('not_found', { message: 'Workspace not found.' }),
  );
}

export async function getWorkspace(id: string): Promise<WorkspaceRecord | undefined> {
  const { Item } = await db().send(new GetCommand({ TableName: tableName(), Key: keys.workspace(id) }));
  return stripKeys<WorkspaceRecord>(Item);
}

export async function getMembership(workspaceId: string, userId: string): Promise<MembershipRecord | undefined> {
  const { Item } = await db().send(new GetCommand({ TableName: tableName(), Key: keys.membership(workspaceId, userId) }));
  return stripKeys<MembershipRecord>(Item);
}

/** Every workspace of a user (a person belongs to few; no pagination). */
export async function listMemberships(userId: string): Promise<MembershipRecord[]> {
  const items = await queryAll({
    IndexName: 'gsi1',
    KeyConditionExpression: 'gsi1pk = :pk',
    ExpressionAttributeValues: { ':pk': keys.userWorkspaces(userId) },
  });
  return items.map((item) => stripKeys<MembershipRecord>(item)!);
}
