import { GetCommand } from '@aws-sdk/lib-dynamodb';
import type { MembershipRecord, UserRecord, WorkspaceRecord } from '../domain/entities.js';
import { AppError } from '../errors.js';
import { db, tableName } from './client.js';
import { keys } from './keys.js';
import { stripKeys } from './records.js';
import { transact } from './transact.js';
import { membershipItem, workspaceItem } from './workspaces.js';

export interface EmailCredential {
  user_id: string;
  password_hash: string;
}

/** Creates the user, its unique email and its personal workspace with the user as owner: all or nothing. */
export async function createUserWithWorkspace(user: UserRecord, passwordHash: string, workspace: WorkspaceRecord): Promise<void> {
  const owner: MembershipRecord = {
    workspace_id: workspace.id,
    workspace_name: workspace.name,
    user_id: user.id,
    email: user.email,
    name: user.name,
    role: 'owner',
    created_at: user.created_at,
  };
  await transact(
    [
      {
        Put: {
          TableName: tableName(),
          Item: { ...keys.email(user.email), entity: 'email', user_id: user.id, password_hash: passwordHash },
          ConditionExpression: 'attribute_not_exists(pk)',
        },
      },
      { Put: { TableName: tableName(), Item: { ...keys.user(user.id), entity: 'user', ...user } } },
      workspaceItem(workspace),
      membershipItem(owner),
    ],
    () => new AppError('email_taken', { hint: 'Log in with POST /v1/sessions, or sign up with another email.' }),
  );
}

export async function findCredential(email: string): Promise<EmailCredential | undefined> {
  const { Item } = await db().send(new GetCommand({ TableName: tableName(), Key: keys.email(email) }));
  return Item ? { user_id: Item.user_id as string, password_hash: Item.password_hash as string } : undefined;
}

export async function getUser(id: string): Promise<UserRecord | undefined> {
  const { Item } = await db().send(new GetCommand({ TableName: tableName(), Key: keys.user(id) }));
  return stripKeys<UserRecord>(Item);
}
