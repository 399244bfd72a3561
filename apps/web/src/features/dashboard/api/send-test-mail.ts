import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { SendEmailData } from '@youju/contract';
import { apiPost } from '../../../lib/http';
import { t } from '../../../lib/i18n';
import { guideKeys } from './get-guide';

/**
 * The checklist's test mail: POST /api/user/sendEmail (the ordinary sending path) from
 * test@<the domain> to the address the administrator typed.
 */
export function sendTestMail(input: { domain: string; to: string }): Promise<SendEmailData> {
  return apiPost<SendEmailData>('/user/sendEmail', {
    from: `test@${input.domain}`,
    to: [input.to],
    subject: t('邮局测试邮件'),
    text: t('这是一封来自 {domain} 的测试邮件。收到它，说明这个域名已经可以发信了。', {
      domain: input.domain,
    }),
  });
}

export function useSendTestMail(onSuccess: () => void) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: sendTestMail,
    onSuccess: async () => {
      await queryClient.invalidateQueries({ queryKey: guideKeys.all });
      onSuccess();
    },
  });
}
