import { CopyOutlined, DownloadOutlined } from '@ant-design/icons';
import { Alert, Button, Modal, Space, Typography } from 'antd';
import { paths } from '../../../config/routes';
import { copyText } from '../../../lib/clipboard';
import { showErrorMessage, showSuccessMessage } from '../../../lib/feedback';
import { t } from '../../../lib/i18n';
import { markCredentialSaved, setCredentialDialogOpen, useCredentialStore } from '../../../state/credential';

/** The text of 下载凭证: everything needed to come back, with where to go. */
function credentialFileText(email: string, credential: string): string {
  const site = window.location.origin;
  return [
    t('临时邮箱凭证'),
    '',
    t('邮箱地址：{email}', { email }),
    t('凭证（密码）：{credential}', { credential }),
    t('网站：{site}', { site }),
    t('登录页：{url}（选择邮箱登录，填写邮箱地址和凭证）', { url: `${site}${paths.auth}` }),
    '',
    t('凭证只显示一次，请妥善保管；任何拿到它的人都能进入这个邮箱。'),
    '',
  ].join('\r\n');
}

function download(email: string, credential: string): void {
  const blob = new Blob([credentialFileText(email, credential)], { type: 'text/plain;charset=utf-8' });
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = t('{email}-凭证.txt', { email });
  document.body.appendChild(link);
  link.click();
  link.remove();
  // The download has its own copy; the object URL is released once the click went through.
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

/**
 * Shows a new temporary mailbox's address and credential once, with copy and 下载凭证; either
 * counts as saved, after which logout no longer asks for confirmation.
 */
export function CredentialDialog() {
  const { email, credential, open, unsavedEmail } = useCredentialStore();
  if (!email || !credential) return null;
  const saved = unsavedEmail !== email;
  return (
    <Modal
      open={open}
      title={t('保存你的临时邮箱凭证')}
      onCancel={() => setCredentialDialogOpen(false)}
      footer={
        <Button type="primary" onClick={() => setCredentialDialogOpen(false)}>
          {saved ? t('完成') : t('稍后保存')}
        </Button>
      }
      width={520}
    >
      <Space orientation="vertical" size="middle" style={{ width: '100%' }}>
        <Alert
          type={saved ? 'success' : 'warning'}
          showIcon
          title={saved ? t('凭证已保存') : t('凭证只显示这一次')}
          description={t('退出登录后，在登录页用「邮箱地址 + 凭证」即可重新进入这个邮箱（到期前有效）。')}
        />
        <div>
          <Typography.Text type="secondary">{t('邮箱地址')}</Typography.Text>
          <div>
            <Typography.Text strong data-testid="credential-email">
              {email}
            </Typography.Text>
          </div>
        </div>
        <div>
          <Typography.Text type="secondary">{t('凭证（密码）')}</Typography.Text>
          <div>
            <Typography.Text code strong data-testid="credential-value" style={{ fontSize: 16 }}>
              {credential}
            </Typography.Text>
          </div>
        </div>
        <Space wrap>
          <Button
            icon={<CopyOutlined />}
            onClick={() =>
              copyText(`${email}\n${credential}`).then(
                () => {
                  markCredentialSaved();
                  showSuccessMessage(t('已复制邮箱地址和凭证'));
                },
                () => showErrorMessage(t('复制失败，请手动选择文本复制')),
              )
            }
          >
            {t('复制')}
          </Button>
          <Button
            icon={<DownloadOutlined />}
            onClick={() => {
              download(email, credential);
              markCredentialSaved();
            }}
          >
            {t('下载凭证')}
          </Button>
        </Space>
      </Space>
    </Modal>
  );
}
