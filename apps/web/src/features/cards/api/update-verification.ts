import type { OpenedAvailableAnswer, VerificationBody } from '@portal/contract/cards';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { call } from '../../../lib/api-client.ts';
import * as cardCalls from '../../../lib/generated/cards-calls.ts';
import { cardAnswers, cardKeys } from '../../../domain/cards/api/card-keys.ts';

/**
 * PUT /card/verification: the real name with the ID number, the Latin name with the website,
 * or both (a pair is given whole). Answers everything the account has given, as the GET does.
 */
export const updateVerification = (body: VerificationBody) => call(cardCalls.saveVerification, { body });

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
      const [given] = cardKeys.verification();
      const cardScreens = cardAnswers.all();
      void queryClient.invalidateQueries({ predicate: (query) => cardScreens.predicate(query) && query.queryKey[0] !== given });
    },
  });
};
