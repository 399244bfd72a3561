import { queryOptions, useQuery } from '@tanstack/react-query';
import { downloadBlob } from '../../../lib/http';
import { mailKeys } from './get-inbox';

/** The raw source shown on screen is cut here; the download button gives the whole message. */
export const RAW_PREVIEW_BYTES = 512 * 1024;

export interface RawSource {
  text: string;
  size: number;
  truncated: boolean;
  blob: Blob;
}

function rawPath(messageId: number): string {
  return `/user/raw/${encodeURIComponent(messageId)}`;
}

/** GET /api/user/raw/{id}: the message exactly as received (.eml). */
export async function getRawSource(id: number): Promise<RawSource> {
  const blob = await downloadBlob(rawPath(id));
  const head = await blob.slice(0, RAW_PREVIEW_BYTES).arrayBuffer();
  // Mail headers are ASCII; 8-bit bodies in other charsets show as replacement characters here.
  const text = new TextDecoder('utf-8').decode(head);
  return { text, size: blob.size, truncated: blob.size > RAW_PREVIEW_BYTES, blob };
}

export function getRawSourceQueryOptions(id: number) {
  return queryOptions({ queryKey: mailKeys.raw(id), queryFn: () => getRawSource(id), staleTime: Infinity });
}

export function useRawSource(id: number, enabled: boolean) {
  return useQuery({ ...getRawSourceQueryOptions(id), enabled });
}
