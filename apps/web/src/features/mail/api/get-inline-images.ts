import { useQueries } from '@tanstack/react-query';
import { useMemo } from 'react';
import { downloadBlob } from '../../../lib/http';
import { t } from '../../../lib/i18n';
import { mailKeys } from './get-inbox';

/** Inline images bigger than this stay out of the message frame (they remain downloadable). */
export const INLINE_IMAGE_MAX_BYTES = 5 * 1024 * 1024;

function readAsDataUrl(blob: Blob): Promise<string> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(String(reader.result));
    reader.onerror = () => reject(new Error(t('图片读取失败')));
    reader.readAsDataURL(blob);
  });
}

/**
 * An inline (cid:) image as a data: URL. The server points cid images at `/api/user/attachment/{id}`,
 * which needs the login token; fetching them here keeps the token out of the message frame, whose
 * content security policy then allows images from data: only.
 */
export async function getInlineImage(apiPath: string): Promise<string | null> {
  const blob = await downloadBlob(apiPath);
  if (blob.size > INLINE_IMAGE_MAX_BYTES || !blob.type.startsWith('image/')) return null;
  return readAsDataUrl(blob);
}

/**
 * Loads every inline image of a message. Resolves to a map from the server's URL to its data: URL,
 * the same object until another image arrives, so the frame is rebuilt only when something changed.
 */
export function useInlineImages(urls: readonly string[]): ReadonlyMap<string, string> {
  const loaded = useQueries({
    queries: urls.map((url) => ({
      queryKey: mailKeys.inlineImage(url),
      queryFn: () => getInlineImage(url.replace(/^\/api(?=\/)/, '')),
      staleTime: Infinity,
      meta: { silent: true },
    })),
    combine: (results) => results.map((result) => result.data ?? null),
  });
  const signature = loaded.map((data) => (data ? data.length : 0)).join(',');
  // biome-ignore lint/correctness/useExhaustiveDependencies: `signature` stands for `loaded`, which is a new array each render
  return useMemo(() => {
    const images = new Map<string, string>();
    urls.forEach((url, index) => {
      const data = loaded[index];
      if (data) images.set(url, data);
    });
    return images;
  }, [urls, signature]);
}
