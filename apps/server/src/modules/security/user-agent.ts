/**
 * A user agent in words people recognise on the security screen ("Windows 电脑 · Chrome 浏览器").
 * Deliberately small: the big families only; anything else is "未知设备" with the raw text beside it.
 */
export function describeUserAgent(userAgent: string): string {
  const ua = userAgent.trim();
  if (!ua) return '未知设备';
  const tool =
    /^(curl|Wget|python-requests|node-fetch|undici|axios|Go-http-client|okhttp|PostmanRuntime)\/?([\d.]*)/i.exec(
      ua,
    );
  if (tool) return `命令行或程序（${tool[1]}）`;
  if (/^node$/i.test(ua)) return '命令行或程序（node）';

  let system = '未知系统';
  if (/iPhone/.test(ua)) system = 'iPhone';
  else if (/iPad/.test(ua)) system = 'iPad';
  else if (/Android/.test(ua)) system = /Mobile/.test(ua) ? 'Android 手机' : 'Android 平板';
  else if (/HarmonyOS|OpenHarmony/.test(ua)) system = '鸿蒙设备';
  else if (/Windows/.test(ua)) system = 'Windows 电脑';
  else if (/CrOS/.test(ua)) system = 'ChromeOS 电脑';
  else if (/Macintosh|Mac OS X/.test(ua)) system = 'Mac 电脑';
  else if (/Linux/.test(ua)) system = 'Linux 电脑';

  const browsers: [RegExp, string][] = [
    [/MicroMessenger\/([\d.]+)/, '微信'],
    [/QQBrowser\/([\d.]+)/, 'QQ 浏览器'],
    [/UCBrowser\/([\d.]+)/, 'UC 浏览器'],
    [/Edg(?:e|A|iOS)?\/([\d.]+)/, 'Edge 浏览器'],
    [/(?:OPR|Opera)\/([\d.]+)/, 'Opera 浏览器'],
    [/HeadlessChrome\/([\d.]+)/, '无界面 Chrome'],
    [/Firefox\/([\d.]+)/, 'Firefox 浏览器'],
    [/(?:Chrome|CriOS)\/([\d.]+)/, 'Chrome 浏览器'],
    [/Version\/([\d.]+).*Safari\//, 'Safari 浏览器'],
  ];
  for (const [pattern, name] of browsers) {
    const match = pattern.exec(ua);
    if (match) return `${system} · ${name} ${(match[1] ?? '').split('.')[0]}`.trim();
  }
  return system === '未知系统' ? '未知设备' : system;
}
