import { describe, expect, it } from 'vitest';
import { AppError } from '../../shared/errors.js';
import { decodeCursor, encodeCursor } from '../../shared/store/pagination.js';
import { cursorScopeOf, pathQuery } from '../../shared/store/paths.js';
import { entities } from '../../shared/store/entities.js';
import { keys } from '../../shared/store/keys.js';

const scope = cursorScopeOf(pathQuery(entities.profile, 'byWorkspace', { workspace_id: 'w1' }));
const [partitionAttribute] = Object.keys(scope.partition) as [string];
const position = Object.fromEntries(scope.attributes.map((attribute) => [attribute, `${attribute}-value`]));
const handedOut = { ...position, [partitionAttribute]: keys.workspaceProfiles('w1') };

const refusal = (cursor: string) => {
  try {
    decodeCursor(cursor, scope);
  } catch (error) {
    return (error as AppError).code;
  }
  return 'accepted';
};

describe('a list cursor', () => {
  it('holds the table key and the index key of an index path, and reads back as handed out', () => {
    expect(scope.attributes).toHaveLength(4);
    expect(decodeCursor(encodeCursor(handedOut), scope)).toEqual(handedOut);
  });

  it('is checked whole: an extra, a missing or a non-string attribute, or another partition, is invalid_request', () => {
    const [, second] = scope.attributes as [string, string];
    const { [second]: _dropped, ...missing } = handedOut;
    for (const bad of [
      { ...handedOut, extra: 'x' },
      missing,
      { ...handedOut, [second]: 3 },
      { ...handedOut, [partitionAttribute]: keys.workspaceProfiles('w2') },
    ])
      expect(refusal(encodeCursor(bad)), JSON.stringify(bad)).toBe('invalid_request');
    expect(refusal('not a cursor')).toBe('invalid_request');
    expect(refusal(encodeCursor(handedOut))).toBe('accepted');
  });
});
