import type { ThemeConfig } from 'antd';

/**
 * antd's theme, as the root ConfigProvider applies it. antd generates no styles in the browser
 * (zeroRuntime: its CSS-in-JS cost most of a page's first render): the build renders every component
 * once with this same theme and writes their styles to a style sheet (build/antd-static-style.ts).
 * Both must agree on the class names, so the style sheet's selectors carry no hash and its CSS
 * variables sit on the fixed class `css-var-youju` (by default both would vary per render).
 */
export const antdTheme = {
  zeroRuntime: true,
  hashed: false,
  cssVar: { key: 'css-var-youju' },
} as const satisfies ThemeConfig;
