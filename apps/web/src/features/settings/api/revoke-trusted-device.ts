import { useMutation, useQueryClient } from '@tanstack/react-query';
import { call } from '../../../lib/api-client.ts';
import * as securityCalls from '../../../lib/generated/security-calls.ts';
import { settingsKeys } from './settings-keys.ts';

/** DELETE /account/devices/:id: that device asks for the second verification again at its next sign-in. */
export const revokeTrustedDevice = (id: string) => call(securityCalls.revokeDevice, { params: { id } });

export const useRevokeTrustedDevice = () => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: revokeTrustedDevice,
    // a device already gone elsewhere is gone here too: the list is read again either way
    onSettled: () => queryClient.invalidateQueries(settingsKeys.all()),
  });
};
