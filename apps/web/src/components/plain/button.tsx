import LoadingOutlinedSvg from '@ant-design/icons-svg/es/asn/LoadingOutlined';
import type { ComponentProps, CSSProperties, ReactNode } from 'react';
import { plainIcon } from './icon';
import 'virtual:antd-style/vars/Button.css';
import 'virtual:antd-style/hook/Button-Button.css';

const LoadingOutlined = plainIcon(LoadingOutlinedSvg);

/** antd's Button puts a space between two Chinese characters (登 录), as Chinese typesetting does. */
const TWO_CHINESE_CHARACTERS = /^[\u4E00-\u9FA5]{2}$/;

interface PlainButtonProps
  extends Omit<ComponentProps<'button'>, 'type' | 'className' | 'style' | 'children'> {
  type?: 'primary' | 'text' | 'default';
  size?: 'large';
  icon?: ReactNode;
  loading?: boolean;
  className?: string;
  style?: CSSProperties;
  children?: ReactNode;
}

/**
 * antd's Button as /home draws it, markup and classes alike, so that antd's own style sheet for
 * buttons (built at build time, build/antd-static-style.tsx) draws it the same; without antd's
 * runtime (its context, theme and style hooks), which made most of the first page's script work. No
 * click wave: the one thing it leaves out.
 */
export function PlainButton({
  type = 'default',
  size,
  icon,
  loading = false,
  disabled,
  className,
  children,
  onClick,
  ...rest
}: PlainButtonProps) {
  const [color, variant] =
    type === 'primary'
      ? ['primary', 'solid']
      : type === 'text'
        ? ['default', 'text']
        : ['default', 'outlined'];
  const classes = [
    'ant-btn css-var-youju',
    `ant-btn-${type}`,
    `ant-btn-color-${color}`,
    `ant-btn-variant-${variant}`,
    size === 'large' ? 'ant-btn-lg' : '',
    children == null && (icon || loading) ? 'ant-btn-icon-only' : '',
    loading ? 'ant-btn-loading' : '',
    className ?? '',
  ]
    .filter(Boolean)
    .join(' ');
  const spaced =
    typeof children === 'string' && !icon && type !== 'text' && TWO_CHINESE_CHARACTERS.test(children)
      ? children.split('').join(' ')
      : children;
  return (
    <button
      {...rest}
      type="button"
      className={classes}
      disabled={disabled}
      onClick={(event) => {
        if (loading || disabled) {
          event.preventDefault();
          return;
        }
        onClick?.(event);
      }}
    >
      {loading ? (
        <span className="ant-btn-icon ant-btn-loading-icon">
          <LoadingOutlined />
        </span>
      ) : icon ? (
        <span className="ant-btn-icon">{icon}</span>
      ) : null}
      {typeof spaced === 'string' ? <span>{spaced}</span> : spaced}
    </button>
  );
}
