/** The one way the store sends an UpdateItem: built from an update spec (expressions.ts), sent on the table. */
import { UpdateCommand, type UpdateCommandOutput } from '@aws-sdk/lib-dynamodb';
import { db } from './client.js';
import { updateItem } from './expressions.js';

export const sendUpdate = (spec: Parameters<typeof updateItem>[0]): Promise<UpdateCommandOutput> =>
  db().send(new UpdateCommand(updateItem(spec)));
