import { Modal, Typography } from 'antd';

/** The inbox's keyboard shortcuts, as the help dialog (?) lists them. */
export const INBOX_SHORTCUTS: { keys: string; what: string }[] = [
  { keys: 'j', what: '下一封邮件（打开）' },
  { keys: 'k', what: '上一封邮件（打开）' },
  { keys: 'x', what: '选中或取消选中当前邮件' },
  { keys: 'r', what: '回复当前邮件' },
  { keys: '#', what: '删除选中的邮件或当前邮件（可撤销）' },
  { keys: '/', what: '搜索邮件' },
  { keys: '?', what: '显示本帮助' },
];

export function ShortcutHelpDialog({ onClose }: { onClose: () => void }) {
  return (
    <Modal open title="键盘快捷键" footer={null} onCancel={onClose}>
      <table className="shortcut-table" data-testid="shortcut-help">
        <tbody>
          {INBOX_SHORTCUTS.map((entry) => (
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
        在输入框或编辑器中打字时，以及按住 Ctrl、Alt 或 ⌘ 时，快捷键不起作用。
      </Typography.Paragraph>
    </Modal>
  );
}
