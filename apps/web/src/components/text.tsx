import type { CSSProperties, ReactNode } from 'react';
import { tokens as token } from './plain/tokens';

// Headings and paragraphs drawn like antd's Typography with the theme's token values
// (plain/tokens.ts), for the public pages, whose first visit must stay light: Typography brings
// editing, copying and ellipsis along, and /home's first script carries none of antd.

interface HeadingProps {
  level: 1 | 4;
  style?: CSSProperties;
  children: ReactNode;
}

export function Heading({ level, style, children }: HeadingProps) {
  const Tag = level === 1 ? 'h1' : 'h4';
  return (
    <Tag
      style={{
        marginBottom: '0.5em',
        color: token.colorTextHeading,
        fontWeight: token.fontWeightStrong,
        fontSize: level === 1 ? token.fontSizeHeading1 : token.fontSizeHeading4,
        lineHeight: level === 1 ? token.lineHeightHeading1 : token.lineHeightHeading4,
        ...style,
      }}
    >
      {children}
    </Tag>
  );
}

interface ParagraphProps {
  /** the quieter colour of secondary text */
  secondary?: boolean;
  style?: CSSProperties;
  children: ReactNode;
}

export function Paragraph({ secondary = false, style, children }: ParagraphProps) {
  return (
    <p style={{ margin: '0 0 1em', color: secondary ? token.colorTextDescription : undefined, ...style }}>
      {children}
    </p>
  );
}

/** Inline secondary text, as Typography.Text type="secondary". */
export function SecondaryText({ children }: { children: ReactNode }) {
  return <span style={{ color: token.colorTextDescription }}>{children}</span>;
}
