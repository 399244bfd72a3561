import { CloseOutlined, PaperClipOutlined, SendOutlined } from '@ant-design/icons';
import type { MailDetail, SendEmailData } from '@youju/contract';
import {
  Alert,
  AutoComplete,
  Button,
  Drawer,
  Form,
  Input,
  List,
  Progress,
  Select,
  Space,
  Typography,
} from 'antd';
import { useEffect, useMemo, useRef, useState } from 'react';
import { downloadAttachment } from '../../../api/attachments';
import { formatBytes } from '../../../lib/bytes';
import { showSuccessMessage } from '../../../lib/feedback';
import { usePermissionStore } from '../../../state/permission';
import { useSettingsStore } from '../../../state/settings';
import { useSenderChoices } from '../api/get-sender-addresses';
import { useSendEmail } from '../api/send-email';
import { uploadFile } from '../api/upload-file';
import { type ComposeMode, type ComposeValues, isEmailAddress, prefill } from './compose-prefill';
import { fetchForwardedFiles, forwardableAttachments } from './forward-attachments';
import { hasContent, RichTextEditor } from './rich-text-editor';

const TITLES: Record<ComposeMode, string> = {
  new: '写邮件',
  reply: '回复',
  replyAll: '回复全部',
  forward: '转发',
};
/** The server's default (settings.maxMessageBytes) when getVar has not said otherwise. */
const DEFAULT_MAX_BYTES = 25 * 1024 * 1024;

interface AttachmentEntry {
  key: string;
  name: string;
  size: number;
  percent: number;
  status: 'uploading' | 'done' | 'error';
  id?: string;
  error?: string;
  abort?: AbortController;
}

/** Base64 makes attachments a third larger on the wire (RFC 2045 section 6.8). */
function encodedSize(bytes: number): number {
  return Math.ceil(bytes / 3) * 4;
}

export interface ComposeDrawerProps {
  open: boolean;
  mode?: ComposeMode;
  /** the message answered or forwarded */
  original?: MailDetail;
  /** the caller's signature (personal settings), placed in the body when the drawer opens */
  signature?: string;
  onClose: () => void;
  /** called after the server queued the message */
  onSent?: (data: SendEmailData) => void;
}

function addressRule(label: string) {
  return {
    validator: async (_rule: unknown, value: string[] | undefined) => {
      const bad = (value ?? []).filter((address) => !isEmailAddress(address));
      if (bad.length > 0) throw new Error(`${label}中的地址格式不正确：${bad.join('、')}`);
    },
  };
}

function ComposeForm({
  mode,
  original,
  signature,
  onClose,
  onSent,
}: Omit<ComposeDrawerProps, 'open'> & { mode: ComposeMode }) {
  const permission = usePermissionStore((state) => state.permissionData);
  const maxBytes = useSettingsStore((state) => state.settings.maxMessageBytes) ?? DEFAULT_MAX_BYTES;
  const isMailbox = permission.role === 'mailbox';
  const ownAddress = isMailbox && typeof permission.name === 'string' ? permission.name : '';
  const choices = useSenderChoices(!isMailbox);
  const addresses = useMemo(
    () => (isMailbox ? [ownAddress] : (choices.data?.addresses ?? [])),
    [isMailbox, ownAddress, choices.data],
  );
  const domains = choices.data?.domains ?? [];

  const initial: ComposeValues = useMemo(
    () => prefill(mode, original, addresses, addresses[0] ?? '', signature),
    [mode, original, addresses, signature],
  );
  const [form] = Form.useForm<ComposeValues>();
  // A system user's addresses arrive after the drawer opens: fill From once they do.
  useEffect(() => {
    if (!form.getFieldValue('from') && initial.from) form.setFieldValue('from', initial.from);
  }, [form, initial.from]);
  const [html, setHtml] = useState(initial.html);
  const [showCopies, setShowCopies] = useState(initial.cc.length > 0);
  const [attachments, setAttachments] = useState<AttachmentEntry[]>([]);
  const [error, setError] = useState<string | null>(null);
  const fileInput = useRef<HTMLInputElement>(null);
  const send = useSendEmail((data) => {
    showSuccessMessage('邮件已加入发送队列，可在“已发送”查看投递状态');
    onSent?.(data);
    onClose();
  });

  const update = (key: string, change: Partial<AttachmentEntry>) =>
    setAttachments((list) => list.map((entry) => (entry.key === key ? { ...entry, ...change } : entry)));

  const totalBytes = attachments.reduce((sum, entry) => sum + entry.size, 0);
  const estimated = encodedSize(totalBytes) + new Blob([html]).size * 2;
  const tooLarge = estimated > maxBytes;

  const addFailed = (name: string, size: number, message: string) =>
    setAttachments((list) => [
      ...list,
      { key: `${Date.now()}-${Math.random()}`, name, size, percent: 0, status: 'error', error: message },
    ]);

  const addFile = (file: File) => {
    const key = `${Date.now()}-${Math.random()}`;
    if (file.size > maxBytes) {
      addFailed(file.name, file.size, `超过单个附件上限 ${formatBytes(maxBytes, 'upload')}，未上传`);
      return;
    }
    const abort = new AbortController();
    setAttachments((list) => [
      ...list,
      { key, name: file.name, size: file.size, percent: 0, status: 'uploading', abort },
    ]);
    uploadFile(file, (percent) => update(key, { percent }), abort.signal).then(
      (uploaded) => update(key, { status: 'done', percent: 100, id: uploaded.id, name: uploaded.filename }),
      (failure: unknown) =>
        update(key, {
          status: 'error',
          error: failure instanceof Error ? failure.message : '上传失败，请重试',
        }),
    );
  };

  const addFiles = (files: FileList | null) => {
    for (const file of Array.from(files ?? [])) addFile(file);
    if (fileInput.current) fileInput.current.value = '';
  };

  // A forward carries the original's attachments: fetched with the token, then uploaded like picked files.
  const [preparing, setPreparing] = useState(false);
  const forwardStarted = useRef(false);
  // biome-ignore lint/correctness/useExhaustiveDependencies: once per opened drawer; addFile only reads setters and the limit
  useEffect(() => {
    const carried = mode === 'forward' ? forwardableAttachments(original) : [];
    if (forwardStarted.current || carried.length === 0) return;
    forwardStarted.current = true;
    setPreparing(true);
    void fetchForwardedFiles(carried, downloadAttachment, addFile, (attachment, message) =>
      addFailed(attachment.filename || '附件', attachment.size, message),
    ).finally(() => setPreparing(false));
  }, [mode, original]);

  const remove = (entry: AttachmentEntry) => {
    entry.abort?.abort();
    setAttachments((list) => list.filter((item) => item.key !== entry.key));
  };

  const submit = async () => {
    setError(null);
    const values = await form.validateFields();
    if (preparing || attachments.some((entry) => entry.status === 'uploading')) {
      setError('附件还在上传，请等上传完成后再发送');
      return;
    }
    if (tooLarge) {
      setError(
        `邮件过大：附件编码后约 ${formatBytes(estimated, 'upload')}，超过上限 ${formatBytes(maxBytes, 'upload')}，请删除部分附件`,
      );
      return;
    }
    send.mutate(
      {
        from: values.from.trim(),
        to: values.to,
        ...(values.cc?.length ? { cc: values.cc } : {}),
        ...(values.bcc?.length ? { bcc: values.bcc } : {}),
        subject: values.subject ?? '',
        ...(hasContent(html) ? { html } : {}),
        attachments: attachments
          .filter((entry) => entry.status === 'done' && entry.id)
          .map((entry) => entry.id as string),
        ...(initial.inReplyTo ? { inReplyTo: initial.inReplyTo } : {}),
      },
      { onError: (failure) => setError(failure.message) },
    );
  };

  const recipientSelect = (label: string) => (
    <Select
      mode="tags"
      open={false}
      suffixIcon={null}
      tokenSeparators={[',', '，', ';', '；', ' ']}
      placeholder={`输入${label}地址，回车或逗号分隔`}
      aria-label={label}
    />
  );

  return (
    <Form form={form} layout="vertical" initialValues={initial} requiredMark={false} onFinish={submit}>
      <Form.Item
        name="from"
        label="发件人"
        rules={[
          { required: true, message: '请选择发件人地址' },
          {
            validator: async (_rule, value: string | undefined) => {
              const address = (value ?? '').trim().toLowerCase();
              if (!isEmailAddress(address)) throw new Error('发件人地址格式不正确');
              if (isMailbox || addresses.some((own) => own.toLowerCase() === address)) return;
              const domain = address.slice(address.lastIndexOf('@') + 1);
              if (!domains.includes(domain)) throw new Error('只能使用你名下域名的地址发信');
            },
          },
        ]}
      >
        {isMailbox ? (
          <Select options={[{ value: ownAddress, label: ownAddress }]} disabled aria-label="发件人" />
        ) : (
          <AutoComplete
            options={addresses.map((address) => ({ value: address }))}
            placeholder={domains.length > 0 ? `选择地址，或输入 名称@${domains[0]}` : '选择发件地址'}
            aria-label="发件人"
            filterOption={(input, option) => String(option?.value ?? '').includes(input.toLowerCase())}
          />
        )}
      </Form.Item>
      <Form.Item
        name="to"
        label="收件人"
        rules={[{ required: true, message: '请填写收件人' }, addressRule('收件人')]}
      >
        {recipientSelect('收件人')}
      </Form.Item>
      {showCopies ? (
        <>
          <Form.Item name="cc" label="抄送" rules={[addressRule('抄送')]}>
            {recipientSelect('抄送')}
          </Form.Item>
          <Form.Item
            name="bcc"
            label="密送"
            extra="密送的收件人不会出现在邮件头中，其他收件人看不到。"
            rules={[addressRule('密送')]}
          >
            {recipientSelect('密送')}
          </Form.Item>
        </>
      ) : (
        <Button
          type="link"
          size="small"
          style={{ padding: 0, marginBottom: 12 }}
          onClick={() => setShowCopies(true)}
        >
          添加抄送 / 密送
        </Button>
      )}
      <Form.Item name="subject" label="主题" rules={[{ max: 998, message: '主题不能超过 998 个字符' }]}>
        <Input placeholder="邮件主题" aria-label="主题" />
      </Form.Item>
      <Form.Item label="正文">
        <RichTextEditor initialHtml={initial.html} onChange={setHtml} label="正文" />
      </Form.Item>

      <Space direction="vertical" style={{ width: '100%' }}>
        <Space wrap>
          <Button icon={<PaperClipOutlined />} onClick={() => fileInput.current?.click()}>
            添加附件
          </Button>
          <Typography.Text type="secondary">
            单个附件和整封邮件都不能超过 {formatBytes(maxBytes, 'upload')}；附件发送时经 Base64
            编码，约增大三分之一。
          </Typography.Text>
        </Space>
        <input
          ref={fileInput}
          type="file"
          multiple
          hidden
          aria-label="选择附件"
          onChange={(event) => addFiles(event.currentTarget.files)}
        />
        {preparing && <Alert type="info" showIcon message="正在添加原邮件的附件…" />}
        {attachments.length > 0 && (
          <List
            size="small"
            bordered
            dataSource={attachments}
            footer={
              <Typography.Text type={tooLarge ? 'danger' : 'secondary'}>
                附件共 {formatBytes(totalBytes, 'upload')}，编码后约{' '}
                {formatBytes(encodedSize(totalBytes), 'upload')}
                {tooLarge ? `，超过上限 ${formatBytes(maxBytes, 'upload')}` : ''}
              </Typography.Text>
            }
            renderItem={(entry) => (
              <List.Item
                data-testid="compose-attachment"
                actions={[
                  <Button
                    key="remove"
                    type="text"
                    size="small"
                    icon={<CloseOutlined />}
                    aria-label={`移除附件 ${entry.name}`}
                    onClick={() => remove(entry)}
                  />,
                ]}
              >
                <Space direction="vertical" size={0} style={{ width: '100%' }}>
                  <Typography.Text>
                    {entry.name}（{formatBytes(entry.size, 'upload')}）
                  </Typography.Text>
                  {entry.status === 'error' ? (
                    <Typography.Text type="danger">{entry.error}</Typography.Text>
                  ) : (
                    <Progress
                      percent={entry.percent}
                      size="small"
                      status={entry.status === 'uploading' ? 'active' : 'success'}
                      format={(percent) => (entry.status === 'done' ? '已上传' : `${percent ?? 0}%`)}
                    />
                  )}
                </Space>
              </List.Item>
            )}
          />
        )}
        {error && <Alert type="error" showIcon message={error} />}
        <Space>
          <Button type="primary" htmlType="submit" icon={<SendOutlined />} loading={send.isPending}>
            发送
          </Button>
          <Button onClick={onClose}>取消</Button>
        </Space>
      </Space>
    </Form>
  );
}

/**
 * The compose drawer: new message, reply, reply all, forward. From is one of the
 * caller's own addresses (a mailbox session: its address; a system user: its addresses or any
 * name on its domains); recipients are checked as typed; attachments upload at once with their
 * percentage shown; the limits are explained before sending.
 */
export function ComposeDrawer({
  open,
  mode = 'new',
  original,
  signature,
  onClose,
  onSent,
}: ComposeDrawerProps) {
  return (
    <Drawer
      open={open}
      onClose={onClose}
      title={TITLES[mode]}
      width={760}
      destroyOnHidden
      maskClosable={false}
      styles={{ body: { paddingTop: 12 } }}
    >
      {open && (
        <ComposeForm
          key={`${mode}-${original?.id ?? 'new'}`}
          mode={mode}
          original={original}
          signature={signature}
          onClose={onClose}
          onSent={onSent}
        />
      )}
    </Drawer>
  );
}
