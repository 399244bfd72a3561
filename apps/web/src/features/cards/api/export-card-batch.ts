import { useMutation } from '@tanstack/react-query';
import { utcOffsetMinutes } from '../../../lib/dates';
import { downloadFile } from '../../../lib/http';

/** GET /api/user/exportCard: a batch as CSV (with what each code grants) or TXT (one code per line). */
export function exportCardBatch(input: { batchId: string; format: 'csv' | 'txt' }): Promise<string> {
  return downloadFile('/user/exportCard', { ...input, utcOffsetMinutes: utcOffsetMinutes() });
}

export function useExportCardBatch() {
  return useMutation({ mutationFn: exportCardBatch });
}
