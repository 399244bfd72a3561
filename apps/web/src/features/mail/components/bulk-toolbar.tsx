import {
  DeleteOutlined,
  EyeInvisibleOutlined,
  EyeOutlined,
  MoreOutlined,
  StarFilled,
  StarOutlined,
} from '@ant-design/icons';
import { Button, Checkbox, Dropdown, Tooltip, Typography } from 'antd';
import type { ReactNode } from 'react';
import { t } from '../../../lib/i18n';

export type BulkAction = 'read' | 'unread' | 'star' | 'unstar' | 'delete';

interface BulkToolbarProps {
  /** rows on this page */
  total: number;
  /** of them, checked */
  checked: number;
  /** a phone: the less common actions go into 更多 so that the bar fits 375 px */
  narrow: boolean;
  busy: boolean;
  onCheckAll: (checked: boolean) => void;
  onAction: (action: BulkAction) => void;
  /** shown at the end of the bar while nothing is checked */
  idleAction?: ReactNode;
}

/** The actions, named in the current language (built at render, never at import). */
const actions = (): { action: BulkAction; label: string; icon: ReactNode; onPhone: boolean }[] => [
  { action: 'read', label: t('标为已读'), icon: <EyeOutlined />, onPhone: true },
  { action: 'unread', label: t('标为未读'), icon: <EyeInvisibleOutlined />, onPhone: false },
  { action: 'star', label: t('加星标'), icon: <StarFilled style={{ color: '#faad14' }} />, onPhone: false },
  { action: 'unstar', label: t('取消星标'), icon: <StarOutlined />, onPhone: false },
  { action: 'delete', label: t('删除'), icon: <DeleteOutlined />, onPhone: true },
];

/**
 * The page's select-all box (checked, unchecked or in between) and, once something is checked, what
 * can be done to the checked mail. Icon buttons named by their tooltip and aria-label; on a phone
 * the three less common actions sit in a 更多 menu.
 */
export function BulkToolbar({
  total,
  checked,
  narrow,
  busy,
  onCheckAll,
  onAction,
  idleAction,
}: BulkToolbarProps) {
  const all = actions();
  const shown = narrow ? all.filter((entry) => entry.onPhone) : all;
  const more = narrow ? all.filter((entry) => !entry.onPhone) : [];
  return (
    <div className="inbox-bulk-bar" data-testid="bulk-toolbar">
      <Checkbox
        className="inbox-check"
        aria-label={t('选择本页全部邮件')}
        data-testid="select-all"
        checked={total > 0 && checked === total}
        indeterminate={checked > 0 && checked < total}
        disabled={total === 0}
        onChange={(event) => onCheckAll(event.target.checked)}
      />
      {checked > 0 ? (
        <>
          <Typography.Text data-testid="bulk-count" style={{ whiteSpace: 'nowrap' }}>
            {t('已选 {count} 封', { count: checked })}
          </Typography.Text>
          <span className="inbox-bulk-actions">
            {shown.map((entry) => (
              <Tooltip key={entry.action} title={entry.label}>
                <Button
                  type="text"
                  aria-label={entry.label}
                  icon={entry.icon}
                  danger={entry.action === 'delete'}
                  disabled={busy}
                  onClick={() => onAction(entry.action)}
                />
              </Tooltip>
            ))}
            {more.length > 0 ? (
              <Dropdown
                trigger={['click']}
                menu={{
                  items: more.map((entry) => ({ key: entry.action, label: entry.label, icon: entry.icon })),
                  onClick: ({ key }) => onAction(key as BulkAction),
                }}
              >
                <Button type="text" aria-label={t('更多操作')} icon={<MoreOutlined />} disabled={busy} />
              </Dropdown>
            ) : null}
          </span>
        </>
      ) : (
        <>
          <Typography.Text type="secondary" style={{ fontSize: 12 }}>
            {t('全选')}
          </Typography.Text>
          {idleAction ? <span className="inbox-bulk-actions">{idleAction}</span> : null}
        </>
      )}
    </div>
  );
}
