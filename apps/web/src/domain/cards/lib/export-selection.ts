import { EXPORT_IDS_MAX } from '@portal/contract/card-batches';

/** Navigation state that carries the cards ticked on /card to /bulk-export. */
export interface ExportSelectionState {
  exportIds: string[];
}

export const isExportSelectionState = (state: unknown): state is ExportSelectionState => {
  const ids = (state as ExportSelectionState | null)?.exportIds;
  return Array.isArray(ids) && ids.length > 0 && ids.length <= EXPORT_IDS_MAX && ids.every((id) => typeof id === 'string');
};
