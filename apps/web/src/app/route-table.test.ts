import { describe, expect, it } from 'vitest';
import { paths } from '../lib/paths.ts';
import { screenAt, screenList } from './route-table.ts';

describe('the route table', () => {
  it('draws exactly the spec’s signed-in screens inside the signed-in layout', () => {
    expect(screenList.filter((screen) => screen.area === 'signed-in').map((screen) => screen.path)).toEqual([
      '/wallet',
      '/settings',
      '/information-center',
      '/information-announcement-details',
      '/card',
      '/create-card',
      '/card-details',
      '/card/analysis',
      '/bulk-export',
      '/create-card/verification',
      '/create-card/secondary-verification-data',
    ]);
  });

  it('finds a screen by its path with or without a trailing slash, and nothing for an unknown path', () => {
    expect(screenAt('/wallet/')?.area).toBe('signed-in');
    expect(screenAt('/sign-in')?.area).toBe('login');
    expect(screenAt('/agreement')?.area).toBe('alone');
    expect(screenAt('/wallet/extra')).toBeUndefined();
    expect(screenAt('/')).toBeUndefined();
  });

  it('selects the card entry on every card screen, its own on the export page, and no entry on the message pages', () => {
    const menuOf = (path: string) => screenAt(path)?.menuKey ?? null;
    expect(menuOf('/wallet')).toBe('wallet');
    expect(menuOf('/settings')).toBe('settings');
    expect(menuOf('/card/analysis')).toBe('spendingAnalysis');
    expect(menuOf('/bulk-export')).toBe('bulkExport');
    for (const path of ['/card', '/create-card', '/card-details', '/create-card/verification', '/create-card/secondary-verification-data']) {
      expect(menuOf(path)).toBe('card');
    }
    expect(menuOf('/information-center')).toBeNull();
    expect(menuOf('/information-announcement-details')).toBeNull();
  });

  it('keeps sign-in outside the query cache and every other public screen inside it', () => {
    const login = screenList.filter((screen) => screen.area === 'login');
    expect(login.filter((screen) => !screen.query).map((screen) => screen.path)).toEqual(['/sign-in']);
    expect(screenAt('/agreement')?.query).toBe(true);
  });
});

describe('the href builders', () => {
  it('address a card by its id', () => {
    expect(paths.cardDetails.getHref('c 1/2')).toBe('/card-details?id=c%201%2F2');
  });

  it('name the announcements’ tab of the message center and leave the first tab bare', () => {
    expect(paths.informationCenter.getHref('announcement')).toBe('/information-center?tab=announcement');
    expect(paths.informationCenter.getHref('message')).toBe('/information-center');
    expect(paths.informationCenter.getHref()).toBe('/information-center');
  });

  it('open an agreement by id, or bare with the id in navigation state', () => {
    expect(paths.agreement.getHref('a1')).toBe('/agreement?id=a1');
    expect(paths.agreement.getHref()).toBe('/agreement');
  });
});
