import type { DraftDetail } from '@youju/contract';
import { apiGet } from '../../../lib/http';

/** GET /api/user/getDraft?id=: everything compose needs to go on writing (HTML sanitised). */
export function getDraft(id: number): Promise<DraftDetail> {
  return apiGet<DraftDetail>('/user/getDraft', { id });
}
