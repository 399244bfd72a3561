import type { Envelope } from '@youju/contract';
import { unwrap } from './api-error';
import { envelopeFrom } from './client';
import { apiHeaders, apiTimeoutMs, apiUrl, transportFailure } from './rules';

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
 * with the envelope's data (same token, timeout and login-expired rule as every JSON call). It uses
 * XMLHttpRequest because fetch cannot report how much of a body has been sent.
 */
export async function upload<T>(url: string, file: Blob, options: UploadOptions): Promise<T> {
  const form = new FormData();
  form.append(options.field, file, options.filename);
  const envelope = await new Promise<Envelope<T>>((resolve, reject) => {
    const request = new XMLHttpRequest();
    request.open('POST', apiUrl(url));
    for (const [name, value] of Object.entries(apiHeaders())) request.setRequestHeader(name, value);
    request.timeout = apiTimeoutMs;
    request.upload.onprogress = (event) => {
      const total = event.lengthComputable ? event.total : file.size;
      if (total > 0) options.onProgress(Math.min(100, Math.round((event.loaded / total) * 100)));
    };
    request.onload = () => {
      try {
        resolve(envelopeFrom(request.status, request.responseText) as Envelope<T>);
      } catch (error) {
        reject(error);
      }
    };
    request.onerror = () => reject(new Error(transportFailure.network));
    request.ontimeout = () => reject(new Error(transportFailure.timeout));
    request.onabort = () => reject(new Error(transportFailure.cancelled));
    options.signal?.addEventListener('abort', () => request.abort());
    request.send(form);
  });
  return unwrap(envelope);
}
