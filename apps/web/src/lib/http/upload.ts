import { unwrap } from './api-error';
import { requestEnvelope } from './client';

export interface UploadOptions {
  /** the multipart field the file goes in */
  field: string;
  /** the file name sent with it */
  filename: string;
  /** the share of the body sent so far, as a whole percentage */
  onProgress: (percent: number) => void;
  signal?: AbortSignal;
}

/**
 * POSTs one file as multipart form data, reporting upload progress as a percentage, and resolves
 * with the envelope's data (same token, timeout and login-expired rule as every JSON call).
 */
export async function upload<T>(url: string, file: Blob, options: UploadOptions): Promise<T> {
  const form = new FormData();
  form.append(options.field, file, options.filename);
  const envelope = await requestEnvelope<T>({
    method: 'POST',
    url,
    data: form,
    signal: options.signal,
    onUploadProgress: (event) => {
      const total = event.total ?? file.size;
      if (total > 0) options.onProgress(Math.min(100, Math.round((event.loaded / total) * 100)));
    },
  });
  return unwrap(envelope);
}
