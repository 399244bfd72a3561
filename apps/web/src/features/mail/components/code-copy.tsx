import { CopyOutlined } from '@ant-design/icons';
import { Button, Tooltip } from 'antd';
import type { MouseEvent } from 'react';
import { copyText } from '../../../lib/clipboard';
import { showErrorMessage, showSuccessMessage } from '../../../lib/feedback';
import { t } from '../../../lib/i18n';

interface CodeCopyProps {
  /** the message's one-time code (MailItem.code) */
  code: string;
  /** `small` in the list, `middle` in the reader */
  size?: 'small' | 'middle';
}

/**
 * The verification code a message carries, shown in a button that copies it in one click. In the
 * list the click copies without opening the message.
 */
export function CodeCopy({ code, size = 'small' }: CodeCopyProps) {
  const copy = async (event: MouseEvent) => {
    event.stopPropagation();
    try {
      await copyText(code);
      showSuccessMessage(t('验证码 {code} 已复制', { code }));
    } catch {
      showErrorMessage(t('复制失败，请手动选择验证码复制'));
    }
  };
  return (
    <Tooltip title={t('复制验证码')}>
      <Button
        size={size}
        icon={<CopyOutlined />}
        onClick={copy}
        data-testid="verification-code"
        aria-label={t('复制验证码 {code}', { code })}
        style={{ fontFamily: 'ui-monospace, SFMono-Regular, Menlo, Consolas, monospace', fontWeight: 600 }}
      >
        {code}
      </Button>
    </Tooltip>
  );
}
