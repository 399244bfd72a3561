import { userScreens } from '../../../config/routes';
import { EmailAccountTable } from '../../../features/email-accounts/components/email-account-table';

const clientSettingsPath = userScreens.find((entry) => entry.screen === 'clientSettings')?.path;
const forwardPath = userScreens.find((entry) => entry.screen === 'forward')?.path;

/** /user/emailAccount: the mailbox accounts, each with a way to its 客户端设置 and 邮件转发. */
export function Component() {
  return (
    <EmailAccountTable
      {...(clientSettingsPath
        ? {
            clientSettingsHref: (email: string) =>
              `${clientSettingsPath}?address=${encodeURIComponent(email)}`,
          }
        : {})}
      {...(forwardPath
        ? { forwardHref: (email: string) => `${forwardPath}?address=${encodeURIComponent(email)}` }
        : {})}
    />
  );
}
