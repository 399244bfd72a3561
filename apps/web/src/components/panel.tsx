import type { CSSProperties, ReactNode } from 'react';
import { tokens as token } from './plain/tokens';

interface PanelProps {
  /** the header line, as a Card's title */
  title?: ReactNode;
  style?: CSSProperties;
  children: ReactNode;
}

/**
 * A bordered box with an optional title, drawn like antd's Card with the theme's token values
 * (plain/tokens.ts). For the public pages, whose first visit must stay light: antd's Card brings its
 * tabs along, and /home's first script carries none of antd.
 */
export function Panel({ title, style, children }: PanelProps) {
  const border = `${token.lineWidth}px solid ${token.colorBorderSecondary}`;
  return (
    <section
      style={{ background: token.colorBgContainer, border, borderRadius: token.borderRadiusLG, ...style }}
    >
      {title ? (
        <div
          style={{
            display: 'flex',
            alignItems: 'center',
            boxSizing: 'border-box',
            minHeight: 56,
            // The body starts on the header's border line, as in antd's Card.
            marginBottom: -token.lineWidth,
            padding: `0 ${token.paddingLG}px`,
            borderBottom: border,
            color: token.colorTextHeading,
            fontSize: token.fontSizeLG,
            fontWeight: token.fontWeightStrong,
          }}
        >
          {title}
        </div>
      ) : null}
      <div style={{ padding: token.paddingLG }}>{children}</div>
    </section>
  );
}
