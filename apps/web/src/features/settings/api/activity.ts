import { keepPreviousData, queryOptions, useMutation, useQuery } from '@tanstack/react-query';
import { call, download } from '../../../lib/api-client.ts';
import * as teamCalls from '../../../lib/generated/team-calls.ts';
import { queryKeyOf } from '../../../lib/query-keys.ts';
import { fileNameFrom, saveBlob } from '../../../lib/save-file.ts';
import { activityText } from '../../../locales/zh-CN/activity.ts';
import { type ActivityFilters, activityFilterQuery } from '../lib/activity-filters.ts';

/** What one page of the activity log asks for. */
export interface ActivityListParams {
  filters: ActivityFilters;
  page: number;
  pageSize: number;
}

const activityQueryOf = ({ filters, page, pageSize }: ActivityListParams) => ({ ...activityFilterQuery(filters), page, page_size: pageSize });

/** GET /team/activity: one page of the team's activity log, newest first, filtered. */
export const getActivityQueryOptions = (params: ActivityListParams) =>
  queryOptions({
    queryKey: queryKeyOf(teamCalls.activity, { query: activityQueryOf(params) }),
    queryFn: () => call(teamCalls.activity, { query: activityQueryOf(params) }),
    staleTime: 0,
    refetchOnWindowFocus: true,
  });

/** The log keeps showing the previous page while the next one loads; not asked by a role that may not read it. */
export const useActivity = (params: ActivityListParams, enabled: boolean) => useQuery({ ...getActivityQueryOptions(params), placeholderData: keepPreviousData, enabled });

/** GET /team/activity/members: whom the log can be filtered by (every member, not only those a page shows). */
export const useActivityMembers = () =>
  useQuery({
    queryKey: queryKeyOf(teamCalls.activityMembers),
    queryFn: () => call(teamCalls.activityMembers).then((answer) => answer.items),
    staleTime: 0,
  });

/** GET /team/activity/export: what the filters select as .xlsx, saved under the name the server gave it. */
export const useExportActivity = () =>
  useMutation({
    mutationFn: async (filters: ActivityFilters) => {
      const response = await download(teamCalls.exportActivity, { query: activityFilterQuery(filters) });
      const disposition = response.headers['content-disposition'];
      const name = fileNameFrom(typeof disposition === 'string' ? disposition : null, activityText.exportFileName);
      saveBlob(response.data, name);
      return name;
    },
  });
