import { describe, expect, it } from 'vitest';
import { cardListQueryOf, readCardLocation, writeCardLocation } from './card-filters.ts';

const read = (query: string) => readCardLocation(new URLSearchParams(query));

describe('the card list in the address', () => {
  it('reads the filters, the page and its size', () => {
    expect(read('status=NORMAL&product=p-1&keyword=%20广告%20&page=2&size=50')).toEqual({
      filters: { status: 'NORMAL', product: 'p-1', keyword: '广告' },
      page: 2,
      pageSize: 50,
    });
    expect(read('')).toEqual({ filters: {}, page: 1, pageSize: 20 });
  });

  it('drops what the API would refuse', () => {
    expect(read('status=ACTIVE&keyword=%20%20&page=0&size=7')).toEqual({ filters: {}, page: 1, pageSize: 20 });
    expect(read(`keyword=${'a'.repeat(30)}`).filters.keyword).toHaveLength(20);
  });

  it('starts again at the first page when a filter changes, and leaves defaults out', () => {
    expect(writeCardLocation(new URLSearchParams('page=3&size=50'), { filters: { status: 'FREEZE' } }).toString()).toBe('size=50&status=FREEZE');
    expect(writeCardLocation(new URLSearchParams('status=FREEZE&keyword=1'), { filters: {} }).toString()).toBe('');
    expect(writeCardLocation(new URLSearchParams('page=2'), { pageSize: 20 }).toString()).toBe('');
  });

  it('names the filters as GET /card does', () => {
    expect(cardListQueryOf({ filters: { product: 'p-1', keyword: '4444' }, page: 1, pageSize: 20 })).toEqual({
      page: 1,
      page_size: 20,
      product_id: 'p-1',
      keyword: '4444',
    });
  });
});
