import { useQueryClient } from '@tanstack/react-query';
import { useNavigate } from 'react-router-dom';
import { paths } from '../config/routes';
import { refreshVariables } from '../lib/variables';
import { forgetCredential } from '../state/credential';
import { saveToken } from '../state/session';

/**
 * Enters /user with a new session token (a login, a registration, the mailbox a card just opened):
 * forgets the previous caller's data and fetches the variables of the new role first, so that the
 * menus match at once.
 */
export function useEnterSession() {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  return async (token: string) => {
    saveToken(token);
    // Another login: a temporary mailbox's unsaved credential is no longer this session's concern.
    forgetCredential();
    queryClient.clear();
    await refreshVariables();
    await navigate(paths.user);
  };
}
