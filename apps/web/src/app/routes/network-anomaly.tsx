import { Button } from 'antd';
import { FullPageMessage } from '../../components/full-page-message.tsx';
import { NetworkAnomalyIllustration } from '../../components/illustrations/network-anomaly-illustration.tsx';
import { paths } from '../../lib/paths.ts';
import { commonText } from '../../locales/zh-CN/common.ts';

/**
 * Where navigation lands while offline (spec §2); retry goes to the wallet. It loads the wallet as a
 * new page: a screen whose code failed to download while offline stays failed in this page's memory.
 */
export function NetworkAnomaly() {
  const retry = () => {
    if (navigator.onLine === false) return;
    window.location.assign(paths.wallet.getHref());
  };
  return (
    <FullPageMessage
      image={<NetworkAnomalyIllustration />}
      title={commonText.networkAnomaly}
      actions={
        <Button type="primary" onClick={retry}>
          {commonText.retry}
        </Button>
      }
    />
  );
}
