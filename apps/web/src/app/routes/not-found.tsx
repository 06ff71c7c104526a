import { Button } from 'antd';
import { useNavigate } from 'react-router';
import { FullPageMessage } from '../../components/full-page-message.tsx';
import { resetMenuKey } from '../../lib/menu-key.ts';
import { paths } from '../../lib/paths.ts';
import { commonText } from '../../locales/zh-CN/common.ts';

/** Any path the portal does not know (spec §2). */
export default function NotFound() {
  const navigate = useNavigate();
  return (
    <FullPageMessage
      image="/images/not-found.svg"
      title={commonText.notFound}
      actions={
        <Button
          type="primary"
          onClick={() => {
            resetMenuKey();
            navigate(paths.wallet.getHref());
          }}
        >
          {commonText.backToHome}
        </Button>
      }
    />
  );
}
