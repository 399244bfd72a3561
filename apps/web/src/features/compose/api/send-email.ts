import { useMutation } from '@tanstack/react-query';
import type { SendEmailBody, SendEmailData } from '@youju/contract';
import { callApi } from '../../../lib/api-error';

/** POST /api/user/sendEmail: queued at once; delivery shows up in the sent list. */
export function sendEmail(body: SendEmailBody): Promise<SendEmailData> {
  return callApi<SendEmailData>({ method: 'POST', url: '/user/sendEmail', data: body });
}

/** The drawer shows the server's reason next to the send button, so the failure stays silent here. */
export function useSendEmail(onSuccess?: (data: SendEmailData) => void) {
  return useMutation({ mutationFn: sendEmail, meta: { silent: true }, onSuccess });
}
