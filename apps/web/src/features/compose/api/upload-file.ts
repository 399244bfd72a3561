import type { UploadedFile } from '@youju/contract';
import { request } from '../../../lib/api-client';
import { unwrap } from '../../../lib/api-error';

/**
 * POST /api/user/uploadFile (multipart field `file`). `onProgress` receives the share of the body
 * sent so far as a whole percentage (seed section 7: "upload progress reported as a percentage").
 */
export async function uploadFile(
  file: Blob & { name?: string },
  onProgress: (percent: number) => void,
  signal?: AbortSignal,
): Promise<UploadedFile> {
  const form = new FormData();
  form.append('file', file, file.name ?? '附件');
  const envelope = await request<UploadedFile>({
    method: 'POST',
    url: '/user/uploadFile',
    data: form,
    signal,
    onUploadProgress: (event) => {
      const total = event.total ?? file.size;
      if (total > 0) onProgress(Math.min(100, Math.round((event.loaded / total) * 100)));
    },
  });
  return unwrap(envelope);
}
