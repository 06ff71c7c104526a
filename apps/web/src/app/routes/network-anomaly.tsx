import { Button } from 'antd';
import { useNavigate } from 'react-router';
import { FullPageMessage } from '../../components/full-page-message.tsx';
import { paths } from '../../lib/paths.ts';
import { commonText } from '../../locales/zh-CN/common.ts';

/** Where navigation lands while offline (spec §2); retry goes to the wallet. */
export function NetworkAnomaly() {
  const navigate = useNavigate();
  return (
    <FullPageMessage
      image="/images/network-anomaly.svg"
      title={commonText.networkAnomaly}
      actions={
        <Button type="primary" onClick={() => navigate(paths.wallet.getHref())}>
          {commonText.retry}
        </Button>
      }
    />
  );
}
