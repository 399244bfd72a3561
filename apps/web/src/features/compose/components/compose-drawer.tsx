import { CloseOutlined, InboxOutlined, SaveOutlined, SendOutlined } from '@ant-design/icons';
import type { DraftDetail, DraftItem, MailDetail, SaveDraftBody, SendEmailData } from '@youju/contract';
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
  Spin,
  Typography,
  Upload,
} from 'antd';
import dayjs from 'dayjs';
import { type MutableRefObject, useEffect, useMemo, useRef, useState } from 'react';
import { downloadAttachment } from '../../../api/attachments';
import { formatBytes } from '../../../lib/bytes';
import { showSuccessMessage } from '../../../lib/feedback';
import { t, tc } from '../../../lib/i18n';
import { usePermissionStore } from '../../../state/permission';
import { useSettingsStore } from '../../../state/settings';
import { useDeleteDraft } from '../api/delete-draft';
import { getDraft } from '../api/get-draft';
import { useSenderChoices } from '../api/get-sender-addresses';
import { saveDraftOnLeave, useSaveDraft } from '../api/save-draft';
import { useSendEmail } from '../api/send-email';
import { uploadFile } from '../api/upload-file';
import { type ComposeMode, type ComposeValues, fromDraft, isEmailAddress, prefill } from './compose-prefill';
import { DraftList } from './draft-list';
import { fetchForwardedFiles, forwardableAttachments } from './forward-attachments';
import { hasContent, RichTextEditor } from './rich-text-editor';

/** The drawer's title for each mode (a function: read in the interface's language at render). */
const titles = (): Record<ComposeMode, string> => ({
  new: t('写邮件'),
  reply: t('回复'),
  replyAll: t('回复全部'),
  forward: t('转发'),
});
/** The server's default (settings.maxMessageBytes) when getVar has not said otherwise. */
const DEFAULT_MAX_BYTES = 25 * 1024 * 1024;
/** What sendEmail and saveDraft take (the contract's `attachments` maxItems). */
const MAX_ATTACHMENTS = 50;
/** Autosave runs this long after the last change (typing, a finished upload, a removal). */
const AUTOSAVE_DELAY_MS = 2000;

type SaveState =
  | { kind: 'idle' }
  | { kind: 'saving' }
  | { kind: 'saved'; at: string }
  | { kind: 'failed'; message: string };

interface AttachmentEntry {
  key: string;
  name: string;
  size: number;
  percent: number;
  status: 'uploading' | 'done' | 'error';
  /** an upload id, or `<draftId>-<index>` once the file is kept in a saved draft */
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
      if (bad.length > 0)
        throw new Error(t('{label}中的地址格式不正确：{addresses}', { label, addresses: bad.join(t('、')) }));
    },
  };
}

/** What the drawer asks the form before it closes: save what is unsaved; false keeps it open. */
type BeforeClose = MutableRefObject<(() => Promise<boolean>) | null>;

function ComposeForm({
  mode,
  original,
  signature,
  draft,
  beforeClose,
  onDraftSaved,
  onClose,
  onSent,
}: Omit<ComposeDrawerProps, 'open'> & {
  mode: ComposeMode;
  /** the saved draft this form goes on with */
  draft?: DraftDetail;
  beforeClose: BeforeClose;
  onDraftSaved: (id: number) => void;
}) {
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
    () => (draft ? fromDraft(draft) : prefill(mode, original, addresses, addresses[0] ?? '', signature)),
    [draft, mode, original, addresses, signature],
  );
  const [form] = Form.useForm<ComposeValues>();
  // A system user's addresses arrive after the drawer opens: fill From once they do.
  useEffect(() => {
    if (!form.getFieldValue('from') && initial.from) form.setFieldValue('from', initial.from);
  }, [form, initial.from]);
  const [html, setHtml] = useState(initial.html);
  const [showCopies, setShowCopies] = useState(initial.cc.length > 0);
  const [attachments, setAttachments] = useState<AttachmentEntry[]>(() =>
    (draft?.attachments ?? []).map((attachment) => ({
      key: `draft-${attachment.id}`,
      name: attachment.filename,
      size: attachment.size,
      percent: 100,
      status: 'done' as const,
      id: attachment.id,
    })),
  );
  const [error, setError] = useState<string | null>(null);
  const send = useSendEmail((data) => {
    showSuccessMessage(t('邮件已加入发送队列，可在“已发送”查看投递状态'));
    onSent?.(data);
    onClose();
  });

  // ---- autosave: 2 s after the last change, on close, never after sending ----
  const saveDraftCall = useSaveDraft();
  const deleteDraftCall = useDeleteDraft();
  const [saveState, setSaveState] = useState<SaveState>(
    draft ? { kind: 'saved', at: draft.savedAt } : { kind: 'idle' },
  );
  const draftId = useRef<number | undefined>(draft?.id);
  const htmlNow = useRef(initial.html);
  const attachmentsNow = useRef(attachments);
  attachmentsNow.current = attachments;
  const dirty = useRef(false);
  const finished = useRef(false);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const inFlight = useRef<Promise<boolean> | null>(null);
  const closeRefused = useRef(false);

  /** What saveDraft gets now; null when there is nothing worth keeping or no usable sender. */
  const draftBody = (): { body: SaveDraftBody; keys: string[] } | null => {
    const values = form.getFieldsValue(true) as Partial<ComposeValues>;
    const from = (values.from ?? '').trim().toLowerCase();
    if (!isEmailAddress(from)) return null;
    // Addresses still being typed wrong are left out of the draft rather than failing the save.
    const valid = (list: string[] | undefined) =>
      (list ?? []).map((address) => address.trim()).filter(isEmailAddress);
    const kept = attachmentsNow.current.filter((entry) => entry.status === 'done' && entry.id);
    const body: SaveDraftBody = {
      ...(draftId.current !== undefined ? { id: draftId.current } : {}),
      from,
      to: valid(values.to),
      cc: valid(values.cc),
      bcc: valid(values.bcc),
      subject: values.subject ?? '',
      ...(hasContent(htmlNow.current) ? { html: htmlNow.current } : {}),
      attachments: kept.map((entry) => entry.id as string),
      ...(initial.inReplyTo ? { inReplyTo: initial.inReplyTo } : {}),
    };
    const empty =
      !body.to?.length &&
      !body.cc?.length &&
      !body.bcc?.length &&
      !body.subject?.trim() &&
      !body.html &&
      kept.length === 0;
    if (empty && draftId.current === undefined) return null;
    return { body, keys: kept.map((entry) => entry.key) };
  };

  /** Saves now if anything changed; one save at a time, so each replaces the one before. */
  const saveNow = async (): Promise<boolean> => {
    clearTimeout(timer.current);
    while (inFlight.current) await inFlight.current;
    if (!dirty.current || finished.current) return true;
    const next = draftBody();
    dirty.current = false;
    if (!next) return true;
    setSaveState({ kind: 'saving' });
    const run = saveDraftCall.mutateAsync(next.body).then(
      (saved) => {
        draftId.current = saved.id;
        onDraftSaved(saved.id);
        // The saved draft now holds the files: they are its attachments, in the order sent.
        const ids = new Map(next.keys.map((key, index) => [key, `${saved.id}-${index}`]));
        setAttachments((list) =>
          list.map((entry) => (ids.has(entry.key) ? { ...entry, id: ids.get(entry.key) } : entry)),
        );
        attachmentsNow.current = attachmentsNow.current.map((entry) =>
          ids.has(entry.key) ? { ...entry, id: ids.get(entry.key) } : entry,
        );
        setSaveState({ kind: 'saved', at: saved.savedAt });
        return true;
      },
      (failure: unknown) => {
        dirty.current = true;
        setSaveState({
          kind: 'failed',
          message: failure instanceof Error ? failure.message : t('网络异常，请稍后重试'),
        });
        return false;
      },
    );
    inFlight.current = run;
    try {
      return await run;
    } finally {
      inFlight.current = null;
    }
  };

  const changed = () => {
    if (finished.current) return;
    dirty.current = true;
    closeRefused.current = false;
    clearTimeout(timer.current);
    timer.current = setTimeout(() => void saveNow(), AUTOSAVE_DELAY_MS);
  };
  useEffect(() => () => clearTimeout(timer.current), []);
  // Leaving the page (reload, tab closed) before the 2 s have passed: one last save that outlives it.
  // biome-ignore lint/correctness/useExhaustiveDependencies: reads refs only; registered once per form
  useEffect(() => {
    const onLeave = () => {
      if (!dirty.current || finished.current) return;
      const next = draftBody();
      if (next) saveDraftOnLeave(next.body);
    };
    window.addEventListener('pagehide', onLeave);
    return () => window.removeEventListener('pagehide', onLeave);
  }, []);

  beforeClose.current = async () => {
    if (finished.current) return true;
    const saved = await saveNow();
    if (saved || closeRefused.current) return true;
    closeRefused.current = true;
    setError(t('草稿没有保存成功，关闭会丢失未保存的修改；再点一次“关闭”仍然关闭。'));
    return false;
  };

  const discardDraft = async () => {
    finished.current = true;
    clearTimeout(timer.current);
    while (inFlight.current) await inFlight.current;
    if (draftId.current !== undefined) {
      try {
        await deleteDraftCall.mutateAsync(draftId.current);
      } catch (failure) {
        finished.current = false;
        setError(failure instanceof Error ? failure.message : t('删除草稿失败，请重试'));
        return;
      }
    }
    showSuccessMessage(t('草稿已删除'));
    onClose();
  };

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
      addFailed(
        file.name,
        file.size,
        t('文件太大：超过单个附件上限 {max}，未上传', { max: formatBytes(maxBytes, 'upload') }),
      );
      return;
    }
    const held = attachmentsNow.current.filter((entry) => entry.status !== 'error').length;
    if (held >= MAX_ATTACHMENTS) {
      addFailed(
        file.name,
        file.size,
        t('附件太多：一封邮件最多 {count} 个附件，未上传', { count: MAX_ATTACHMENTS }),
      );
      return;
    }
    const abort = new AbortController();
    const entry: AttachmentEntry = {
      key,
      name: file.name,
      size: file.size,
      percent: 0,
      status: 'uploading',
      abort,
    };
    attachmentsNow.current = [...attachmentsNow.current, entry];
    setAttachments((list) => [...list, entry]);
    // All bytes sent is not yet stored: the bar stops at 99 % until the server answers.
    uploadFile(file, (percent) => update(key, { percent: Math.min(percent, 99) }), abort.signal).then(
      (uploaded) => {
        update(key, { status: 'done', percent: 100, id: uploaded.id, name: uploaded.filename });
        attachmentsNow.current = attachmentsNow.current.map((item) =>
          item.key === key ? { ...item, status: 'done', percent: 100, id: uploaded.id } : item,
        );
        changed();
      },
      (failure: unknown) =>
        update(key, {
          status: 'error',
          error: failure instanceof Error ? failure.message : t('上传失败，请重试'),
        }),
    );
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
      addFailed(attachment.filename || tc('filename', '附件'), attachment.size, message),
    ).finally(() => setPreparing(false));
  }, [mode, original]);

  const remove = (entry: AttachmentEntry) => {
    entry.abort?.abort();
    attachmentsNow.current = attachmentsNow.current.filter((item) => item.key !== entry.key);
    setAttachments((list) => list.filter((item) => item.key !== entry.key));
    if (entry.status === 'done') changed();
  };

  const submit = async () => {
    setError(null);
    const values = await form.validateFields();
    // A save under way may rename the files (draft attachment ids): let it finish first.
    clearTimeout(timer.current);
    while (inFlight.current) await inFlight.current;
    const current = attachmentsNow.current;
    if (preparing || current.some((entry) => entry.status === 'uploading')) {
      setError(t('附件还在上传，请等上传完成后再发送'));
      return;
    }
    if (tooLarge) {
      setError(
        t('邮件过大：附件编码后约 {size}，超过上限 {max}，请删除部分附件', {
          size: formatBytes(estimated, 'upload'),
          max: formatBytes(maxBytes, 'upload'),
        }),
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
        attachments: current
          .filter((entry) => entry.status === 'done' && entry.id)
          .map((entry) => entry.id as string),
        ...(initial.inReplyTo ? { inReplyTo: initial.inReplyTo } : {}),
        ...(draftId.current !== undefined ? { draftId: draftId.current } : {}),
      },
      {
        onSuccess: () => {
          // The server removed the draft with the send; nothing more is saved from this form.
          finished.current = true;
          clearTimeout(timer.current);
        },
        onError: (failure) => setError(failure.message),
      },
    );
  };

  const saveStatus =
    saveState.kind === 'saving'
      ? t('正在保存草稿…')
      : saveState.kind === 'saved'
        ? t('草稿已保存 {time}', { time: dayjs(saveState.at).format('HH:mm') })
        : saveState.kind === 'failed'
          ? t('草稿保存失败：{message}', { message: saveState.message })
          : '';

  const recipientSelect = (label: string) => (
    <Select
      mode="tags"
      open={false}
      suffixIcon={null}
      // i18n-exempt: the full-width comma and semicolon separate addresses typed in any language
      tokenSeparators={[',', '，', ';', '；', ' ']}
      placeholder={t('输入{label}地址，回车或逗号分隔', { label })}
      aria-label={label}
    />
  );

  return (
    <Form
      form={form}
      layout="vertical"
      initialValues={initial}
      requiredMark={false}
      onFinish={submit}
      onValuesChange={changed}
    >
      <Form.Item
        name="from"
        label={t('发件人')}
        rules={[
          { required: true, message: t('请选择发件人地址') },
          {
            validator: async (_rule, value: string | undefined) => {
              const address = (value ?? '').trim().toLowerCase();
              if (!isEmailAddress(address)) throw new Error(t('发件人地址格式不正确'));
              if (isMailbox || addresses.some((own) => own.toLowerCase() === address)) return;
              const domain = address.slice(address.lastIndexOf('@') + 1);
              if (!domains.includes(domain)) throw new Error(t('只能使用你名下域名的地址发信'));
            },
          },
        ]}
      >
        {isMailbox ? (
          <Select options={[{ value: ownAddress, label: ownAddress }]} disabled aria-label={t('发件人')} />
        ) : (
          <AutoComplete
            options={addresses.map((address) => ({ value: address }))}
            placeholder={
              domains.length > 0
                ? t('选择地址，或输入 名称@{domain}', { domain: domains[0] ?? '' })
                : t('选择发件地址')
            }
            aria-label={t('发件人')}
            filterOption={(input, option) => String(option?.value ?? '').includes(input.toLowerCase())}
          />
        )}
      </Form.Item>
      <Form.Item
        name="to"
        label={t('收件人')}
        rules={[{ required: true, message: t('请填写收件人') }, addressRule(t('收件人'))]}
      >
        {recipientSelect(t('收件人'))}
      </Form.Item>
      {showCopies ? (
        <>
          <Form.Item name="cc" label={t('抄送')} rules={[addressRule(t('抄送'))]}>
            {recipientSelect(t('抄送'))}
          </Form.Item>
          <Form.Item
            name="bcc"
            label={t('密送')}
            extra={t('密送的收件人不会出现在邮件头中，其他收件人看不到。')}
            rules={[addressRule(t('密送'))]}
          >
            {recipientSelect(t('密送'))}
          </Form.Item>
        </>
      ) : (
        <Button
          type="link"
          size="small"
          style={{ padding: 0, marginBottom: 12 }}
          onClick={() => setShowCopies(true)}
        >
          {t('添加抄送 / 密送')}
        </Button>
      )}
      <Form.Item
        name="subject"
        label={t('主题')}
        rules={[{ max: 998, message: t('主题不能超过 998 个字符') }]}
      >
        <Input placeholder={t('邮件主题')} aria-label={t('主题')} />
      </Form.Item>
      <Form.Item label={t('正文')}>
        <RichTextEditor
          initialHtml={initial.html}
          onChange={(next) => {
            setHtml(next);
            htmlNow.current = next;
            changed();
          }}
          label={t('正文')}
        />
      </Form.Item>

      <Space direction="vertical" style={{ width: '100%' }}>
        <Upload.Dragger
          multiple
          showUploadList={false}
          fileList={[]}
          // The files go through our own upload (progress, limits, removal); antd only picks them.
          beforeUpload={(file) => {
            addFile(file);
            return false;
          }}
          data-testid="compose-dropzone"
        >
          <p className="ant-upload-drag-icon" style={{ marginBottom: 4 }}>
            <InboxOutlined aria-hidden />
          </p>
          <Typography.Text>{t('点击选择或把文件拖到这里添加附件')}</Typography.Text>
          <br />
          <Typography.Text type="secondary" style={{ fontSize: 12 }}>
            {t('单个附件和整封邮件都不能超过 {max}，最多 {count} 个；附件经 Base64 编码后约增大三分之一。', {
              max: formatBytes(maxBytes, 'upload'),
              count: MAX_ATTACHMENTS,
            })}
          </Typography.Text>
        </Upload.Dragger>
        {preparing && <Alert type="info" showIcon message={t('正在添加原邮件的附件…')} />}
        {attachments.length > 0 && (
          <List
            size="small"
            bordered
            dataSource={attachments}
            footer={
              <Typography.Text type={tooLarge ? 'danger' : 'secondary'}>
                {t('附件共 {total}，编码后约 {encoded}', {
                  total: formatBytes(totalBytes, 'upload'),
                  encoded: formatBytes(encodedSize(totalBytes), 'upload'),
                })}
                {tooLarge ? t('，超过上限 {max}', { max: formatBytes(maxBytes, 'upload') }) : ''}
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
                    aria-label={t('移除附件 {name}', { name: entry.name })}
                    onClick={() => remove(entry)}
                  />,
                ]}
              >
                <Space direction="vertical" size={0} style={{ width: '100%' }}>
                  <Typography.Text>
                    {t('{name}（{size}）', { name: entry.name, size: formatBytes(entry.size, 'upload') })}
                  </Typography.Text>
                  {entry.status === 'error' ? (
                    <Typography.Text type="danger">{entry.error}</Typography.Text>
                  ) : (
                    <Progress
                      percent={entry.percent}
                      size="small"
                      status={entry.status === 'done' && entry.percent >= 100 ? 'success' : 'active'}
                      format={(percent) =>
                        entry.status === 'done' && (percent ?? 0) >= 100 ? t('已上传') : `${percent ?? 0}%`
                      }
                    />
                  )}
                </Space>
              </List.Item>
            )}
          />
        )}
        {error && <Alert type="error" showIcon message={error} />}
        <Space wrap>
          <Button type="primary" htmlType="submit" icon={<SendOutlined />} loading={send.isPending}>
            {t('发送')}
          </Button>
          <Button
            icon={<SaveOutlined />}
            loading={saveState.kind === 'saving'}
            onClick={() => {
              dirty.current = true;
              void saveNow();
            }}
          >
            {t('保存草稿')}
          </Button>
          <Button
            onClick={async () => {
              if (await beforeClose.current?.()) onClose();
            }}
          >
            {t('关闭')}
          </Button>
          {saveState.kind !== 'idle' && draftId.current !== undefined && (
            <Button type="text" danger onClick={() => void discardDraft()}>
              {t('删除草稿')}
            </Button>
          )}
          <Typography.Text
            type={saveState.kind === 'failed' ? 'danger' : 'secondary'}
            data-testid="compose-draft-status"
            aria-live="polite"
          >
            {saveStatus}
          </Typography.Text>
        </Space>
      </Space>
    </Form>
  );
}

/**
 * The compose drawer: new message, reply, reply all, forward. From is one of the
 * caller's own addresses (a mailbox session: its address; a system user: its addresses or any
 * name on its domains); recipients are checked as typed; attachments are picked with a button or
 * dropped, upload at once with their progress shown; the limits are explained before sending.
 * What is written is saved as a draft on the server 2 s after each change and on closing
 * (saveDraft: the Drafts folder of the sender's mailbox); a new message lists the saved drafts to
 * go on with, and sending one removes it.
 */
export function ComposeDrawer({
  open,
  mode = 'new',
  original,
  signature,
  onClose,
  onSent,
}: ComposeDrawerProps) {
  const beforeClose: BeforeClose = useRef(null);
  const [draft, setDraft] = useState<DraftDetail | undefined>(undefined);
  const [picking, setPicking] = useState<number | null>(null);
  const [pickError, setPickError] = useState<string | null>(null);
  const [writing, setWriting] = useState<number | undefined>(undefined);
  const [closing, setClosing] = useState(false);

  // Every opening starts a fresh form; the drafts are offered again.
  useEffect(() => {
    if (!open) {
      setDraft(undefined);
      setWriting(undefined);
      setPickError(null);
    }
  }, [open]);

  const close = async () => {
    setClosing(true);
    try {
      if ((await beforeClose.current?.()) === false) return;
    } finally {
      setClosing(false);
    }
    onClose();
  };

  const pick = async (item: DraftItem) => {
    // What is on screen is saved first, so switching drafts loses nothing.
    if ((await beforeClose.current?.()) === false) return;
    setPicking(item.id);
    setPickError(null);
    try {
      const loaded = await getDraft(item.id);
      setDraft(loaded);
      setWriting(loaded.id);
    } catch (failure) {
      setPickError(failure instanceof Error ? failure.message : t('草稿读取失败，请重试'));
    } finally {
      setPicking(null);
    }
  };

  return (
    <Drawer
      open={open}
      onClose={() => void close()}
      title={draft ? t('编辑草稿') : titles()[mode]}
      // The whole width of a phone, 760 px on anything wider.
      size="min(760px, 100vw)"
      destroyOnHidden
      maskClosable={false}
      styles={{ body: { paddingTop: 12 } }}
    >
      {open && (
        <Spin spinning={closing} tip={t('正在保存草稿…')}>
          {mode === 'new' && (
            <DraftList onPick={(item) => void pick(item)} picking={picking} exclude={writing} />
          )}
          {pickError && <Alert type="error" showIcon message={pickError} style={{ marginBottom: 12 }} />}
          <ComposeForm
            key={draft ? `draft-${draft.id}` : `${mode}-${original?.id ?? 'new'}`}
            mode={mode}
            original={original}
            signature={signature}
            draft={draft}
            beforeClose={beforeClose}
            onDraftSaved={setWriting}
            onClose={onClose}
            onSent={onSent}
          />
        </Spin>
      )}
    </Drawer>
  );
}
