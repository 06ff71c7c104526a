import { ReloadOutlined } from '@ant-design/icons';
import { Button } from 'antd';
import type { ReactNode } from 'react';
import { useNarrowScreen } from '../lib/use-narrow-screen.ts';

/** A button of a page's title row: its icon and words, and on a narrow screen the icon alone, the words still its name. */
export function PageAction({ icon, label, onClick, testId }: { icon: ReactNode; label: string; onClick: () => void; testId?: string }) {
  const narrow = useNarrowScreen();
  return (
    <Button icon={icon} onClick={onClick} aria-label={label} {...(testId ? { 'data-testid': testId } : {})}>
      {narrow ? null : label}
    </Button>
  );
}

/** 刷新 in a page's title row: reads the page's answers again, its icon turning while any of them is on the way. */
export function RefreshAction({ label, fetching, onClick }: { label: string; fetching: boolean; onClick: () => void }) {
  return <PageAction icon={<ReloadOutlined spin={fetching} />} label={label} onClick={onClick} />;
}
