import { UploadOutlined } from '@ant-design/icons';
import type { ImportEmailAccountData, ImportRowResult } from '@youju/contract';
import { Alert, Button, Modal, Space, Table, type TableProps, Tag, Typography, Upload } from 'antd';
import { useState } from 'react';
import { showErrorMessage } from '../../../lib/feedback';
import { t } from '../../../lib/i18n';
import { readFileText } from '../../../lib/read-file-text';
import { useImportEmailAccounts } from '../api/import-email-accounts';

/** The sample CSV, in the interface's language (the server reads Chinese and English headers and states). */
const template = () =>
  t('邮箱地址,密码,容量(MB),过期时间,备注,状态\r\nuser1@example.com,password1,1024,2026-12-31,示例,启用\r\n');
const MAX_FILE_BYTES = 4 * 1024 * 1024;

const columns = (): TableProps<ImportRowResult>['columns'] => [
  { title: t('行号'), dataIndex: 'line', width: 70 },
  { title: t('邮箱地址'), dataIndex: 'address', render: (address: string) => address || t('（空）') },
  {
    title: t('结果'),
    dataIndex: 'ok',
    width: 90,
    render: (ok: boolean) =>
      ok ? <Tag color="success">{t('已导入')}</Tag> : <Tag color="error">{t('失败')}</Tag>,
  },
  { title: t('原因'), dataIndex: 'reason', render: (reason?: string) => reason ?? '—' },
];

function downloadTemplate() {
  const blob = new Blob([`\uFEFF${template()}`], { type: 'text/csv;charset=utf-8' });
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = t('邮箱导入模板.csv');
  link.click();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

/** CSV import: pick a file, send it, and see a result for every row. */
export function ImportDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const [result, setResult] = useState<ImportEmailAccountData | null>(null);
  const [fileName, setFileName] = useState('');
  const importMutation = useImportEmailAccounts(setResult);

  const pick = async (file: File) => {
    if (file.size > MAX_FILE_BYTES) {
      showErrorMessage(t('文件过大：一次最多导入 4 MB 的 CSV，请拆分后再试'));
      return;
    }
    setFileName(file.name);
    setResult(null);
    importMutation.mutate(await readFileText(file));
  };

  return (
    <Modal
      open={open}
      title={t('导入邮箱账号')}
      width={760}
      onCancel={onClose}
      destroyOnHidden
      footer={<Button onClick={onClose}>{t('关闭')}</Button>}
    >
      <Space orientation="vertical" style={{ width: '100%' }}>
        <Typography.Paragraph style={{ marginBottom: 0 }}>
          {t(
            '上传 CSV 文件，每行一个邮箱。列：邮箱地址、密码（必填，至少 6 位）、容量(MB)、过期时间（如 2026-12-31 或 2026-12-31 23:59，留空为永不过期）、备注、状态（启用或停用）。第一行可以是列名；一次最多 1000 行。支持 UTF-8 和 Excel 默认保存的中文编码。',
          )}
        </Typography.Paragraph>
        <Space wrap>
          <Upload
            accept=".csv,text/csv"
            showUploadList={false}
            beforeUpload={(file) => {
              void pick(file);
              return false;
            }}
          >
            <Button type="primary" icon={<UploadOutlined />} loading={importMutation.isPending}>
              {t('选择 CSV 文件')}
            </Button>
          </Upload>
          <Button onClick={downloadTemplate}>{t('下载模板')}</Button>
          {fileName && <Typography.Text type="secondary">{fileName}</Typography.Text>}
        </Space>
        {result && (
          <>
            <Alert
              type={result.failed === 0 ? 'success' : result.created === 0 ? 'error' : 'warning'}
              showIcon
              title={t('导入完成：成功 {created} 个，失败 {failed} 个', {
                created: result.created,
                failed: result.failed,
              })}
            />
            <Table<ImportRowResult>
              rowKey="line"
              size="small"
              columns={columns()}
              dataSource={result.rows}
              pagination={{ pageSize: 10, showTotal: (total) => t('共 {total} 行', { total }) }}
            />
          </>
        )}
      </Space>
    </Modal>
  );
}
