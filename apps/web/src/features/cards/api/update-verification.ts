import type { OpenedAvailableAnswer, VerificationAnswer, VerificationBody } from '@portal/contract/cards';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { http } from '../../../lib/http.ts';
import { cardKeys } from './card-keys.ts';

/**
 * PUT /api/v1/card/verification: the real name with the ID number, the Latin name with the website,
 * or both (a pair is given whole). Answers everything the account has given, as the GET does.
 */
export const updateVerification = (body: VerificationBody) => http.put<VerificationAnswer>('/api/v1/card/verification', body);

/**
 * The answer is the new state: it replaces the cached one, so a screen reopened shows it without
 * asking again. The flags of the products one may open follow it at once (the opening the screen goes
 * on to would otherwise draw the answer it cached before, and send the account back to verify); other
 * card answers are asked for again when next shown.
 */
export const useUpdateVerification = () => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateVerification,
    onSuccess: (answer) => {
      queryClient.setQueryData(cardKeys.verification(), answer);
      queryClient.setQueryData<OpenedAvailableAnswer>(cardKeys.openedAvailable(), (cached) =>
        cached ? { ...cached, verification: { basic: answer.basic !== null, secondary: answer.secondary !== null } } : cached,
      );
      const given = cardKeys.verification();
      void queryClient.invalidateQueries({
        queryKey: cardKeys.all,
        predicate: (query) => query.queryKey.length !== given.length || query.queryKey.some((part, index) => part !== given[index]),
      });
    },
  });
};
