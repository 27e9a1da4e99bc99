/**
 * Key builders for every entity in the single table. Nothing else spells a key.
 *
 * | entity            | pk                     | sk                 | gsi1pk / gsi1sk                            |
 * |-------------------|------------------------|--------------------|--------------------------------------------|
 * | user              | USER#<id>              | USER               |                                            |
 * | email (unique)    | EMAIL#<email>          | EMAIL              |                                            |
 * | workspace         | WS#<id>                | WS                 |                                            |
 * | membership        | WS#<id>                | MEMBER#<user_id>   | USER#<user_id>#WORKSPACES / <joined>#<ws>  |
 * | session           | SESSION#<id>           | SESSION            |                                            |
 * | api key           | APIKEY#<id>            | APIKEY             | WS#<ws>#APIKEYS / <created>#<id>           |
 * | profile           | PROFILE#<id>           | PROFILE            | WS#<ws>#PROFILES / <created>#<id>          |
 * | username (unique) | USERNAME#<username>    | USERNAME           |                                            |
 */
export const keys = {
  user: (id: string) => ({ pk: `USER#${id}`, sk: 'USER' }),
  email: (email: string) => ({ pk: `EMAIL#${email}`, sk: 'EMAIL' }),
  workspace: (id: string) => ({ pk: `WS#${id}`, sk: 'WS' }),
  membership: (workspaceId: string, userId: string) => ({ pk: `WS#${workspaceId}`, sk: `MEMBER#${userId}` }),
  userWorkspaces: (userId: string) => `USER#${userId}#WORKSPACES`,
  session: (id: string) => ({ pk: `SESSION#${id}`, sk: 'SESSION' }),
  apiKey: (id: string) => ({ pk: `APIKEY#${id}`, sk: 'APIKEY' }),
  workspaceApiKeys: (workspaceId: string) => `WS#${workspaceId}#APIKEYS`,
  profile: (id: string) => ({ pk: `PROFILE#${id}`, sk: 'PROFILE' }),
  workspaceProfiles: (workspaceId: string) => `WS#${workspaceId}#PROFILES`,
  username: (username: string) => ({ pk: `USERNAME#${username}`, sk: 'USERNAME' }),
};

/** A sort key that orders by time and stays unique: `<iso timestamp>#<id>`. */
export const timeSortKey = (iso: string, id: string) => `${iso}#${id}`;

/** Attributes of the key layout, stripped before a record leaves the store. */
export const KEY_ATTRIBUTES = ['pk', 'sk', 'gsi1pk', 'gsi1sk', 'gsi2pk', 'gsi2sk', 'expires_at_epoch', 'entity'] as const;
