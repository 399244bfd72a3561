import type { MailDetail } from '@youju/contract';
import { t, tc } from '../../../lib/i18n';

type OriginalAttachment = MailDetail['attachments'][number];

/** The attachments a forward carries: the original's files, not the images shown inside its body. */
export function forwardableAttachments(original: MailDetail | undefined): OriginalAttachment[] {
  return (original?.attachments ?? []).filter((attachment) => !attachment.inline);
}

/**
 * Fetches the original's attachments one by one, in their order, handing each on as a named file
 * (to be uploaded like a picked one). A failure is reported in the interface's language and the rest still come.
 */
export async function fetchForwardedFiles(
  attachments: OriginalAttachment[],
  download: (attachmentId: string) => Promise<Blob>,
  onFile: (file: File) => void,
  onFailure: (attachment: OriginalAttachment, message: string) => void,
): Promise<void> {
  for (const attachment of attachments) {
    const name = attachment.filename || tc('filename', '附件');
    try {
      const blob = await download(attachment.id);
      onFile(new File([blob], name, { type: attachment.contentType || blob.type }));
    } catch (failure) {
      const reason = failure instanceof Error && failure.message ? failure.message : t('下载失败');
      onFailure(attachment, t('原邮件的附件“{name}”添加失败：{reason}', { name, reason }));
    }
  }
}
