import { Modal, Typography } from 'antd';
import { t } from '../../../lib/i18n';

/** The inbox's keyboard shortcuts, as the help dialog (?) lists them (in the current language). */
export const inboxShortcuts = (): { keys: string; what: string }[] => [
  { keys: 'j', what: t('下一封邮件（打开）') },
  { keys: 'k', what: t('上一封邮件（打开）') },
  { keys: 'x', what: t('选中或取消选中当前邮件') },
  { keys: 'r', what: t('回复当前邮件') },
  { keys: '#', what: t('删除选中的邮件或当前邮件（可撤销）') },
  { keys: '/', what: t('搜索邮件') },
  { keys: '?', what: t('显示本帮助') },
];

export function ShortcutHelpDialog({ onClose }: { onClose: () => void }) {
  return (
    <Modal open title={t('键盘快捷键')} footer={null} onCancel={onClose}>
      <table className="shortcut-table" data-testid="shortcut-help">
        <tbody>
          {inboxShortcuts().map((entry) => (
            <tr key={entry.keys}>
              <td>
                <kbd>{entry.keys}</kbd>
              </td>
              <td>{entry.what}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <Typography.Paragraph type="secondary" style={{ marginTop: 12, marginBottom: 0 }}>
        {t('在输入框或编辑器中打字时，以及按住 Ctrl、Alt 或 ⌘ 时，快捷键不起作用。')}
      </Typography.Paragraph>
    </Modal>
  );
}
