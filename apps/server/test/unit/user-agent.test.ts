import { describe, expect, it } from 'vitest';
import { deviceName } from '../../src/lib/user-agent.ts';

describe('the device name read from a user agent', () => {
  it('names the browser with its major version and the system', () => {
    const cases: [string, string][] = [
      ['Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36', 'Chrome 131 · Windows'],
      ['Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36 Edg/131.0.2903.86', 'Edge 131 · Windows'],
      ['Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Safari/605.1.15', 'Safari 17.5 · macOS'],
      ['Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1', 'Safari 17.5 · iOS'],
      ['Mozilla/5.0 (X11; Linux x86_64; rv:133.0) Gecko/20100101 Firefox/133.0', 'Firefox 133 · Linux'],
      [
        'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148 MicroMessenger/8.0.50(0x1800323c) NetType/WIFI Language/zh_CN',
        '微信 8.0 · iOS',
      ],
      ['Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.6778.81 Mobile Safari/537.36', 'Chrome 131 · Android'],
      ['Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) HeadlessChrome/131.0.0.0 Safari/537.36', 'Chrome 131 · Linux'],
    ];
    for (const [agent, name] of cases) expect(deviceName(agent), agent).toBe(name);
  });

  it('shows an agent it cannot read as it came, cut short, and none as 未知设备', () => {
    expect(deviceName('portal-e2e')).toBe('portal-e2e');
    expect(deviceName('x'.repeat(100))).toBe(`${'x'.repeat(60)}…`);
    expect(deviceName('  ')).toBe('未知设备');
  });
});
