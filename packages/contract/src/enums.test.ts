import { describe, expect, it } from 'vitest';
import { EVENT_TYPE_FREEZE, FREEZE_MESSAGE_STATUS, messageTagLabel, messageTagOf } from './enums.ts';

const labelOf = (message: { type: string; status: string }) => {
  const tag = messageTagOf(message);
  return tag && messageTagLabel[tag];
};

describe('the tag beside a message title', () => {
  it('says what happened to the wallet for a FREEZE message, never 失败', () => {
    expect(labelOf({ type: EVENT_TYPE_FREEZE, status: FREEZE_MESSAGE_STATUS.frozen })).toBe('钱包冻结');
    expect(labelOf({ type: EVENT_TYPE_FREEZE, status: FREEZE_MESSAGE_STATUS.unfrozen })).toBe('钱包解冻');
    expect(FREEZE_MESSAGE_STATUS).toEqual({ frozen: 'fail', unfrozen: 'success' });
  });

  it('keeps 失败 for any other message that did not succeed, and no tag for a success', () => {
    expect(labelOf({ type: 'BATCH_CREATE_CARD', status: 'fail' })).toBe('失败');
    expect(labelOf({ type: 'NOTICE', status: 'fail' })).toBe('失败');
    expect(labelOf({ type: 'NOTICE', status: 'success' })).toBeNull();
    expect(labelOf({ type: 'ANNOUNCEMENT', status: 'success' })).toBeNull();
  });
});
