import { useMutation, useQueryClient } from '@tanstack/react-query';
import { http } from '../../../lib/http.ts';
import { settingsKeys } from './settings-keys.ts';

/** DELETE /api/v1/account/devices/{id}: that device asks for the second verification again at its next sign-in. */
export const revokeTrustedDevice = (id: string) => http.delete<null>(`/api/v1/account/devices/${encodeURIComponent(id)}`);

export const useRevokeTrustedDevice = () => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: revokeTrustedDevice,
    // a device already gone elsewhere is gone here too: the list is read again either way
    onSettled: () => queryClient.invalidateQueries({ queryKey: settingsKeys.all }),
  });
};
