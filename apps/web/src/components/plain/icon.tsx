import type { AbstractNode, IconDefinition } from '@ant-design/icons-svg/es/types';
import type { ComponentType, CSSProperties } from 'react';

export interface PlainIconProps {
  className?: string;
  style?: CSSProperties;
}

function svgChildren(nodes: AbstractNode[] | undefined) {
  return nodes?.map((node, index) => {
    const Tag = node.tag as 'path';
    // biome-ignore lint/suspicious/noArrayIndexKey: the icon's parts never reorder
    return <Tag key={index} {...node.attrs} />;
  });
}

/**
 * An icon drawn from @ant-design/icons-svg's definition with the markup of @ant-design/icons (the
 * `anticon` class, styled by antd's base style sheet), without that package's runtime: its context,
 * its style insertion and its colour helpers weighed on the first script. Outlined and filled icons
 * only (a two-tone one's definition is a function of its colours).
 */
export function plainIcon(definition: IconDefinition): ComponentType<PlainIconProps> {
  const node = definition.icon as AbstractNode;
  const { name } = definition;
  // biome-ignore lint/correctness/noComponentHookFactories: made once per icon, at module level, never per render
  function Icon({ className, style }: PlainIconProps) {
    return (
      <span
        role="img"
        aria-label={name}
        className={`anticon anticon-${name}${name === 'loading' ? ' anticon-spin' : ''}${className ? ` ${className}` : ''}`}
        style={style}
      >
        <svg
          {...node.attrs}
          focusable="false"
          data-icon={name}
          width="1em"
          height="1em"
          fill="currentColor"
          aria-hidden="true"
        >
          {svgChildren(node.children)}
        </svg>
      </span>
    );
  }
  return Icon;
}
