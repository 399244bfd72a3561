/**
 * The values of antd's default theme tokens that the light components of the public pages draw
 * with (the theme sets no token of its own: config/theme.ts). Constants, where `theme.useToken()`
 * would bring antd's theme computation into the first script and run it at start-up.
 */
export const tokens = {
  colorPrimary: '#1677ff',
  colorText: 'rgba(0, 0, 0, 0.88)',
  colorTextHeading: 'rgba(0, 0, 0, 0.88)',
  colorTextDescription: 'rgba(0, 0, 0, 0.45)',
  colorBgContainer: '#ffffff',
  colorBorderSecondary: '#f0f0f0',
  lineWidth: 1,
  borderRadiusLG: 8,
  padding: 16,
  paddingLG: 24,
  fontSizeLG: 16,
  fontWeightStrong: 600,
  fontSizeHeading1: 38,
  lineHeightHeading1: 1.2105263157894737,
  fontSizeHeading4: 20,
  lineHeightHeading4: 1.4,
} as const;
