import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { db, tableName } from './client.js';
import { keys } from './keys.js';
import { isConditionFailure } from './transact.js';

/**
 * Replaces the password hash on the email's credential, only if it is still `expected`: a log-in
 * upgrading the hash cannot undo a password change that landed in between. False when it was not.
 */
export async function replacePasswordHash(email: string, expected: string, replacement: string): Promise<boolean> {
  try {
    await db().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: keys.email(email),
        UpdateExpression: 'SET password_hash = :new',
        ConditionExpression: 'password_hash = :expected',
        ExpressionAttributeValues: { ':new': replacement, ':expected': expected },
      }),
    );
    return true;
  } catch (error) {
    if (isConditionFailure(error)) return false;
    throw error;
  }
}
