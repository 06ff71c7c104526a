import { describe, expect, it } from 'vitest';
import { cardFilterOf, cardListQueryOf, readCardLocation, writeCardLocation } from './card-filters.ts';

const read = (query: string) => readCardLocation(new URLSearchParams(query));

describe('the card list in the address', () => {
  it('reads the filters, the sort, the page and its size', () => {
    expect(read('status=NORMAL,FREEZE&product=p-1&keyword=%20广告%20&tag=Meta&sort=-balance&page=2&size=50')).toEqual({
      filters: { statuses: ['NORMAL', 'FREEZE'], product: 'p-1', keyword: '广告', tag: 'Meta' },
      sort: '-balance',
      page: 2,
      pageSize: 50,
    });
    expect(read('')).toEqual({ filters: {}, sort: '-created_at', page: 1, pageSize: 20 });
  });

  it('drops what the API would refuse', () => {
    expect(read('status=ACTIVE&keyword=%20%20&sort=name&page=0&size=7')).toEqual({ filters: {}, sort: '-created_at', page: 1, pageSize: 20 });
    expect(read('status=ACTIVE,FREEZE,FREEZE').filters.statuses).toEqual(['FREEZE']);
    expect(read(`keyword=${'a'.repeat(30)}`).filters.keyword).toHaveLength(20);
    expect(read(`tag=${'a'.repeat(21)}`).filters.tag).toBeUndefined();
  });

  it('starts again at the first page when a filter or the sort changes, and leaves defaults out', () => {
    expect(writeCardLocation(new URLSearchParams('page=3&size=50'), { filters: { statuses: ['FREEZE', 'NORMAL'] } }).toString()).toBe(
      'size=50&status=FREEZE%2CNORMAL',
    );
    expect(writeCardLocation(new URLSearchParams('status=FREEZE&keyword=1&tag=x'), { filters: {} }).toString()).toBe('');
    expect(writeCardLocation(new URLSearchParams('page=3'), { sort: 'spent_this_month' }).toString()).toBe('sort=spent_this_month');
    expect(writeCardLocation(new URLSearchParams('sort=balance'), { sort: '-created_at' }).toString()).toBe('');
    expect(writeCardLocation(new URLSearchParams('page=2'), { pageSize: 20 }).toString()).toBe('');
  });

  it('names the filters as GET /card does', () => {
    expect(cardListQueryOf({ filters: { product: 'p-1', keyword: '4444' }, sort: '-created_at', page: 1, pageSize: 20 })).toEqual({
      page: 1,
      page_size: 20,
      product_id: 'p-1',
      keyword: '4444',
    });
    expect(cardFilterOf({ statuses: ['NORMAL', 'FREEZE'], tag: '广告', holder: 'm-1' })).toEqual({ status: 'NORMAL,FREEZE', tag: '广告', holder_member_id: 'm-1' });
    expect(cardListQueryOf({ filters: {}, sort: 'balance', page: 2, pageSize: 50 })).toEqual({ page: 2, page_size: 50, sort: 'balance' });
  });
});
