import { useMutation } from '@tanstack/react-query';
import type { SendEmailBody, SendEmailData } from '@youju/contract';
import { apiPost } from '../../../lib/http';

/** POST /api/user/sendEmail: queued at once; delivery shows up in the sent list. */
export function sendEmail(body: SendEmailBody): Promise<SendEmailData> {
  return apiPost<SendEmailData>('/user/sendEmail', body);
}

/** The drawer shows the server's reason next to the send button, so the failure stays silent here. */
export function useSendEmail(onSuccess?: (data: SendEmailData) => void) {
  return useMutation({ mutationFn: sendEmail, meta: { silent: true }, onSuccess });
}
