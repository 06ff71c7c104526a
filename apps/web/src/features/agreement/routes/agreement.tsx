import { Skeleton } from 'antd';
import { useEffect } from 'react';
import { useLocation, useNavigate, useSearchParams } from 'react-router';
import { FormTitle } from '../../../components/form-title.tsx';
import { SafeHtml } from '../../../components/safe-html.tsx';
import { SiteFooter } from '../../../components/site-footer.tsx';
import { paths } from '../../../lib/paths.ts';
import { agreementText } from '../../../locales/zh-CN/agreement.ts';
import { useMerchantStore } from '../../../stores/merchant.ts';
import { useAgreement } from '../api/get-agreement.ts';
import styles from './agreement.module.css';
import { withoutLeadingTitle } from '../lib/leading-title.ts';

/** Where the agreement's id came from: navigation state (inside the portal) or ?id= (a new window). */
function useAgreementId() {
  const location = useLocation();
  const [search] = useSearchParams();
  const stateId = (location.state as { id?: unknown } | null)?.id;
  if (typeof stateId === 'string' && stateId) return { id: stateId, fromQuery: false };
  const queryId = search.get('id');
  return { id: queryId || null, fromQuery: Boolean(queryId) };
}

/** /agreement (spec §2): the user agreement's title and sanitised HTML. */
export default function AgreementPage() {
  const navigate = useNavigate();
  const merchant = useMerchantStore((state) => state.merchant);
  const { id, fromQuery } = useAgreementId();
  const agreement = useAgreement(id);
  const missing = !id || agreement.isError || (agreement.isSuccess && !agreement.data.text);

  useEffect(() => {
    if (missing) navigate(paths.signIn.getHref(), { replace: true });
  }, [missing, navigate]);

  const goBack = () => {
    if (fromQuery) navigate(paths.signUp.getHref());
    else navigate(-1);
  };

  if (missing) return null;
  return (
    <div className={styles.page}>
      {merchant ? (
        <header className={styles.header}>
          <img className={styles.logo} src={merchant.dark_logo} alt={merchant.name} height={32} />
        </header>
      ) : null}
      <main className={styles.main}>
        <article className={styles.paper} aria-busy={agreement.isPending}>
          <FormTitle title={agreement.data?.title ?? agreementText.fallbackTitle} onBack={goBack} />
          {agreement.data ? (
            <SafeHtml className={styles.text} html={withoutLeadingTitle(agreement.data.text, agreement.data.title)} />
          ) : (
            <Skeleton active paragraph={{ rows: 8 }} title={false} aria-label={agreementText.loading} />
          )}
        </article>
      </main>
      {merchant ? <SiteFooter merchant={merchant} /> : null}
    </div>
  );
}
