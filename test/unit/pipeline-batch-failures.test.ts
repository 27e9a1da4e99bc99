/** The one batch-item-failure rule: a stream resumes at its earliest failed record; a queue names each failed message. */
import { describe, expect, it } from 'vitest';
import { earliestSequenceNumber, sqsBatchResponse, streamBatchResponse } from '../../shared/pipeline/batch-failures.js';

describe('streamBatchResponse', () => {
  it('reports only the earliest failed sequence number, compared as numbers (not as strings)', () => {
    const failed = ['300000000000000000021', '99000000000000000005', '300000000000000000009'];
    expect(streamBatchResponse({ Records: [] }, failed)).toEqual({
      batchItemFailures: [{ itemIdentifier: '99000000000000000005' }],
    });
  });

  it('reports nothing when nothing failed, and answers a tumbling window with an empty state', () => {
    expect(streamBatchResponse({ Records: [] }, [])).toEqual({ batchItemFailures: [] });
    const windowed = { Records: [], window: { start: 'a', end: 'b' }, state: { x: '1' } };
    expect(streamBatchResponse(windowed, ['7', '5'])).toEqual({
      batchItemFailures: [{ itemIdentifier: '5' }],
      state: {},
    });
  });

  it('leaves the list it is given as it was', () => {
    const failed = ['3', '1', '2'];
    expect(earliestSequenceNumber(failed)).toBe('1');
    expect(failed).toEqual(['3', '1', '2']);
    expect(earliestSequenceNumber([])).toBeUndefined();
  });
});

describe('sqsBatchResponse', () => {
  it('names every failed message', () => {
    expect(sqsBatchResponse(['m-2', 'm-7'])).toEqual({
      batchItemFailures: [{ itemIdentifier: 'm-2' }, { itemIdentifier: 'm-7' }],
    });
    expect(sqsBatchResponse([])).toEqual({ batchItemFailures: [] });
  });
});
