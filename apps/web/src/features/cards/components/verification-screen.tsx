import type { VerificationAnswer } from '@portal/contract/cards';
import type { ReactNode } from 'react';
import { useNavigate, useSearchParams } from 'react-router';
import { PageFrame } from '../../../components/page-frame.tsx';
import { useVerification } from '../api/get-verification.ts';
import { returnTarget } from '../lib/return-to.ts';
import { type GivenSummary, VerificationStep } from './verification-step.tsx';

interface ScreenText {
  title: string;
  intro: string;
  why: string;
  givenTitle: string;
  givenNote: string;
}

/**
 * A verification screen (product.md §4): its step over the account's verification answer; given or
 * sent, it goes on to `from` (a path of the portal), else to the card opening, replacing itself in
 * the history so that Back skips it.
 */
export function VerificationScreen({
  text,
  givenRows,
  form,
}: {
  text: ScreenText;
  /** what of the answer this screen shows as given, or null while it is not */
  givenRows: (answer: VerificationAnswer) => GivenSummary['rows'] | null;
  /** the form asking for the data, told how to go on once it is sent */
  form: (onDone: () => void) => ReactNode;
}) {
  const navigate = useNavigate();
  const [search] = useSearchParams();
  const target = returnTarget(search.get('from'));
  const verification = useVerification();
  const rows = verification.data ? givenRows(verification.data) : null;
  const goOn = () => navigate(target, { replace: true });

  return (
    <PageFrame title={text.title}>
      <VerificationStep
        status={verification.status}
        onRetry={() => void verification.refetch()}
        given={rows ? { title: text.givenTitle, note: text.givenNote, rows } : null}
        onContinue={goOn}
        intro={text.intro}
        why={text.why}
      >
        {form(goOn)}
      </VerificationStep>
    </PageFrame>
  );
}
