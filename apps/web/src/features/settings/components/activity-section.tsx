import { ACTIVITY_KIND_LABELS, ACTIVITY_KINDS } from '@portal/contract/team';
import { ListBody } from '../../../domain/lists/components/list-body.tsx';
import { ListPager } from '../../../domain/lists/components/list-pager.tsx';
import { useListLocation } from '../../../domain/lists/lib/use-list-location.ts';
import { usePageInRange } from '../../../domain/lists/lib/use-page-in-range.ts';
import { ExportButton } from '../../../domain/transactions/components/export-button.tsx';
import { TransactionFilterBar as FilterBar } from '../../../domain/transactions/components/transaction-filter-bar.tsx';
import { notifySuccess } from '../../../lib/notify.ts';
import { useNarrowScreen } from '../../../lib/use-narrow-screen.ts';
import { activityText } from '../../../locales/zh-CN/activity.ts';
import { useActivity, useActivityMembers, useExportActivity } from '../api/activity.ts';
import { type ActivityFilters, hasActivityFilters, readActivityLocation, writeActivityLocation } from '../lib/activity-filters.ts';
import { ActivityLines } from '../../../domain/team/components/activity-lines.tsx';
import { ActivityTable } from './activity-table.tsx';
import styles from './activity-section.module.css';
import { SettingsSection } from './settings-section.tsx';

const text = activityText;
const kindOptions = ACTIVITY_KINDS.map((kind) => ({ value: kind, label: ACTIVITY_KIND_LABELS[kind] }));

/** The members the log can be filtered by: every member of the team, and any removed one it names, as the log names them. */
function useMemberOptions() {
  const members = useActivityMembers();
  return (members.data ?? []).map((member) => ({ value: member.id, label: member.label }));
}

/**
 * 操作日志 on /settings (activity.read): every change of money, cards, members and security with who
 * made it, when, and from where, newest first; filtered by member, kind and China-time days (kept in
 * the address), in pages, and exported as .xlsx with the same filters.
 */
export function ActivitySection() {
  const narrow = useNarrowScreen();
  const { location, update } = useListLocation(readActivityLocation, writeActivityLocation);
  const { filters, page, pageSize } = location;
  const list = useActivity({ filters, page, pageSize }, true);
  const exporting = useExportActivity();
  const lastPage = usePageInRange(list, page, pageSize, update);
  const items = list.data?.items ?? [];
  const total = list.data?.total ?? 0;
  const memberOptions = useMemberOptions();

  const exportFiltered = () => exporting.mutate(filters, { onSuccess: () => notifySuccess(text.exportDone(total)) });

  return (
    <SettingsSection id="activity" title={text.section.title} description={text.section.description}>
      <div className={styles.filters}>
        <FilterBar<ActivityFilters>
          filters={filters}
          onChange={(next) => update({ filters: next })}
          compact={narrow}
          label={text.filters.label}
          testId="activity-filters"
          selects={[
            { key: 'member', className: styles.member, label: text.filters.member, placeholder: text.filters.allMembers, options: memberOptions, testId: 'filter-member' },
            { key: 'kind', className: styles.kind, label: text.filters.kind, placeholder: text.filters.allKinds, options: kindOptions, testId: 'filter-kind' },
          ]}
          days={{ start: text.filters.start, end: text.filters.end, presets: text.filters.presets, rangePlaceholder: text.filters.range, rangeLabel: text.filters.rangeLabel }}
          rangeClassName={styles.range}
          resetText={text.filters.reset}
          actions={
            <ExportButton
              hint={text.exportHint}
              label={text.exportButton}
              onClick={exportFiltered}
              pending={exporting.isPending}
              disabled={!list.data || total === 0}
              testId="activity-export"
            />
          }
        />
      </div>
      <ListBody
        list={list}
        skeletonRows={5}
        failed={{ title: text.loadFailed, retryText: text.retry, testId: 'activity-failed' }}
        empty={{
          shown: items.length === 0,
          filtered: hasActivityFilters(filters),
          text: text.empty,
          filteredText: text.emptyFiltered,
          resetText: text.clearFilters,
          onReset: () => update({ filters: {} }),
          className: styles.empty,
        }}
        className={undefined}
      >
        {narrow ? (
          <ActivityLines items={items} loading={list.isPlaceholderData} />
        ) : (
          <ActivityTable items={items} loading={list.isPlaceholderData} />
        )}
      </ListBody>
      <ListPager page={page} lastPage={lastPage} pageSize={pageSize} total={total} narrow={narrow} totalText={text.total} onChange={update} className={styles.pager} testId="activity-pager" />
    </SettingsSection>
  );
}
