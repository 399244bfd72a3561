import { Button } from 'antd';
import { t } from '../../../lib/i18n';

interface UndoDeleteBarProps {
  count: number;
  onUndo: () => void;
}

/** "已删除 N 封 · 撤销", at the foot of the screen while a deletion can still be taken back. */
export function UndoDeleteBar({ count, onUndo }: UndoDeleteBarProps) {
  return (
    <div className="inbox-undo-bar" role="status" data-testid="undo-bar">
      <span>{t('已删除 {count} 封', { count })}</span>
      <Button type="link" onClick={onUndo} data-testid="undo-delete">
        {t('撤销')}
      </Button>
    </div>
  );
}
