import { Children, type CSSProperties, type ReactNode } from 'react';
import 'virtual:antd-style/hook/Space-Space.css';

/**
 * antd's Space (its markup: one `ant-space-item` per child that renders) with its style sheet,
 * without antd's runtime (see button.tsx).
 */
export function PlainSpace({
  vertical = false,
  size,
  wrap = false,
  style,
  children,
}: {
  vertical?: boolean;
  size: 'middle' | 'large';
  wrap?: boolean;
  style?: CSSProperties;
  children: ReactNode;
}) {
  const classes = vertical
    ? `ant-space ant-space-vertical ant-space-gap-row-${size} ant-space-gap-col-${size} css-var-youju`
    : `ant-space ant-space-horizontal ant-space-align-center ant-space-gap-row-${size} ant-space-gap-col-${size} css-var-youju`;
  return (
    <div className={classes} style={wrap ? { flexWrap: 'wrap', ...style } : style}>
      {Children.toArray(children).map((child, index) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: Space keys its items by position too
        <div key={index} className="ant-space-item">
          {child}
        </div>
      ))}
    </div>
  );
}
