import { DownloadOutlined } from '@ant-design/icons';
import { Button, Tooltip } from 'antd';

/** 导出 at the end of a list's filter bar: the filtered rows as .xlsx, off until the list has rows. */
export function ExportButton({
  hint,
  label,
  onClick,
  pending,
  disabled,
  testId,
}: {
  hint: string;
  label: string;
  onClick: () => void;
  pending: boolean;
  disabled: boolean;
  testId: string;
}) {
  return (
    <Tooltip title={hint}>
      <Button icon={<DownloadOutlined />} onClick={onClick} loading={pending} disabled={disabled} data-testid={testId}>
        {label}
      </Button>
    </Tooltip>
  );
}
