/**
 * A device's name as a person reads it, from the browser's user agent: "Chrome 131 · Windows",
 * "微信 8.0 · iOS", "Safari 17 · macOS". Only what the security centre shows (sessions, trusted devices,
 * sign-in history): nothing is decided on it. An agent it cannot read is shown as it came, cut short.
 */

const BROWSERS: [RegExp, string][] = [
  [/MicroMessenger\/(\d+(?:\.\d+)?)/, '微信'],
  [/DingTalk\/(\d+(?:\.\d+)?)/, '钉钉'],
  [/QQBrowser\/(\d+)/, 'QQ浏览器'],
  [/UCBrowser\/(\d+)/, 'UC浏览器'],
  [/HuaweiBrowser\/(\d+)/, '华为浏览器'],
  [/MiuiBrowser\/(\d+)/, '小米浏览器'],
  [/SamsungBrowser\/(\d+)/, 'Samsung Internet'],
  [/Edg(?:e|A|iOS)?\/(\d+)/, 'Edge'],
  [/(?:OPR|Opera)\/(\d+)/, 'Opera'],
  [/(?:Firefox|FxiOS)\/(\d+)/, 'Firefox'],
  [/(?:Chrome|CriOS)\/(\d+)/, 'Chrome'],
  [/Version\/(\d+(?:\.\d+)?).*Safari\//, 'Safari'],
];

const SYSTEMS: [RegExp, string][] = [
  [/HarmonyOS|OpenHarmony/, 'HarmonyOS'],
  [/iPad/, 'iPadOS'],
  [/iPhone|iPod/, 'iOS'],
  [/Android/, 'Android'],
  [/Windows/, 'Windows'],
  [/CrOS/, 'ChromeOS'],
  [/Mac OS X|Macintosh/, 'macOS'],
  [/Linux/, 'Linux'],
];

const UNREADABLE_MAX = 60;

export function deviceName(userAgent: string) {
  const agent = userAgent.trim();
  if (agent === '') return '未知设备';
  let browser: string | null = null;
  for (const [pattern, name] of BROWSERS) {
    const found = pattern.exec(agent);
    if (found) {
      browser = `${name} ${found[1]}`;
      break;
    }
  }
  const system = SYSTEMS.find(([pattern]) => pattern.test(agent))?.[1] ?? null;
  if (browser && system) return `${browser} · ${system}`;
  if (browser || system) return (browser ?? system) as string;
  return agent.length > UNREADABLE_MAX ? `${agent.slice(0, UNREADABLE_MAX)}…` : agent;
}
