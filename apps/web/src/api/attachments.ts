import { downloadBlob } from '../lib/http';

/**
 * GET /api/user/attachment/{id}: one attachment of a received message, as bytes. The reading pane
 * saves it; a forward uploads it again.
 */
export function downloadAttachment(attachmentId: string): Promise<Blob> {
  return downloadBlob(`/user/attachment/${encodeURIComponent(attachmentId)}`);
}
