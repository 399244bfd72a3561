import type { UploadedFile } from '@youju/contract';
import { upload } from '../../../lib/http';
import { tc } from '../../../lib/i18n';

/**
 * POST /api/user/uploadFile (multipart field `file`). `onProgress` receives the share of the body
 * sent so far as a whole percentage, shown beside each attachment.
 */
export function uploadFile(
  file: Blob & { name?: string },
  onProgress: (percent: number) => void,
  signal?: AbortSignal,
): Promise<UploadedFile> {
  return upload<UploadedFile>('/user/uploadFile', file, {
    field: 'file',
    filename: file.name ?? tc('filename', '附件'),
    onProgress,
    signal,
  });
}
