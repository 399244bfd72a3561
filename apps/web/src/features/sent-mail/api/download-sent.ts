import { downloadFile } from '../../../lib/http';

/** GET /api/user/sentRaw/{id}: the signed message exactly as sent, saved as an .eml file. */
export async function downloadSentRaw(id: number): Promise<void> {
  await downloadFile(`/user/sentRaw/${id}`, {}, { filename: `sent-${id}.eml` });
}
