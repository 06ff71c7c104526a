import { Button } from 'antd';
import { useEffect } from 'react';
import { FullPageMessage } from '../components/full-page-message.tsx';
import { NetworkAnomalyIllustration } from '../components/illustrations/network-anomaly-illustration.tsx';
import { loadMerchant } from '../features/merchant/api/get-merchant.ts';
import { merchantText } from '../locales/zh-CN/merchant.ts';
import type { MerchantFailure } from '../stores/merchant.ts';

/** Shown instead of the portal when the merchant cannot be loaded: an unknown host, or no answer. */
export function SiteUnavailable({ failure }: { failure: MerchantFailure }) {
  // no merchant, no website to title the page with: the page is titled by what it says
  useEffect(() => {
    document.title = failure.kind === 'unknown-host' ? merchantText.unknownHostTitle : merchantText.unavailableTitle;
  }, [failure.kind]);
  if (failure.kind === 'unknown-host') {
    return (
      <FullPageMessage
        image="/images/site-unavailable.svg"
        title={merchantText.unknownHostTitle}
        detail={merchantText.unknownHostDetail(window.location.hostname)}
      />
    );
  }
  return (
    <FullPageMessage
      image={<NetworkAnomalyIllustration />}
      title={merchantText.unavailableTitle}
      detail={failure.message || merchantText.unavailableDetail}
      actions={
        <Button type="primary" onClick={() => void loadMerchant()}>
          {merchantText.retry}
        </Button>
      }
    />
  );
}
